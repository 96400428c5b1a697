package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/redactd/redactd/engine/joblog"
	"github.com/redactd/redactd/engine/metrics"
)

// The ready queue is durable: a document's queue entry is written in the
// batch that releases it and deleted in the batch that makes it terminal.
// The dispatcher hands the oldest entries that are not in flight to at
// most cfg.MaxConcurrentJobs workers. A document interrupted by a crash or
// a shutdown simply stays queued and is processed again from the start
// after the next Open; the Processor is deterministic and the quota
// charge is recorded on the document, so nothing is duplicated.

// dispatchPoll is how often the dispatcher looks at the queue without
// being woken (a safety net; enqueues wake it at once).
const dispatchPoll = 5 * time.Second

// retryDelay is how long a document waits after a failure to record its
// outcome (say a full disk) before it is tried again.
const retryDelay = 2 * time.Second

type scheduler struct {
	mu       sync.Mutex
	inflight map[string]*running // by document id
	notify   chan struct{}
	slots    chan struct{}
	wg       sync.WaitGroup // workers
}

type running struct {
	docID, jobID string
	cancel       context.CancelFunc
	done         chan struct{}
}

func (s *scheduler) init(n int) {
	s.inflight = map[string]*running{}
	s.notify = make(chan struct{}, 1)
	s.slots = make(chan struct{}, n)
}

func (s *scheduler) isInflight(docID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inflight[docID] != nil
}

// cancelJob cancels the job's workers and returns channels closed when
// each has finished.
func (s *scheduler) cancelJob(jobID string) []chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []chan struct{}
	for _, r := range s.inflight {
		if r.jobID == jobID {
			r.cancel()
			out = append(out, r.done)
		}
	}
	return out
}

func (s *scheduler) inflightCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.inflight)
}

// wake tells the dispatcher that the queue has new entries.
func (e *Engine) wake() {
	select {
	case e.sched.notify <- struct{}{}:
	default:
	}
}

func (e *Engine) updateQueueGauge() {
	metrics.QueueDepth.Set(float64(e.queued.Load() - int64(e.sched.inflightCount())))
}

// dispatch takes a worker slot, then the oldest queued document not in
// flight, and starts a worker for it.
func (e *Engine) dispatch() {
	defer e.bg.Done()
	tick := time.NewTicker(dispatchPoll)
	defer tick.Stop()
	for {
		select {
		case e.sched.slots <- struct{}{}:
		case <-e.stop:
			return
		}
		var q joblog.QueueEntry
		for {
			next, ok, err := e.jl.NextQueued(e.sched.isInflight)
			if err != nil && !errors.Is(err, joblog.ErrClosed) {
				e.log.Error("engine: reading the queue failed", "err", err)
			}
			if ok {
				q = next
				break
			}
			select {
			case <-e.sched.notify:
			case <-tick.C:
			case <-e.stop:
				<-e.sched.slots
				return
			}
		}
		ctx, cancel := context.WithCancel(e.base)
		r := &running{docID: q.DocID, jobID: q.JobID, cancel: cancel, done: make(chan struct{})}
		e.sched.mu.Lock()
		e.sched.inflight[q.DocID] = r
		e.sched.mu.Unlock()
		e.updateQueueGauge()
		e.sched.wg.Add(1)
		go e.work(ctx, q, r)
	}
}

func (e *Engine) work(ctx context.Context, q joblog.QueueEntry, r *running) {
	defer e.sched.wg.Done()
	retry := false
	defer func() {
		if retry {
			// Keep the document "in flight" for a while so the dispatcher
			// does not spin on a failure that needs time to go away.
			select {
			case <-time.After(retryDelay):
			case <-ctx.Done():
			}
		}
		r.cancel()
		e.sched.mu.Lock()
		delete(e.sched.inflight, q.DocID)
		e.sched.mu.Unlock()
		close(r.done)
		<-e.sched.slots
		e.updateQueueGauge()
		if retry {
			e.wake()
		}
	}()
	if err := e.process(ctx, q); err != nil {
		if e.base.Err() == nil && !errors.Is(err, joblog.ErrClosed) {
			e.log.Error("engine: document will be retried", "doc", q.DocID, "err", err)
			retry = true
		}
	}
}

// errDocGone aborts processing of a document whose job was deleted.
var errDocGone = errors.New("engine: document deleted")

