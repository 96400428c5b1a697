package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/dirblob"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
	"github.com/redactd/redactd/internal/testkit/testlog"
)

// TestBlobFilesLeaveNoScratch: on a cluster node every file of a
// document is a blob; once its documents are done the node's own scratch
// directory holds no byte of them, whatever the retention, and the output
// reads back whole through the blob store.
func TestBlobFilesLeaveNoScratch(t *testing.T) {
	v := newEnv(t, clusterStore)
	a, _ := v.account("scratch@example.com", "standard", 0)
	for _, ret := range []Retention{Ephemeral, Studio} {
		j, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 2)}, Retention: ret})
		if err != nil {
			t.Fatal(err)
		}
		d := v.waitDone(a, j.ID).Documents[0]
		if d.Status != StatusRedacted {
			t.Fatalf("%s: %s", ret, d.Status)
		}
		r, size, err := v.e.Output(bg, a, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(r)
		r.Close()
		if err != nil || int64(len(out)) != size || !bytes.HasPrefix(out, []byte("%PDF")) {
			t.Fatalf("%s output: %d of %d bytes, %v", ret, len(out), size, err)
		}
		if ret == Studio {
			path, release, err := v.e.rev.ReviewFile(bg, a, d.ID, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("review copy of the original: %v", err)
			}
			release()
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("review copy outlived its release: %v", err)
			}
		}
	}
	// The worker removes its temporary files just after the commit.
	waitFor(t, "the workers to end", func() bool { return v.e.sched.inflightCount() == 0 })
	var left []string
	filepath.WalkDir(v.e.files.root(), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Fatalf("scratch files left on the node: %q", left)
	}
}

// TestBlobSweep: the janitor deletes the blobs of a job that has no
// record once they are older than orphanGrace (a creation that crashed
// between its originals and its record), and keeps young ones and those
// of live jobs.
func TestBlobSweep(t *testing.T) {
	v := newEnv(t, clusterStore)
	a, _ := v.account("sweep@example.com", "standard", 0)
	j := v.create(a, pdfFile("a.pdf", 1))
	v.waitDone(a, j.ID)
	ctx := context.Background()
	orphan, young := newID(), newID()
	for _, key := range []string{orphan + "/x.orig", orphan + "/x.pdf", young + "/y.orig"} {
		if _, err := v.e.files.(blobFiles).blobs.Put(ctx, key, bytes.NewReader([]byte("pii"))); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * orphanGrace)
	for _, p := range []string{
		filepath.Join(blobsDir(v.cfg.Data), orphan, "x.orig"), filepath.Join(blobsDir(v.cfg.Data), orphan, "x.pdf"),
		filepath.Join(blobsDir(v.cfg.Data), j.ID, j.Documents[0].ID+sufOut),
	} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	v.clock.Advance(blobSweepEvery) // past the start's sweep
	v.e.jan.janitorOnce(ctx)
	if got := v.jobFiles(orphan); len(got) != 0 {
		t.Fatalf("orphaned blobs kept: %v", got)
	}
	if got := v.jobFiles(young); !slices.Equal(got, []string{"y.orig"}) {
		t.Fatalf("a young job's blobs: %v", got)
	}
	if got := v.jobFiles(j.ID); !slices.Contains(got, j.Documents[0].ID+sufOut) {
		t.Fatalf("a live job's blobs: %v", got)
	}
}

// TestStaleAttemptDoesNotPublish: a worker whose attempt is no longer
// the document's (its lease passed to another node, which started a new
// attempt) commits nothing and publishes nothing, so it cannot overwrite
// what the newer attempt, or a review apply after it, published.
func TestStaleAttemptDoesNotPublish(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("stale@example.com", "standard", 0)
	j := v.create(a, pdfFile("a.pdf", 1, "block"))
	docID := <-v.proc.started
	// Another node starts attempt 2 meanwhile.
	if err := v.e.changeDoc(docRef{docID: docID}, func(t *tx) error { t.doc.Attempts++; return nil }); err != nil {
		t.Fatal(err)
	}
	close(v.proc.release)
	waitFor(t, "the stale worker to end", func() bool { return v.e.sched.inflightCount() == 0 })
	d, err := v.e.jl.Doc(docID)
	if err != nil {
		t.Fatal(err)
	}
	if Status(d.Status).Terminal() || d.HasOutput {
		t.Fatalf("stale attempt committed: status %s, output %v", d.Status, d.HasOutput)
	}
	if ok, err := v.e.files.exists(bg, j.ID, docID+sufOut); err != nil || ok {
		t.Fatalf("stale attempt published its output: %v, %v", ok, err)
	}
}

// twoNodes opens two engines on one shared store, as two cluster nodes:
// one pebble engine of the contract under both storelogs, one blob
// directory, and a scratch directory each. Only the first processes
// documents; the second serves.
func twoNodes(t *testing.T) (a, b *env) {
	t.Helper()
	root := t.TempDir()
	ps, err := pebblestore.Open(filepath.Join(root, "store"), pebblestore.Options{LeaseTime: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ps.Close() })
	var nodes []string
	blobs := blobsDir(filepath.Join(root, "node0")) // where a.jobFiles looks
	node := func(p *testProc) *env {
		cfg := testConfig(t)
		cfg.Data = filepath.Join(root, "node"+strconv.Itoa(len(nodes)))
		nodes = append(nodes, cfg.Data)
		cfg.Records = func() (record.Store, error) {
			return storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{LeaseTime: 3 * time.Second})
		}
		cfg.Blobs = func() (store.Blobs, error) { return dirblob.Open(blobs) }
		v := &env{t: t, cfg: cfg, clock: &fakeClock{t: time.Now()}, logs: &testlog.Buffer{}}
		v.h = hooks{now: v.clock.Now, verify: verifyTestPDF}
		if p != nil {
			v.open(p)
		} else { // a node that processes nothing: no Processor at all
			e, err := open(v.cfg, nil, slog.New(slog.NewTextHandler(v.logs, nil)), v.h)
			if err != nil {
				t.Fatal(err)
			}
			v.e = e
		}
		t.Cleanup(func() { v.e.Close() })
		return v
	}
	return node(newTestProc()), node(nil)
}

