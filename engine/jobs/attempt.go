package jobs

// One attempt at a queued document: start it (count the attempt
// durably), run the Processor with progress reported as transitions,
// and end it (publish the output and charge, or record the failure and
// refund), each step a transition (transition.go).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/redactd/redactd/engine/store/record"
)

// errDocGone aborts processing of a document whose job was deleted.
var errDocGone = errors.New("engine: document deleted")

// process runs one document from the queue to a terminal state. A non-nil
// error means the outcome could not be recorded; the document stays
// queued.
func (ds *dispatcher) process(ctx context.Context, q record.QueueEntry) error {
	d, j, err := ds.startAttempt(q)
	if err != nil || d == nil {
		return err
	}
	start := time.Now()
	dir := ds.files.jobDir(j.ID)
	gone := false // the attempt found its job deleted
	defer func() {
		// Runs last, after the temporary files are removed: a worker that
		// outlived a delete's wait leaves no empty directory behind. A
		// delete cancels the job's workers (purge), so only a canceled
		// worker, or one that found its job gone, looks; a worker whose
		// job was deleted on another node after its outcome was
		// committed leaves its scratch directory to the janitor
		// (sweepScratch).
		if ctx.Err() == nil && !gone {
			return
		}
		if _, err := ds.jl.Job(j.ID); record.IsNotFound(err) {
			removeIfEmpty(dir)
		}
	}()
	ds.metrics.inFlight.Inc()
	defer ds.metrics.inFlight.Dec()

	out, err := ds.createOutput(j.ID)
	if errors.Is(err, fs.ErrNotExist) {
		gone = true
		return nil // deleted meanwhile
	}
	if err != nil {
		return ds.storageFault(d, "creating output", err, start)
	}
	defer os.Remove(out.Name()) // no-op once renamed

	orig, release, err := ds.files.localCopy(ctx, j.ID, d.ID+sufOrig)
	if err != nil {
		out.Close()
		return ds.noOriginal(ctx, d, err, start)
	}
	defer release()
	if err := checkOriginal(orig, d.SHA256); err != nil {
		out.Close()
		ds.log.Error("engine: original does not match its upload", "doc", d.ID, "err", err)
		return ds.finish(d, outcome{errMsg: "the stored original does not match its upload", attempt: d.Attempts}, start)
	}
	in := ProcessInput{DocID: d.ID, Path: orig, Kind: d.Kind, Options: toOptions(j.Options), KeepWords: Retention(j.Retention) == Studio}
	res, perr := ds.runProcessor(ctx, in, out, ds.progressFunc(ctx, d))
	if perr == nil {
		if err := ds.files.closeSynced(out); err != nil {
			ds.log.Error("engine: syncing output failed", "doc", d.ID, "err", err)
			perr = err
			if !storageFailure(err) {
				perr = DocErrorf("server storage unavailable")
			}
		}
	} else {
		out.Close()
	}
	if perr == nil {
		if err := ds.verify(out.Name()); err != nil {
			ds.log.Error("engine: output failed verification", "doc", d.ID, "err", err)
			perr = DocErrorf("output failed verification")
		}
	}
	if ds.base.Err() != nil {
		ds.abandon(d) // shutdown: stays queued for the next start
		return nil
	}
	if ctx.Err() != nil || errors.Is(perr, errDocGone) {
		gone = true
		return nil // the job was deleted
	}
	if perr != nil && storageFailure(perr) {
		// The storage failed, not the document (disk full, read-only):
		// give the attempt back and leave the document queued; work
		// retries it after retryDelay, so it completes once space returns.
		os.Remove(out.Name())
		ds.abandon(d)
		return fmt.Errorf("engine: storage: %w", perr)
	}
	if perr != nil {
		os.Remove(out.Name())
		msg := UserMessage(perr)
		var de *DocError
		if !errors.As(perr, &de) {
			ds.log.Warn("engine: document failed", "doc", d.ID, "err", perr)
		}
		return ds.finish(d, outcome{errMsg: msg}, start)
	}
	o := outcome{out: out.Name(), res: res, attempt: d.Attempts}
	report, err := ds.files.writeJSONTemp(j.ID, buildReport(d.ID, res))
	if err != nil {
		return ds.storageFault(d, "writing report", err, start)
	}
	defer os.Remove(report)
	o.report = report
	if Retention(j.Retention) == Studio {
		if err := ds.rev.writeReviewWords(ctx, j.ID, d.ID, res); err != nil {
			return ds.storageFault(d, "writing words", err, start)
		}
		masks, err := ds.files.writeJSONTemp(j.ID, nonNilMasks(res.Masks))
		if err != nil {
			return ds.storageFault(d, "writing masks", err, start)
		}
		defer os.Remove(masks)
		o.masks = masks
	}
	if err := ds.stage(ctx, d, o); err != nil {
		return ds.storageFault(d, "storing output", err, start)
	}
	return ds.finish(d, o, start)
}