// process runs one document from the queue to a terminal state. A non-nil
// error means the outcome could not be recorded; the document stays
// queued.
func (e *Engine) process(ctx context.Context, q joblog.QueueEntry) error {
	d, j, err := e.startAttempt(q)
	if err != nil || d == nil {
		return err
	}
	start := time.Now()
	dir := e.jobDir(j.ID)
	defer func() {
		// Runs last, after the temporary files are removed: a worker that
		// outlived a delete's wait leaves no empty directory behind.
		if _, err := e.jl.Job(j.ID); joblog.IsNotFound(err) {
			removeIfEmpty(dir)
		}
	}()
	metrics.DocumentsInFlight.Inc()
	defer metrics.DocumentsInFlight.Dec()

	out, err := createTemp(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // deleted meanwhile
	}
	if err != nil {
		e.log.Error("engine: creating output failed", "doc", d.ID, "err", err)
		if storageFailure(err) {
			e.abandon(d.ID) // stays queued; retried after retryDelay
			return err
		}
		return e.finish(d.ID, outcome{errMsg: "server storage unavailable"}, start)
	}
	defer os.Remove(out.Name()) // no-op once renamed

	in := ProcessInput{DocID: d.ID, Path: e.origPath(j.ID, d.ID), Options: toOptions(j.Options)}
	res, perr := e.runProcessor(ctx, in, out, e.progressFunc(ctx, d.ID))
	if perr == nil {
		if err := e.closeSynced(out); err != nil {
			e.log.Error("engine: syncing output failed", "doc", d.ID, "err", err)
			perr = err
			if !storageFailure(err) {
				perr = DocErrorf("server storage unavailable")
			}
		}
	} else {
		out.Close()
	}
	if perr == nil && e.verify != nil {
		if err := e.verify(out.Name()); err != nil {
			e.log.Error("engine: output failed verification", "doc", d.ID, "err", err)
			perr = DocErrorf("output failed verification")
		}
	}
	if e.base.Err() != nil {
		e.abandon(d.ID) // shutdown: stays queued for the next start
		return nil
	}
	if ctx.Err() != nil || errors.Is(perr, errDocGone) {
		return nil // the job was deleted
	}
	if perr != nil && storageFailure(perr) {
		// The storage failed, not the document (disk full, read-only):
		// give the attempt back and leave the document queued; work
		// retries it after retryDelay, so it completes once space returns.
		os.Remove(out.Name())
		e.abandon(d.ID)
		return fmt.Errorf("engine: storage: %w", perr)
	}
	if perr != nil {
		os.Remove(out.Name())
		msg := UserMessage(perr)
		var de *DocError
		if !errors.As(perr, &de) {
			e.log.Warn("engine: document failed", "doc", d.ID, "err", perr)
		}
		return e.finish(d.ID, outcome{errMsg: msg}, start)
	}
	o := outcome{out: out.Name(), res: res}
	report, err := e.writeReportTemp(j.ID, buildReport(d.ID, res))
	if err != nil {
		e.log.Error("engine: writing report failed", "doc", d.ID, "err", err)
		return e.finish(d.ID, outcome{errMsg: "server storage unavailable"}, start)
	}
	defer os.Remove(report)
	o.report = report
	if Retention(j.Retention) == Studio {
		masks, err := e.writeMasksTemp(j.ID, res.Masks)
		if err != nil {
			e.log.Error("engine: writing masks failed", "doc", d.ID, "err", err)
			return e.finish(d.ID, outcome{errMsg: "server storage unavailable"}, start)
		}
		defer os.Remove(masks)
		o.masks = masks
	}
	return e.finish(d.ID, o, start)
}

// startAttempt checks that the queue entry is current and counts the
// attempt durably. It returns nil documents when there is nothing to do.
func (e *Engine) startAttempt(q joblog.QueueEntry) (doc *joblog.Doc, job *joblog.Job, err error) {
	stale := false
	err = e.changeDoc(q.DocID, func(t *tx) error {
		d := t.doc
		if Status(d.Status).Terminal() || d.QueuedAt != q.At {
			stale = true
			return errNoChange
		}
		if d.Attempts >= maxAttempts {
			e.log.Error("engine: document failed repeatedly", "doc", d.ID, "attempts", d.Attempts)
			return e.end(t, outcome{errMsg: "processing failed repeatedly"}, time.Time{})
		}
		d.Attempts++
		t.onCommit(func() { doc, job = d, t.job })
		return nil
	})
	if errors.Is(err, errNoDoc) || (err == nil && stale) {
		return nil, nil, e.dropStale(q)
	}
	return doc, job, err
}

