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

	in := ProcessInput{DocID: d.ID, Path: e.origPath(j.ID, d.ID), Options: toOptions(j.Options), KeepWords: Retention(j.Retention) == Studio}
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
		if err := e.writeReviewWords(j.ID, d.ID, res); err != nil {
			e.log.Error("engine: writing words failed", "doc", d.ID, "err", err)
			return e.finish(d.ID, outcome{errMsg: "server storage unavailable"}, start)
		}
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
	err = e.withDoc(q.DocID, func(d *joblog.Doc, j *joblog.Job) error {
		if Status(d.Status).Terminal() || d.QueuedAt != q.At {
			return e.dropStale(q)
		}
		if d.Attempts >= maxAttempts {
			e.log.Error("engine: document failed repeatedly", "doc", d.ID, "attempts", d.Attempts)
			return e.finishLocked(d, j, outcome{errMsg: "processing failed repeatedly"}, time.Time{})
		}
		d.Attempts++
		b := e.jl.NewBatch()
		b.PutDoc(d)
		if err := b.Commit(true); err != nil {
			return err
		}
		doc, job = d, j
		return nil
	})
	if errors.Is(err, errNoDoc) {
		return nil, nil, e.dropStale(q)
	}
	return doc, job, err
}

// errNoDoc is withDoc's answer for a document that is not (or no longer)
// in the job log.
var errNoDoc = errors.New("engine: no such document")

// withDoc is the first half of every document transition: it reads the
// document, takes its account's lock, reads the document again (it may
// have changed or gone while the lock was awaited) and its job, and runs
// fn with both under the lock. fn builds and commits its batch. A missing
// document gives errNoDoc, without calling fn.
func (e *Engine) withDoc(docID string, fn func(d *joblog.Doc, j *joblog.Job) error) error {
	d, err := e.jl.Doc(docID)
	if joblog.IsNotFound(err) {
		return errNoDoc
	}
	if err != nil {
		return err
	}
	unlock := e.lockAcct(d.AccountID)
	defer unlock()
	if d, err = e.jl.Doc(docID); joblog.IsNotFound(err) {
		return errNoDoc
	} else if err != nil {
		return err
	}
	j, err := e.jl.Job(d.JobID)
	if err != nil {
		return err
	}
	return fn(d, j)
}