// storageFault ends an attempt that could not write its files. Storage
// that refuses for now (full, read-only, a blob store that does not
// answer) gives the attempt back: the document stays queued and is
// retried after retryDelay. Anything else fails the document.
func (ds *dispatcher) storageFault(d *record.Doc, what string, err error, start time.Time) error {
	ds.log.Error("engine: "+what+" failed", "doc", d.ID, "err", err)
	if storageFailure(err) {
		ds.abandon(d)
		return fmt.Errorf("engine: %s: %w", what, err)
	}
	return ds.finish(d, outcome{errMsg: "server storage unavailable", attempt: d.Attempts}, start)
}

// checkOriginal checks that the original about to be processed is the
// one whose SHA-256 the document recorded when it was accepted. On a
// cluster a direct upload's PUT on one node can race its commit on
// another and replace the blob after the commit won; on one node it
// catches a file changed or damaged on disk. Either way what is redacted
// must be what the caller was told was accepted. A document without a
// recorded sum (none before uploads were hashed) is not checked.
func checkOriginal(path, want string) error {
	if want == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("sha256 %s, recorded %s", got[:12], want[:min(12, len(want))])
	}
	return nil
}

// noOriginal ends an attempt whose original could not be read: the shared
// store failing gives the attempt back (retried later), a missing
// original fails the document, unless its job was deleted meanwhile.
func (ds *dispatcher) noOriginal(ctx context.Context, d *record.Doc, err error, start time.Time) error {
	switch {
	case ctx.Err() != nil && ds.base.Err() == nil:
		return nil // the job was deleted
	case storageFailure(err) || ds.base.Err() != nil:
		ds.abandon(d)
		return fmt.Errorf("engine: reading original: %w", err)
	}
	ds.log.Error("engine: reading original failed", "doc", d.ID, "err", err)
	return ds.finish(d, outcome{errMsg: "original not found", attempt: d.Attempts}, start)
}

// startAttempt checks that the queue entry is current and counts the
// attempt durably. It returns nil documents when there is nothing to do.
func (ds *dispatcher) startAttempt(q record.QueueEntry) (doc *record.Doc, job *record.Job, err error) {
	stale := false
	err = ds.changeDoc(queuedRef(q), func(t *tx) error {
		d := t.doc
		if Status(d.Status).Terminal() || d.QueuedAt != q.At {
			stale = true
			return errNoChange
		}
		if d.Attempts >= maxAttempts {
			ds.log.Error("engine: document failed repeatedly", "doc", d.ID, "attempts", d.Attempts)
			return ds.end(t, outcome{errMsg: "processing failed repeatedly"}, time.Time{})
		}
		d.Attempts++
		t.onCommit(func() {
			doc, job = d, t.job
			ds.log.Info("document started", "job", d.JobID, "doc", d.ID, "attempt", d.Attempts)
		})
		return nil
	})
	if errors.Is(err, errNoDoc) || (err == nil && stale) {
		return nil, nil, ds.dropStale(q)
	}
	return doc, job, err
}

// abandon gives back the attempt of a document interrupted by shutdown.
func (ds *dispatcher) abandon(d *record.Doc) {
	ds.changeDoc(refOf(d), func(t *tx) error {
		if Status(t.doc.Status).Terminal() || t.doc.Attempts == 0 {
			return errNoChange
		}
		t.doc.Attempts--
		return nil
	})
}