// abandon gives back the attempt of a document interrupted by shutdown.
func (e *Engine) abandon(docID string) {
	e.changeDoc(docID, func(t *tx) error {
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
func (e *Engine) dropStale(q joblog.QueueEntry) error {
	b := e.jl.NewBatch()
	b.DeleteQueued(q)
	return b.Commit(false)
}

// runProcessor calls the Processor, turning a panic into an error.
func (e *Engine) runProcessor(ctx context.Context, in ProcessInput, out *os.File, progress func(Progress) error) (res *ProcessResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("engine: processor panic", "doc", in.DocID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("processor panic: %v", p)
		}
	}()
	res, err = e.proc.Process(ctx, in, out, progress)
	if err == nil && res == nil {
		err = errors.New("processor returned no result")
	}
	return res, err
}

// progressInterval is the least time between two stores of a document's
// pages_done when nothing else changed: progress is cheap to report after
// every page, and costs one unsynced batch a second to keep.
const progressInterval = time.Second

// progressFunc is the callback handed to the Processor. A report that
// changes only pages_done is stored at most once per progressInterval.
func (e *Engine) progressFunc(ctx context.Context, docID string) func(Progress) error {
	var last Progress
	var stored time.Time
	return func(p Progress) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		onlyPages := p.Status == last.Status && p.PageCount == last.PageCount
		if onlyPages && (p.PagesDone <= last.PagesDone || e.now().Sub(stored) < e.progressEvery) {
			return nil
		}
		if err := e.advance(docID, p); err != nil {
			return err
		}
		last, stored = p, e.now()
		return nil
	}
}

// advance records progress: a forward status move and, once the page
// count is known, the quota charge, in one synced batch, and pages_done
// (unsynced when it is the only change: a crash loses a progress figure,
// never an acknowledged state). A document that does not fit the quota
// gets a DocError, which aborts processing.
func (e *Engine) advance(docID string, p Progress) error {
	err := e.changeDoc(docID, func(t *tx) error {
		if Status(t.doc.Status).Terminal() {
			return errDocGone
		}
		return e.progress(t, p)
	})
	if errors.Is(err, errNoDoc) {
		return errDocGone
	}
	return err
}

// progress records p on the transition's document: the charge once the
// page count is known, the state, pages_done.
func (e *Engine) progress(t *tx, p Progress) error {
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
	errMsg string
	out    string
	masks  string
	report string
	res    *ProcessResult
}

func (e *Engine) writeMasksTemp(jobID string, masks []Mask) (string, error) {
	if masks == nil {
		masks = []Mask{}
	}
	data, err := json.Marshal(masks)
	if err != nil {
		return "", err
	}
	return e.writeTemp(e.jobDir(jobID), data)
}

// finish records a document's terminal state.
func (e *Engine) finish(docID string, o outcome, start time.Time) error {
	err := e.changeDoc(docID, func(t *tx) error {
		if Status(t.doc.Status).Terminal() {
			return errNoChange
		}
		return e.end(t, o, start)
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
func (e *Engine) end(t *tx, o outcome, start time.Time) error {
	d, j := t.doc, t.job
	if o.errMsg == "" {
		pages := o.res.PageCount
		if pages <= 0 {
			pages = d.PageCount
		}
		if pages <= 0 && !d.Charged {
			e.log.Error("engine: processor reported no page count", "doc", d.ID)
			o.errMsg = UserMessage(errors.New("no page count"))
		} else if denied, err := t.charge(d, pages); err != nil {
			return err
		} else {
			o.errMsg = denied
		}
		if o.errMsg == "" {
			if err := e.publish(j.ID, d.ID, o); err != nil {
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
	ephemeral := Retention(j.Retention) != Studio
	if ephemeral {
		d.HasOriginal = false
		t.onCommit(func() {
			if err := os.Remove(e.origPath(j.ID, d.ID)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				e.log.Error("engine: removing original failed", "doc", d.ID, "err", err)
			}
		})
	}
	t.dequeue(d)
	t.setStatus(d, final, d.ErrorMessage)
	t.onCommit(func() {
		recordTerminal(final, start)
		e.log.Info("document done", "job", j.ID, "doc", d.ID, "status", string(final), "pages", d.PageCount)
	})
	return nil
}

// publish renames the output (and masks) into place and syncs the
// directory.
func (e *Engine) publish(jobID, docID string, o outcome) error {
	if err := os.Rename(o.out, e.outPath(jobID, docID)); err != nil {
		return err
	}
	if o.masks != "" {
		if err := os.Rename(o.masks, e.masksPath(jobID, docID)); err != nil {
			return err
		}
	}
	if o.report != "" {
		if err := os.Rename(o.report, e.reportPath(jobID, docID)); err != nil {
			return err
		}
	}
	return syncDir(e.jobDir(jobID))
}

// storageFailure reports whether err is the storage refusing writes
// (full, over quota, read-only): a condition of the machine that goes
// away, not a property of the document.
func storageFailure(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS)
}