// abandon gives back the attempt of a document interrupted by shutdown.
func (e *Engine) abandon(docID string) {
	e.withDoc(docID, func(d *joblog.Doc, _ *joblog.Job) error {
		if Status(d.Status).Terminal() || d.Attempts == 0 {
			return nil
		}
		d.Attempts--
		b := e.jl.NewBatch()
		b.PutDoc(d)
		return b.Commit(true)
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
	err := e.withDoc(docID, func(d *joblog.Doc, j *joblog.Job) error {
		if Status(d.Status).Terminal() {
			return errDocGone
		}
		return e.advanceLocked(d, j, p)
	})
	if errors.Is(err, errNoDoc) {
		return errDocGone
	}
	return err
}

// advanceLocked records p for d under its account's lock: the charge
// once the page count is known, the state, pages_done.
func (e *Engine) advanceLocked(d *joblog.Doc, j *joblog.Job, p Progress) error {
	b := e.jl.NewBatch()
	changed := false
	var charged int64
	if p.PageCount > 0 && !d.Charged {
		a, err := e.jl.Account(d.AccountID)
		if err != nil {
			b.Discard()
			return err
		}
		if msg := e.quotaDenial(a, p.PageCount); msg != "" {
			b.Discard()
			return DocErrorf(msg)
		}
		charged = e.charge(b, j, a, d, p.PageCount)
		changed = true
	} else if p.PageCount > 0 && d.PageCount != p.PageCount {
		d.PageCount = p.PageCount
		changed = true
	}
	if (p.Status == StatusAnalyzing || p.Status == StatusRedacting) && rank(p.Status) > rank(Status(d.Status)) {
		e.setStatus(b, j, d, p.Status, "")
		changed = true
	}
	sync := changed
	if p.PagesDone > d.PagesDone && (d.PageCount == 0 || p.PagesDone <= d.PageCount) {
		d.PagesDone = p.PagesDone
		changed = true
	}
	if !changed {
		b.Discard()
		return nil
	}
	docs, err := e.jl.JobDocs(j)
	if err != nil {
		b.Discard()
		return err
	}
	b.PutDoc(d)
	e.settle(b, j, replaceDoc(docs, d))
	if err := b.Commit(sync); err != nil {
		return err
	}
	metrics.QuotaPages.Add(float64(charged))
	return nil
}

// charge adds a document's pages to the account inside b.
func (e *Engine) charge(b *joblog.Batch, j *joblog.Job, a *joblog.Account, d *joblog.Doc, pages int) int64 {
	a.PagesUsed += int64(pages)
	d.Charged, d.ChargedPages, d.PageCount = true, int64(pages), pages
	b.PutAccount(a)
	e.event(b, j, d.ID, Status(d.Status), Status(d.Status), fmt.Sprintf("charged %d pages", pages))
	return int64(pages)
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
	err := e.withDoc(docID, func(d *joblog.Doc, j *joblog.Job) error {
		if Status(d.Status).Terminal() {
			return nil
		}
		return e.finishLocked(d, j, o, start)
	})
	if errors.Is(err, errNoDoc) {
		return nil // deleted meanwhile
	}
	return err
}

// finishLocked publishes the output (rename under the account lock, so a
// concurrent delete cannot be undone by a late rename) and commits the
// terminal state with the dequeue, the charge or refund and the job's
// new status in one synced batch. The caller holds the account lock.
func (e *Engine) finishLocked(d *joblog.Doc, j *joblog.Job, o outcome, start time.Time) error {
	a, err := e.jl.Account(d.AccountID)
	if err != nil {
		return err
	}
	b := e.jl.NewBatch()
	var charged int64
	if o.errMsg == "" {
		pages := o.res.PageCount
		if pages <= 0 {
			pages = d.PageCount
		}
		switch {
		case d.Charged:
		case pages <= 0:
			e.log.Error("engine: processor reported no page count", "doc", d.ID)
			o.errMsg = UserMessage(errors.New("no page count"))
		default:
			if msg := e.quotaDenial(a, pages); msg != "" {
				o.errMsg = msg
			} else {
				charged = e.charge(b, j, a, d, pages)
			}
		}
		if o.errMsg == "" {
			if err := e.publish(j.ID, d.ID, o); err != nil {
				b.Discard()
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
		if d.Charged && !d.Refunded {
			a.PagesUsed -= d.ChargedPages
			d.Refunded = true
			b.PutAccount(a)
			e.event(b, j, d.ID, Status(d.Status), Status(d.Status), fmt.Sprintf("refunded %d pages", d.ChargedPages))
		}
	}
	ephemeral := Retention(j.Retention) != Studio
	if ephemeral {
		d.HasOriginal = false
	}
	if d.QueuedAt != 0 {
		b.Dequeue(d.QueuedAt, d.ID)
	}
	wasQueued := d.QueuedAt != 0
	d.QueuedAt = 0
	e.setStatus(b, j, d, final, d.ErrorMessage)
	b.PutDoc(d)
	docs, err := e.jl.JobDocs(j)
	if err != nil {
		b.Discard()
		return err
	}
	e.settle(b, j, replaceDoc(docs, d))
	if err := b.Commit(true); err != nil {
		return err
	}
	if wasQueued {
		e.queued.Add(-1)
	}
	if ephemeral {
		if err := os.Remove(e.origPath(j.ID, d.ID)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			e.log.Error("engine: removing original failed", "doc", d.ID, "err", err)
		}
	}
	metrics.QuotaPages.Add(float64(charged))
	recordTerminal(final, start)
	e.log.Info("document done", "job", j.ID, "doc", d.ID, "status", string(final), "pages", d.PageCount)
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