// dropStale removes a queue entry whose document is gone or done. Such an
// entry was usually removed (and counted) by a concurrent purge already;
// the janitor recounts the queue, so the counter is not touched here.
func (ds *dispatcher) dropStale(q record.QueueEntry) error {
	b := ds.jl.NewBatch()
	deleteQueued(b, q)
	return b.Commit(false)
}

// progressInterval is the least time between two stores of a document's
// pages_done when nothing else changed: progress is cheap to report after
// every page, and costs one unsynced batch a second to keep.
const progressInterval = time.Second

// progressFunc is the callback handed to the Processor. A report that
// changes only pages_done is stored at most once per progressInterval.
func (ds *dispatcher) progressFunc(ctx context.Context, d *record.Doc) func(Progress) error {
	var last Progress
	var stored time.Time
	return func(p Progress) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		onlyPages := p.Status == last.Status && p.PageCount == last.PageCount
		if onlyPages && (p.PagesDone <= last.PagesDone || ds.now().Sub(stored) < ds.progressEvery) {
			return nil
		}
		if err := ds.advance(d, p); err != nil {
			return err
		}
		last, stored = p, ds.now()
		return nil
	}
}

// advance records progress: a forward status move and, once the page
// count is known, the quota charge, in one synced batch, and pages_done
// (unsynced when it is the only change: a crash loses a progress figure,
// never an acknowledged state). A document that does not fit the quota
// gets a DocError, which aborts processing.
func (ds *dispatcher) advance(d *record.Doc, p Progress) error {
	err := ds.changeDoc(refOf(d), func(t *tx) error {
		if Status(t.doc.Status).Terminal() {
			return errDocGone
		}
		return ds.progress(t, p)
	})
	var de *DocError
	switch {
	case err == nil, errors.Is(err, errDocGone), errors.As(err, &de), errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, errNoDoc):
		return errDocGone
	}
	// The record store failed (a disk, or a cluster in a leader
	// election): not the document's fault. process gives the attempt
	// back and the document is tried again.
	return &recordError{err}
}

// recordError is a failure of the record store while a document was
// processed; storageFailure counts it as one.
type recordError struct{ err error }

func (e *recordError) Error() string { return "engine: record store: " + e.err.Error() }
func (e *recordError) Unwrap() error { return e.err }

// progress records p on the transition's document: the charge once the
// page count is known, the state, pages_done.
func (ds *dispatcher) progress(t *tx, p Progress) error {
	d := t.doc
	changed := false
	if p.PageCount > 0 && !d.Charged {
		denied, err := t.charge(d, p.PageCount)
		if err != nil {
			return err
		}
		if denied != "" {
			return DocErrorf(denied)
		}
		changed = true
	} else if p.PageCount > 0 && d.PageCount != p.PageCount {
		d.PageCount = p.PageCount
		changed = true
	}
	if (p.Status == StatusAnalyzing || p.Status == StatusRedacting) && rank(p.Status) > rank(Status(d.Status)) {
		t.setStatus(d, p.Status, "")
		changed = true
	}
	if !changed {
		t.progressOnly()
	}
	if p.PagesDone > d.PagesDone && (d.PageCount == 0 || p.PagesDone <= d.PageCount) {
		d.PagesDone = p.PagesDone
		changed = true
	}
	if !changed {
		return errNoChange
	}
	return nil
}

// outcome is how a document's processing ended: errMsg for a failure,
// else the synced temporary output (and masks) to publish.
type outcome struct {
	// attempt is the attempt that produced the outcome: a worker whose
	// lease passed to another node (the document's attempt count moved
	// on) must not publish over the newer attempt's files.
	attempt int
	errMsg  string
	out     string
	masks   string
	report  string
	res     *ProcessResult
}

// finish records a document's terminal state.
func (ds *dispatcher) finish(d *record.Doc, o outcome, start time.Time) error {
	err := ds.changeDoc(refOf(d), func(t *tx) error {
		if Status(t.doc.Status).Terminal() || (o.attempt != 0 && t.doc.Attempts != o.attempt) {
			return errNoChange
		}
		return ds.end(t, o, start)
	})
	if errors.Is(err, errNoDoc) {
		return nil // deleted meanwhile
	}
	return err
}