// TestTwoNodesShareFiles: what one node stored, another serves: the
// output, the report, the review state and its audit log; two review
// edits of one version sent to the two nodes at once are serialized
// across them (one wins, the other is stale), and a delete through one
// node removes the files the other wrote.
func TestTwoNodesShareFiles(t *testing.T) {
	a, b := twoNodes(t)
	acct, key := a.account("two@example.com", "standard", 0)
	acctB, err := b.e.Authenticate(bg, key)
	if err != nil {
		t.Fatal(err)
	}
	j, err := a.e.CreateJob(bg, acct, CreateJobRequest{Files: []File{pdfFile("a.pdf", 2)}, Retention: Studio})
	if err != nil {
		t.Fatal(err)
	}
	d := a.waitDone(acct, j.ID).Documents[0]
	waitFor(t, "the worker to end", func() bool { return a.e.sched.inflightCount() == 0 })
	if d.Status != StatusRedacted {
		t.Fatalf("document %s: %s\n%s\nB:\n%s", d.Status, d.ErrorMessage, a.logs.String(), b.logs.String())
	}
	r, size, err := b.e.Output(bg, acctB, d.ID)
	if err != nil {
		t.Fatalf("output through the other node: %v", err)
	}
	out, _ := io.ReadAll(r)
	r.Close()
	if int64(len(out)) != size || !bytes.HasPrefix(out, []byte("%PDF")) {
		t.Fatalf("output through the other node: %d of %d bytes", len(out), size)
	}
	if _, err := b.e.Report(bg, acctB, d.ID); err != nil {
		t.Fatalf("report through the other node: %v", err)
	}
	st, err := b.e.rev.ReviewState(bg, acctB, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The same edit of version st.Version, on both nodes at once.
	masks := append(st.Masks[:0:0], st.Masks...)
	masks[0].Status = review.Rejected
	errs := make(chan error, 2)
	for i, n := range []*env{a, b} {
		who := []*Account{acct, acctB}[i]
		go func() {
			_, err := n.e.rev.PutReview(bg, who, d.ID, st.Version, masks, "reviewer")
			errs <- err
		}()
	}
	stale := 0
	for range 2 {
		if err := <-errs; err != nil {
			if !errors.Is(err, ErrStale) {
				t.Fatalf("PutReview: %v", err)
			}
			stale++
		}
	}
	if stale != 1 {
		t.Fatalf("%d of two concurrent edits of one version were refused as stale, want 1", stale)
	}
	audit, err := a.e.rev.ReviewAudit(bg, acct, d.ID)
	if err != nil || len(audit) != 1 {
		t.Fatalf("audit = %+v, %v; want the one removal", audit, err)
	}
	if err := b.e.DeleteJob(bg, acctB, j.ID); err != nil {
		t.Fatal(err)
	}
	if left := a.jobFiles(j.ID); len(left) != 0 {
		t.Fatalf("files left after a delete through the other node: %v", left)
	}
}

// TestBlobErrors: what a blob store's failures mean to the engine. A
// timeout is the store failing (the document is retried later, never
// failed), a missing blob is fs.ErrNotExist, a cancellation is passed on.
func TestBlobErrors(t *testing.T) {
	timeout := fmt.Errorf("natsstore: get b.x: %w", context.DeadlineExceeded)
	if err := blobErr(timeout); !storageFailure(err) {
		t.Errorf("a timeout: %v is not a storage failure", err)
	}
	if err := blobErr(errors.New("nats: connection closed")); !storageFailure(err) {
		t.Errorf("a closed connection: %v is not a storage failure", err)
	}
	if err := blobErr(&store.NotFoundError{Key: "j/d.pdf"}); !errors.Is(err, fs.ErrNotExist) || storageFailure(err) {
		t.Errorf("not found: %v", err)
	}
	if err := blobErr(fmt.Errorf("put: %w", context.Canceled)); storageFailure(err) || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}

// TestOriginalChangedAfterAcceptance: a document whose stored original no
// longer matches the SHA-256 recorded when it was accepted (a direct
// upload replaced by a PUT that raced the commit on another node, a file
// damaged on disk) fails with a clear message instead of redacting
// other bytes than the caller was told were accepted.
func TestOriginalChangedAfterAcceptance(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("sum@example.com", "standard", 0)
	data := testPDF(2)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", data)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.put(r.Uploads[0], data); err != nil {
		t.Fatal(err)
	}
	if err := v.e.files.write(bg, r.JobID, r.Uploads[0].DocumentID+sufOrig, testPDF(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.Commit(bg, a, r.JobID); err != nil {
		t.Fatal(err)
	}
	d := v.waitDone(a, r.JobID).Documents[0]
	if d.Status != StatusError || d.ErrorMessage != "the stored original does not match its upload" {
		t.Fatalf("document %s %q", d.Status, d.ErrorMessage)
	}
	if v.pagesUsed(a) != 0 {
		waitFor(t, "the refund", func() bool { return v.pagesUsed(a) == 0 })
	}
}
