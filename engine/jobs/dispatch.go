package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/redactd/redactd/engine/failpoint"
	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/record"
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

// dispatcher is the scheduler with its attempts: the dispatch loops over
// the local queue or the shared queue's leases (this file) and one
// attempt at a document, each step a transition (attempt.go). The
// in-flight set it fills (scheduler) is core's, since a delete and a
// review apply use it too.
type dispatcher struct {
	*core
	rev *Reviews // a studio document's words are stored as it finishes
}

// dispatch starts workers for queued documents, from the local queue or
// from the shared queue's leases.
func (ds *dispatcher) run() {
	defer ds.bg.Done()
	if ds.leasedQ != nil {
		ds.dispatchLeases()
		return
	}
	tick := time.NewTicker(dispatchPoll)
	defer tick.Stop()
	for {
		select {
		case ds.sched.slots <- struct{}{}:
		case <-ds.stop:
			return
		}
		var q record.QueueEntry
		for {
			next, ok, err := ds.localQ.NextQueued(ds.sched.isInflight)
			if err != nil && !errors.Is(err, record.ErrClosed) {
				ds.log.Error("engine: reading the queue failed", "err", err)
			}
			if ok {
				q = next
				break
			}
			select {
			case <-ds.sched.notify:
			case <-tick.C:
			case <-ds.stop:
				<-ds.sched.slots
				return
			}
		}
		ds.start(workItem{q: q})
	}
}

// dispatchLeases takes a worker slot, then a lease from the shared
// queue (blocking until another node or this one enqueues), and starts a
// worker for it.
func (ds *dispatcher) dispatchLeases() {
	ctx, cancel := context.WithCancel(ds.base)
	defer cancel()
	go func() {
		select {
		case <-ds.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	for {
		select {
		case ds.sched.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		l, err := ds.leasedQ.Lease(ctx)
		if err != nil {
			<-ds.sched.slots
			if ctx.Err() != nil {
				return
			}
			ds.log.Error("engine: leasing from the queue failed", "err", err)
			select {
			case <-time.After(retryDelay):
			case <-ctx.Done():
				return
			}
			continue
		}
		if l.Exhausted() {
			ds.exhausted(l)
			<-ds.sched.slots
			continue
		}
		if ds.sched.isInflight(l.Entry().DocID) {
			// A second delivery of a document this node is working on
			// (the queue delivers at least once): the running attempt
			// settles it.
			ds.settleLease(l, true)
			<-ds.sched.slots
			continue
		}
		ds.start(workItem{q: l.Entry(), lease: l})
	}
}

// workItem is one queued document handed to a worker: a local queue
// entry, or a shared queue's lease on it.
type workItem struct {
	q     record.QueueEntry
	lease record.Lease // nil on a local queue
}

// start runs a worker for w in the slot the dispatcher took.
func (ds *dispatcher) start(w workItem) {
	ctx, cancel := context.WithCancel(ds.base)
	r := &running{docID: w.q.DocID, jobID: w.q.JobID, cancel: cancel, done: make(chan struct{})}
	ds.sched.mu.Lock()
	ds.sched.inflight[w.q.DocID] = r
	ds.sched.mu.Unlock()
	ds.updateQueueGauge()
	ds.sched.wg.Add(1)
	go ds.work(ctx, w, r)
}

func (ds *dispatcher) work(ctx context.Context, w workItem, r *running) {
	defer ds.sched.wg.Done()
	retry := false
	stopExtend := ds.keepLease(ctx, w.lease, r.cancel)
	defer func() {
		stopExtend()
		if w.lease != nil {
			ds.settleLease(w.lease, retry)
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
		ds.sched.mu.Lock()
		delete(ds.sched.inflight, w.q.DocID)
		ds.sched.mu.Unlock()
		close(r.done)
		<-ds.sched.slots
		ds.updateQueueGauge()
		if retry {
			ds.sched.wake()
		}
	}()
	if err := ds.process(ctx, w.q); err != nil {
		if ds.base.Err() == nil && !errors.Is(err, record.ErrClosed) {
			ds.log.Error("engine: document will be retried", "doc", w.q.DocID, "err", err)
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
func (ds *dispatcher) keepLease(ctx context.Context, l record.Lease, abort func()) (stop func()) {
	if l == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(ds.leasedQ.ExtendEvery())
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				err := l.Extend(ctx)
				switch {
				case err == nil || ctx.Err() != nil:
				case errors.Is(err, store.ErrStaleLease):
					ds.log.Warn("engine: lost a document's lease to another node; stopping", "doc", l.Entry().DocID)
					abort()
					return
				default:
					ds.log.Warn("engine: extending a lease failed", "doc", l.Entry().DocID, "err", err)
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
func (ds *dispatcher) settleLease(l record.Lease, retry bool) {
	ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
	defer cancel()
	var err error
	switch {
	case retry:
		err = l.Nack(ctx, retryDelay)
	case ds.base.Err() != nil:
		err = l.Nack(ctx, 0)
	default:
		failpoint.Hit("before-ack")
		err = l.Ack(ctx)
	}
	if err != nil {
		ds.log.Warn("engine: settling a lease failed", "doc", l.Entry().DocID, "err", err)
	}
}

// exhausted ends a document whose queue entry was delivered more often
// than the queue allows (each delivery died with its node), then removes
// the entry.
func (ds *dispatcher) exhausted(l record.Lease) {
	q := l.Entry()
	ds.log.Error("engine: document failed repeatedly", "doc", q.DocID, "deliveries", l.Attempt())
	err := ds.changeDoc(queuedRef(q), func(t *tx) error {
		if Status(t.doc.Status).Terminal() {
			return errNoChange
		}
		return ds.end(t, outcome{errMsg: "processing failed repeatedly"}, time.Time{})
	})
	if err != nil && !errors.Is(err, errNoDoc) {
		ds.log.Error("engine: failing an exhausted document failed", "doc", q.DocID, "err", err)
		ds.settleLease(l, true)
		return
	}
	ds.settleLease(l, false)
}