// end makes the transition's document terminal: it charges what was
// not charged yet and publishes the output (renamed under the account
// lock, so a concurrent delete cannot be undone by a late rename), or
// records the failure and refunds; the dequeue and the job's new status
// commit in the same synced batch.
func (ds *dispatcher) end(t *tx, o outcome, start time.Time) error {
	d, j := t.doc, t.job
	if o.errMsg == "" {
		pages := o.res.PageCount
		if pages <= 0 {
			pages = d.PageCount
		}
		if pages <= 0 && !d.Charged {
			ds.log.Error("engine: processor reported no page count", "doc", d.ID)
			o.errMsg = UserMessage(errors.New("no page count"))
		} else if denied, err := t.charge(d, pages); err != nil {
			return err
		} else {
			o.errMsg = denied
		}
		if o.errMsg == "" {
			if err := ds.publish(j.ID, d.ID, o); err != nil {
				return fmt.Errorf("publishing output: %w", err)
			}
			d.HasOutput, d.OutputBytes, d.HasMasks = true, o.res.OutputBytes, o.masks != ""
			d.HasReport = o.report != ""
			if pages > 0 {
				d.PageCount, d.PagesDone = pages, pages
			}
		}
	}
	final := StatusRedacted
	if o.errMsg != "" {
		final = StatusError
		d.ErrorMessage = o.errMsg
		if err := t.refund(d); err != nil {
			return err
		}
	}
	t.onCommit(func() {
		ds.log.Info("document done", "job", j.ID, "doc", d.ID, "status", string(final), "pages", d.PageCount)
	})
	ephemeral := Retention(j.Retention) != Studio
	if ephemeral {
		d.HasOriginal = false
		t.onUnlock(func() { ds.removeAfterCommit(j.ID, d.ID+sufOrig) })
	}
	t.dequeue(d)
	t.started = start
	t.setStatus(d, final, d.ErrorMessage)
	return nil
}

// publish makes a finished document's sealed temporary files (the
// output, and the masks and report when given) its files. It may be
// repeated: a transition retried after a lost race (a shared store)
// publishes again.
func (ds *dispatcher) publish(jobID, docID string, o outcome) error {
	ctx, cancel := context.WithTimeout(context.Background(), fileOpTimeout)
	defer cancel()
	return ds.files.place(ctx, jobID, o.placements(docID)...)
}

// placements are the files a successful outcome publishes.
func (o outcome) placements(docID string) []placement {
	ps := []placement{{o.out, docID + sufOut}}
	if o.masks != "" {
		ps = append(ps, placement{o.masks, docID + sufMasks})
	}
	if o.report != "" {
		ps = append(ps, placement{o.report, docID + sufReport})
	}
	return ps
}

// stage stores a successful outcome's files where place finds them,
// before the transition that publishes them, so a long upload to a blob
// store holds no account lock. A document whose attempt moved on (its
// lease went to another node) stages nothing.
func (ds *dispatcher) stage(ctx context.Context, d *record.Doc, o outcome) error {
	err := ds.files.stage(ctx, d.JobID, func() error {
		cur, err := ds.jl.Doc(d.ID)
		if err != nil || cur.Attempts != o.attempt || Status(cur.Status).Terminal() {
			return errNotStaged
		}
		return nil
	}, o.placements(d.ID)...)
	if errors.Is(err, errNotStaged) {
		return nil // finish decides
	}
	return err
}

// errNotStaged: the outcome is no longer wanted; finish drops it.
var errNotStaged = errors.New("engine: outcome not staged")

// storageFailure reports whether err is the storage refusing writes
// (full, over quota, read-only) or the record or blob store failing: a condition
// of the machine or the cluster that goes away, not a property of the
// document.
func storageFailure(err error) bool {
	var re *recordError
	var be *blobError
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS) ||
		errors.As(err, &re) || errors.As(err, &be)
}

// nonNilMasks makes a studio document without masks store [], not null.
func nonNilMasks(m []Mask) []Mask {
	if m == nil {
		return []Mask{}
	}
	return m
}
