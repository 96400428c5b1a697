package jobs

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/review"
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
	st, err := v.e.rev.ReviewState(context.Background(), a, docID)
	if err != nil || len(st.Masks) != 2 || st.Version != 1 {
		t.Fatalf("state %+v %v", st, err)
	}
	for len(v.proc.started) > 0 {
		<-v.proc.started // the first run's
	}
	v.proc.blockAll = true
	done := make(chan error, 1)
	go func() {
		_, err := v.e.rev.ApplyReview(context.Background(), a, docID, "t")
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
	if _, err := v.e.rev.ReviewState(context.Background(), a, docID); !errors.Is(err, ErrNotFound) {
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
// not processed again from scratch: at once on a node alone on its
// store; on a cluster node (other nodes may be running it) by the
// janitor once it is older than staleAfter.
func TestApplyInterruptedByCrash(t *testing.T) {
	t.Run("node", func(t *testing.T) { testApplyInterruptedByCrash(t, false) })
	t.Run("cluster", func(t *testing.T) { testApplyInterruptedByCrash(t, true) })
}

func testApplyInterruptedByCrash(t *testing.T, cluster bool) {
	var mods []func(*Settings)
	if cluster {
		mods = append(mods, clusterStore)
	}
	v := newEnv(t, mods...)
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
	if cluster {
		v.e.jan.janitorOnce(bg)
		if j, _ := v.e.GetJob(bg, a, jobID); j.Documents[0].Status != StatusRedacting {
			t.Fatalf("a young apply was restored: another node may run it: %+v", j)
		}
		v.clock.Advance(staleAfter + time.Minute)
		v.e.jan.janitorOnce(bg)
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

// fakePreviewer measures every file as two Letter pages and remembers
// the bytes of what it was asked to measure (a blob store's local copy
// is gone once the call returns).
type fakePreviewer struct{ files chan []byte }

func (f fakePreviewer) PageSizes(_ context.Context, path string) ([]contract.PageSize, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f.files <- b
	return []contract.PageSize{{Page: 1, Width: 612, Height: 792}, {Page: 2, Width: 792, Height: 612}}, nil
}

func (f fakePreviewer) RenderPNG(context.Context, string, int, float64) ([]byte, error) {
	return nil, errors.New("not rendered here")
}

// TestReviewPagesFromPreviewer: a studio document redacted before words
// were kept (no words file) has its review's page sizes measured on the
// original by the Previewer the service was given (the pipeline's, in
// the daemon); without one the review cannot be opened.
func TestReviewPagesFromPreviewer(t *testing.T) {
	prev := fakePreviewer{files: make(chan []byte, 4)}
	v := newEnv(t, func(s *Settings) { s.Previewer = prev })
	a, _ := v.account("pv@example.com", PlanStandard, 0)
	jobID, docID := v.studio(a)
	if err := v.e.files.remove(context.Background(), jobID, docID+sufWords); err != nil {
		t.Fatal(err)
	}
	st, err := v.e.rev.ReviewState(context.Background(), a, docID)
	if err != nil {
		t.Fatal(err)
	}
	want := []review.Page{{Page: 1, Width: 612, Height: 792}, {Page: 2, Width: 792, Height: 612}}
	if !slices.Equal(st.Pages, want) {
		t.Fatalf("pages %+v, want %+v", st.Pages, want)
	}
	select {
	case b := <-prev.files:
		if !bytes.Equal(b, testPDF(2)) {
			t.Fatalf("measured %q, not the original", b)
		}
	default:
		t.Fatal("the previewer measured nothing")
	}

	w := newEnv(t)
	b, _ := w.account("pv@example.com", PlanStandard, 0)
	jobID, docID = w.studio(b)
	if err := w.e.files.remove(context.Background(), jobID, docID+sufWords); err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.rev.ReviewState(context.Background(), b, docID); err == nil {
		t.Fatal("a review without page sizes opened with no previewer")
	}
}
