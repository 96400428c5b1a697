package engine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redactd/redactd/engine/joblog"
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

func (e *Engine) updateQueueGauge() {
	e.metrics.queueDepth.Set(float64(e.queued.Load() - int64(e.sched.inflightCount())))
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
