package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

func (v *env) studio(a *Account) (jobID, docID string) {
	v.t.Helper()
	j, err := v.e.CreateJob(context.Background(), a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 2)}, Retention: Studio})
	if err != nil {
		v.t.Fatal(err)
	}
	j = v.waitDone(a, j.ID)
	if j.Documents[0].Status != StatusRedacted {
		v.t.Fatalf("%+v", j.Documents[0])
	}
	// The worker settles its lease after the commit (shared store); an
	// apply meanwhile is refused as a conflict.
	waitFor(v.t, "the worker to end", func() bool { return v.e.sched.inflightCount() == 0 })
	return j.ID, j.Documents[0].ID
}

// TestApplyShowsRedactingAndCancelsOnDelete: while apply runs the document
// (and job) show redacting, the processor gets the fixed mask set, and
// deleting the job cancels the apply and waits for it.
func TestApplyShowsRedactingAndCancelsOnDelete(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("ap@example.com", PlanStandard, 0)
	jobID, docID := v.studio(a)
	st, err := v.e.ReviewState(context.Background(), a, docID)
	if err != nil || len(st.Masks) != 2 || st.Version != 1 {
		t.Fatalf("state %+v %v", st, err)
	}
	for len(v.proc.started) > 0 {
		<-v.proc.started // the first run's
	}
	v.proc.blockAll = true
	done := make(chan error, 1)
	go func() {
		_, err := v.e.ApplyReview(context.Background(), a, docID, "t")
		done <- err
	}()
	select {
	case <-v.proc.started:
	case <-time.After(10 * time.Second):
		t.Fatal("apply did not start")
	}
	j, _ := v.e.GetJob(context.Background(), a, jobID)
	if j.Documents[0].Status != StatusRedacting || j.Status != StatusRedacting {
		t.Fatalf("during apply: %+v", j)
	}
	if in := v.proc.input(docID); !in.Fixed || len(in.Masks) != 2 {
		t.Fatalf("apply input %+v", in)
	}
	if _, err := v.e.ReviewState(context.Background(), a, docID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("state during apply: %v, want not found", err)
	}
	used := v.pagesUsed(a)
	if err := v.e.DeleteJob(context.Background(), a, jobID); err != nil {
		t.Fatal(err)
	}
	// The document was redacted and delivered before the apply: deleting
	// the job during an apply refunds nothing.
	if now := v.pagesUsed(a); now != used {
		t.Fatalf("pages used %d after deleting during an apply, want %d", now, used)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("apply of a deleted job: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("delete did not end the apply")
	}
}

// TestApplyInterruptedByCrash: a document left redacting by an apply
// that a crash interrupted comes back redacted with its output, and is
// not processed again from scratch. On a shared store the other nodes
// run on, the janitor restores it once it is older than staleAfter.
func TestApplyInterruptedByCrash(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("cr@example.com", PlanStandard, 0)
	jobID, docID := v.studio(a)
	d, err := v.e.jl.Doc(docID)
	if err != nil {
		t.Fatal(err)
	}
	d.Status = string(StatusRedacting) // as ApplyReview leaves it mid-run
	b := v.e.jl.NewBatch()
	b.PutDoc(d)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	p := newTestProc()
	v.reopen(p)
	if onSharedStore() {
		v.e.janitorOnce(bg)
		if j, _ := v.e.GetJob(bg, a, jobID); j.Documents[0].Status != StatusRedacting {
			t.Fatalf("a young apply was restored: another node may run it: %+v", j)
		}
		v.clock.Advance(staleAfter + time.Minute)
		v.e.janitorOnce(bg)
	}
	j, err := v.e.GetJob(context.Background(), a, jobID)
	if err != nil || j.Documents[0].Status != StatusRedacted || j.Status != StatusRedacted {
		t.Fatalf("after restart: %+v %v", j, err)
	}
	time.Sleep(100 * time.Millisecond)
	if p.callCount(docID) != 0 {
		t.Fatal("the interrupted apply was processed again from scratch")
	}
	if _, _, err := v.e.Output(context.Background(), a, docID); err != nil {
		t.Fatalf("output after restart: %v", err)
	}
}
