package jobs

import (
	"context"
	"sync"
)

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
func (s *scheduler) wake() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}
