package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redactd/redactd/engine/failpoint"
	"github.com/redactd/redactd/engine/record"
	"github.com/redactd/redactd/engine/store"
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

// scheduler is the dispatch state: which documents are in flight, the
// worker slots (cfg.MaxConcurrentJobs), and the wake-up channel.
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

// dispatch starts workers for queued documents, from the local queue or
// from the shared queue's leases.
func (e *Engine) dispatch() {
	defer e.bg.Done()
	if e.leasedQ != nil {
		e.dispatchLeases()
		return
	}
	tick := time.NewTicker(dispatchPoll)
	defer tick.Stop()
	for {
		select {
		case e.sched.slots <- struct{}{}:
		case <-e.stop:
			return
		}
		var q record.QueueEntry
		for {
			next, ok, err := e.localQ.NextQueued(e.sched.isInflight)
			if err != nil && !errors.Is(err, record.ErrClosed) {
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
		e.start(workItem{q: q})
	}
}

// dispatchLeases takes a worker slot, then a lease from the shared
// queue (blocking until another node or this one enqueues), and starts a
// worker for it.
func (e *Engine) dispatchLeases() {
	ctx, cancel := context.WithCancel(e.base)
	defer cancel()
	go func() {
		select {
		case <-e.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	for {
		select {
		case e.sched.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		l, err := e.leasedQ.Lease(ctx)
		if err != nil {
			<-e.sched.slots
			if ctx.Err() != nil {
				return
			}
			e.log.Error("engine: leasing from the queue failed", "err", err)
			select {
			case <-time.After(retryDelay):
			case <-ctx.Done():
				return
			}
			continue
		}
		if l.Exhausted() {
			e.exhausted(l)
			<-e.sched.slots
			continue
		}
		if e.sched.isInflight(l.Entry().DocID) {
			// A second delivery of a document this node is working on
			// (the queue delivers at least once): the running attempt
			// settles it.
			e.settleLease(l, true)
			<-e.sched.slots
			continue
		}
		e.start(workItem{q: l.Entry(), lease: l})
	}
}

// workItem is one queued document handed to a worker: a local queue
// entry, or a shared queue's lease on it.
type workItem struct {
	q     record.QueueEntry
	lease record.Lease // nil on a local queue
}

// start runs a worker for w in the slot the dispatcher took.
func (e *Engine) start(w workItem) {
	ctx, cancel := context.WithCancel(e.base)
	r := &running{docID: w.q.DocID, jobID: w.q.JobID, cancel: cancel, done: make(chan struct{})}
	e.sched.mu.Lock()
	e.sched.inflight[w.q.DocID] = r
	e.sched.mu.Unlock()
	e.updateQueueGauge()
	e.sched.wg.Add(1)
	go e.work(ctx, w, r)
}

func (e *Engine) work(ctx context.Context, w workItem, r *running) {
	defer e.sched.wg.Done()
	retry := false
	stopExtend := e.keepLease(ctx, w.lease, r.cancel)
	defer func() {
		stopExtend()
		if w.lease != nil {
			e.settleLease(w.lease, retry)
			retry = false // the queue waits before delivering it again
		}
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
		delete(e.sched.inflight, w.q.DocID)
		e.sched.mu.Unlock()
		close(r.done)
		<-e.sched.slots
		e.updateQueueGauge()
		if retry {
			e.wake()
		}
	}()
	if err := e.process(ctx, w.q); err != nil {
		if e.base.Err() == nil && !errors.Is(err, record.ErrClosed) {
			e.log.Error("engine: document will be retried", "doc", w.q.DocID, "err", err)
			retry = true
		}
	}
}

// settleTimeout bounds the queue calls that settle a lease; they run
// after the engine's context may be canceled (shutdown).
const settleTimeout = 10 * time.Second

// keepLease extends l while the worker runs; the returned function stops
// it. A lease found stale (it expired and the document went to another
// node: this one stalled past the lease time) cancels the worker through
// abort, so it stops spending the node on another node's work; its
// outcome, should it get that far, is fenced by the attempt count
// (finish). A nil lease (local queue) needs nothing.
func (e *Engine) keepLease(ctx context.Context, l record.Lease, abort func()) (stop func()) {
	if l == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(e.leasedQ.ExtendEvery())
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				err := l.Extend(ctx)
				switch {
				case err == nil || ctx.Err() != nil:
				case errors.Is(err, store.ErrStaleLease):
					e.log.Warn("engine: lost a document's lease to another node; stopping", "doc", l.Entry().DocID)
					abort()
					return
				default:
					e.log.Warn("engine: extending a lease failed", "doc", l.Entry().DocID, "err", err)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { cancel(); <-done }
}

// settleLease settles a worker's lease once its outcome is committed:
// Ack when the document is done with (terminal, deleted or stale), Nack
// when it must be tried again (a failure to record the outcome, or a
// shutdown that gave the attempt back, so another node takes it now).
func (e *Engine) settleLease(l record.Lease, retry bool) {
	ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
	defer cancel()
	var err error
	switch {
	case retry:
		err = l.Nack(ctx, retryDelay)
	case e.base.Err() != nil:
		err = l.Nack(ctx, 0)
	default:
		failpoint.Hit("before-ack")
		err = l.Ack(ctx)
	}
	if err != nil {
		e.log.Warn("engine: settling a lease failed", "doc", l.Entry().DocID, "err", err)
	}
}

// exhausted ends a document whose queue entry was delivered more often
// than the queue allows (each delivery died with its node), then removes
// the entry.
func (e *Engine) exhausted(l record.Lease) {
	q := l.Entry()
	e.log.Error("engine: document failed repeatedly", "doc", q.DocID, "deliveries", l.Attempt())
	err := e.changeDoc(queuedRef(q), func(t *tx) error {
		if Status(t.doc.Status).Terminal() {
			return errNoChange
		}
		return e.end(t, outcome{errMsg: "processing failed repeatedly"}, time.Time{})
	})
	if err != nil && !errors.Is(err, errNoDoc) {
		e.log.Error("engine: failing an exhausted document failed", "doc", q.DocID, "err", err)
		e.settleLease(l, true)
		return
	}
	e.settleLease(l, false)
}
