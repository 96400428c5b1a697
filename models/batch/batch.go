// Package batch is the dynamic batcher shared by redactd's models (NER
// sentences, OCR detection pages, OCR text lines).
//
// Requests come from any goroutine (pages of many documents at once); one
// executor goroutine per Batcher gathers them into batches and runs them,
// Options.Parallel at a time (one by default), so the threads the runs use
// stay within what the batcher was given. A batch closes when it holds
// MaxBatch requests or its oldest request has waited MaxWait. Requests are
// bucketed by Key (a sentence length, a line width rounded to a step) and a
// batch only holds requests of one bucket, so padding to the batch's
// longest member stays small. Each request gets its result through its own
// channel.
//
// The batchers of the models on one set of cores share a Lane: a pool of
// slots, one per thread the models may keep busy at once. A run holds
// Options.Slots of them while it runs (the intra-op threads of its
// session; by default all, so it has the cores to itself); a run that cuts
// its batch into single-threaded pieces (the OCR recogniser's chunks, the
// NER model's) sets Options.Spread and takes one slot per piece through
// Lane.Spread, so a core one run leaves idle (a batch of one chunk, the
// last chunk of a batch) serves the next piece of any batcher on the lane,
// and the cores are never oversubscribed.
//
// API (stable; NER and OCR depend on it):
//
//	type Options[Req any] struct {
//		MaxBatch int                // requests per batch (default 32)
//		MaxWait  time.Duration      // longest a request waits for its batch to fill (default 2ms)
//		Key      func(Req) int      // bucket; nil puts every request in one bucket
//		Lane     *Lane              // optional: the slots shared with other batchers
//		Slots    int                // slots a run holds (0: the whole lane)
//		Spread   bool               // the run takes its own slots (Lane.Spread)
//		Parallel int                // batches of this batcher at once (default 1)
//	}
//	func New[Req, Resp any](name string, run func(ctx context.Context, reqs []Req) ([]Resp, error), opts Options[Req]) *Batcher[Req, Resp]
//	func (b *Batcher[Req, Resp]) Do(ctx context.Context, req Req) (Resp, error)
//	func (b *Batcher[Req, Resp]) DoAll(ctx context.Context, reqs []Req) ([]Resp, error)
//	func (b *Batcher[Req, Resp]) Close() error   // runs what is queued, then stops; later Do returns ErrClosed
//	func NewLane(n int) *Lane
//	func (l *Lane) Spread(par, k int, fn func(i int) error) error
//
// run receives requests in arrival order within the bucket and must return
// exactly one response per request, in the same order; an error (or a panic,
// which is recovered) fails every request of that batch. A request whose
// context ends while it waits is dropped from the queue and its Do returns
// the context's error; one whose batch already runs returns at once too,
// and its result is discarded. Each batch's size and run time go to the
// Options.Observe hook, if any; the package itself imports no metrics.
package batch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// ErrClosed is returned by Do after Close.
var ErrClosed = errors.New("batch: batcher closed")

// Options tune a Batcher.
type Options[Req any] struct {
	// MaxBatch is the most requests in one batch (default 32).
	MaxBatch int
	// MaxWait is how long the oldest request of a bucket waits for more
	// requests before its batch runs anyway (default 2ms). Zero means the
	// default; a negative value means no wait.
	MaxWait time.Duration
	// Key buckets requests; a batch holds requests of one key only. Nil
	// puts every request in bucket 0.
	Key func(Req) int
	// Lane, when set, is the pool of thread slots this batcher's runs
	// share with every other batcher on it (one lane for every CPU model,
	// so NER and OCR runs take turns on the cores instead of
	// oversubscribing them).
	Lane *Lane
	// Slots is how many of the Lane's slots a run holds while it runs:
	// the intra-op threads of the session it calls. Zero, or more than
	// the lane has, means the whole lane. Ignored with Spread.
	Slots int
	// Spread marks a run that cuts its batch into single-threaded pieces
	// and runs them through Lane.Spread, one slot per piece: the batcher
	// holds no slot for it, so the pieces of several batchers fill the
	// lane's slots between them.
	Spread bool
	// Parallel is how many batches of this batcher may run at once
	// (default 1). More than one helps a run that holds fewer slots than
	// the lane has (a single-threaded detector run beside another); the
	// lane still bounds the threads.
	Parallel int
	// Observe, when set, is told of every batch run: the batcher's name,
	// how many requests it held and how long the run took. The batcher
	// itself reports nowhere else, so whoever builds it decides where the
	// figures go (the pipeline: the model metrics).
	Observe Observer
}

// Observer receives the size and run time of each batch of a named
// batcher. The run time starts once the batch holds its slots; a
// spreading run (Options.Spread) takes its slots inside, so its time
// includes its pieces' waits for them.
type Observer func(name string, size int, took time.Duration)

// Lane is a pool of thread slots shared by the batchers of the models on
// one set of cores. Slots are handed out first come, first served (a run
// waiting for two slots is not overtaken by later runs wanting one), so no
// batcher starves.
type Lane struct {
	sem *semaphore.Weighted
	n   int
}

// NewLane returns a lane of n slots (n < 1 means 1): the threads the
// models may keep busy at once, one per core they were given.
func NewLane(n int) *Lane {
	n = max(n, 1)
	return &Lane{sem: semaphore.NewWeighted(int64(n)), n: n}
}

// Size is the lane's number of slots.
func (l *Lane) Size() int { return l.n }

// Overlap is the Options.Parallel for a batcher whose runs take fewer
// slots than the lane has (one a piece, or one a run): two batches at
// once when the lane has two slots or more, one running and one filling
// the slots the first's last pieces leave. More would start batches
// before they had filled, on a lane of many slots.
func (l *Lane) Overlap() int { return min(2, l.n) }

// slots is how many slots a run asking for want holds: 0 or more than
// the lane has means all of them.
func (l *Lane) slots(want int) int {
	if want <= 0 || want > l.n {
		return l.n
	}
	return want
}

func (l *Lane) acquire(n int) {
	// Background: a run, once started, finishes (its callers' contexts
	// are checked around it), and every holder releases what it took.
	_ = l.sem.Acquire(context.Background(), int64(n))
}

func (l *Lane) release(n int) { l.sem.Release(int64(n)) }

// Spread runs fn(0), ..., fn(k-1) on at most par goroutines, each call
// holding one of l's slots while it runs (a nil l bounds nothing but
// par), and returns their errors joined (a panic is an error). After an
// error no further call starts. It is how a run cut into single-threaded
// pieces (Options.Spread) takes its slots: a piece at a time, so a slot a
// run does not need goes to another batcher's piece at once.
func (l *Lane) Spread(par, k int, fn func(i int) error) error {
	workers := min(max(par, 1), k)
	errs := make([]error, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= k {
					return
				}
				if err := l.piece(fn, i); err != nil {
					errs[w] = err
					next.Store(int64(k)) // stop the others early
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// piece runs fn(i) holding one of l's slots (none when l is nil). A panic
// becomes its error, as a batch run's does: a Spread worker is a goroutine
// of its own, so the batcher's recover would not see it, and the slot it
// held would be lost.
func (l *Lane) piece(fn func(int) error, i int) (err error) {
	if l != nil {
		l.acquire(1)
		defer l.release(1)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("batch: piece %d panicked: %v", i, r)
		}
	}()
	return fn(i)
}

// Batcher groups requests into batches for run. Create it with New.
type Batcher[Req, Resp any] struct {
	name string
	run  func(context.Context, []Req) ([]Resp, error)
	opts Options[Req]

	mu      sync.Mutex
	buckets map[int]*bucket[Req, Resp]
	closed  bool
	notify  chan struct{} // wakes the executor (capacity 1)
	running chan struct{} // one token per batch running (capacity Parallel)
	done    chan struct{} // closed when the executor and its runs end

	closeOnce sync.Once
}

type bucket[Req, Resp any] struct {
	calls []*call[Req, Resp]
}

// call is one request on its way through the batcher.
type call[Req, Resp any] struct {
	req   Req
	key   int
	enq   time.Time
	taken bool // in a running batch; guarded by Batcher.mu
	resp  Resp
	err   error
	done  chan struct{} // closed once resp/err are set
}

// New starts a batcher and its executor goroutine. Close it when done.
func New[Req, Resp any](name string, run func(ctx context.Context, reqs []Req) ([]Resp, error), opts Options[Req]) *Batcher[Req, Resp] {
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 32
	}
	opts.Parallel = max(opts.Parallel, 1)
	if opts.MaxWait == 0 {
		opts.MaxWait = 2 * time.Millisecond
	} else if opts.MaxWait < 0 {
		opts.MaxWait = 0
	}
	b := &Batcher[Req, Resp]{
		name:    name,
		run:     run,
		opts:    opts,
		buckets: map[int]*bucket[Req, Resp]{},
		notify:  make(chan struct{}, 1),
		running: make(chan struct{}, opts.Parallel),
		done:    make(chan struct{}),
	}
	go b.loop()
	return b
}

// Do queues req, waits for its batch to run and returns its response.
func (b *Batcher[Req, Resp]) Do(ctx context.Context, req Req) (Resp, error) {
	var zero Resp
	c, err := b.enqueue([]Req{req})
	if err != nil {
		return zero, err
	}
	if err := b.wait(ctx, c[0]); err != nil {
		return zero, err
	}
	return c[0].resp, nil
}

// DoAll queues every request at once and waits for all of them; it is Do
// for a caller holding many requests (the lines of a page), without a
// goroutine per request. It returns the first error met.
func (b *Batcher[Req, Resp]) DoAll(ctx context.Context, reqs []Req) ([]Resp, error) {
	if len(reqs) == 0 {
		return nil, nil
	}
	cs, err := b.enqueue(reqs)
	if err != nil {
		return nil, err
	}
	out := make([]Resp, len(reqs))
	for i, c := range cs {
		if err := b.wait(ctx, c); err != nil {
			for _, rest := range cs[i+1:] {
				b.cancel(rest)
			}
			return nil, err
		}
		out[i] = c.resp
	}
	return out, nil
}

func (b *Batcher[Req, Resp]) enqueue(reqs []Req) ([]*call[Req, Resp], error) {
	now := time.Now()
	cs := make([]*call[Req, Resp], len(reqs))
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, ErrClosed
	}
	for i, r := range reqs {
		k := 0
		if b.opts.Key != nil {
			k = b.opts.Key(r)
		}
		c := &call[Req, Resp]{req: r, key: k, enq: now, done: make(chan struct{})}
		bk := b.buckets[k]
		if bk == nil {
			bk = &bucket[Req, Resp]{}
			b.buckets[k] = bk
		}
		bk.calls = append(bk.calls, c)
		cs[i] = c
	}
	b.mu.Unlock()
	b.wake()
	return cs, nil
}

func (b *Batcher[Req, Resp]) wake() {
	select {
	case b.notify <- struct{}{}:
	default:
	}
}

// wait blocks until c is answered or ctx ends.
func (b *Batcher[Req, Resp]) wait(ctx context.Context, c *call[Req, Resp]) error {
	select {
	case <-c.done:
		return c.err
	case <-ctx.Done():
		b.cancel(c)
		return ctx.Err()
	}
}

// cancel drops c from its bucket if its batch has not started.
func (b *Batcher[Req, Resp]) cancel(c *call[Req, Resp]) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.taken {
		return
	}
	bk := b.buckets[c.key]
	if bk == nil {
		return
	}
	for i, x := range bk.calls {
		if x == c {
			bk.calls = append(bk.calls[:i], bk.calls[i+1:]...)
			break
		}
	}
	if len(bk.calls) == 0 {
		delete(b.buckets, c.key)
	}
}

// Close stops accepting requests, runs every queued request and waits for
// the executor to finish. It is safe to call more than once.
func (b *Batcher[Req, Resp]) Close() error {
	b.closeOnce.Do(func() {
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		b.wake()
	})
	<-b.done
	return nil
}

// loop is the executor: once a run may start (fewer than Parallel
// running), it waits for the next ready batch and starts it; at the end it
// waits for the runs it started.
func (b *Batcher[Req, Resp]) loop() {
	defer close(b.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		b.running <- struct{}{}
		batch := b.next(timer)
		if batch == nil {
			<-b.running
			break
		}
		go func() {
			defer func() { <-b.running }()
			b.execute(batch)
		}()
	}
	for range cap(b.running) {
		b.running <- struct{}{}
	}
}

// next waits for a ready batch and takes it; nil once the batcher is
// closed and nothing is queued.
func (b *Batcher[Req, Resp]) next(timer *time.Timer) []*call[Req, Resp] {
	for {
		b.mu.Lock()
		batch, wait := b.pick(time.Now())
		closed := b.closed
		b.mu.Unlock()
		if batch != nil {
			return batch
		}
		if closed && wait < 0 {
			return nil
		}
		if wait >= 0 {
			timer.Reset(wait)
			select {
			case <-b.notify:
			case <-timer.C:
			}
			timer.Stop()
		} else {
			<-b.notify
		}
	}
}

// pick takes the next batch under b.mu: a full bucket first, else the
// bucket whose oldest request has waited MaxWait (everything once closed).
// When none is ready it returns how long until one is (-1: nothing queued).
func (b *Batcher[Req, Resp]) pick(now time.Time) ([]*call[Req, Resp], time.Duration) {
	var (
		bestKey   int
		bestOld   time.Time
		found     bool
		fullFound bool
		wait      = time.Duration(-1)
	)
	for k, bk := range b.buckets {
		old := bk.calls[0].enq
		full := len(bk.calls) >= b.opts.MaxBatch
		ready := full || b.closed || now.Sub(old) >= b.opts.MaxWait
		if !ready {
			if w := b.opts.MaxWait - now.Sub(old); wait < 0 || w < wait {
				wait = w
			}
			continue
		}
		// Prefer full buckets, then the oldest request.
		if !found || (full && !fullFound) || (full == fullFound && old.Before(bestOld)) {
			bestKey, bestOld, found, fullFound = k, old, true, full
		}
	}
	if !found {
		return nil, wait
	}
	bk := b.buckets[bestKey]
	n := min(len(bk.calls), b.opts.MaxBatch)
	batch := make([]*call[Req, Resp], n)
	copy(batch, bk.calls[:n])
	bk.calls = append(bk.calls[:0], bk.calls[n:]...)
	if len(bk.calls) == 0 {
		delete(b.buckets, bestKey)
	}
	for _, c := range batch {
		c.taken = true
	}
	return batch, 0
}

// execute runs one batch and hands each caller its result.
func (b *Batcher[Req, Resp]) execute(batch []*call[Req, Resp]) {
	reqs := make([]Req, len(batch))
	for i, c := range batch {
		reqs[i] = c.req
	}
	slots := 0
	if l := b.opts.Lane; l != nil && !b.opts.Spread {
		slots = l.slots(b.opts.Slots)
		l.acquire(slots)
	}
	start := time.Now()
	resps, err := b.safeRun(reqs)
	if b.opts.Observe != nil {
		b.opts.Observe(b.name, len(batch), time.Since(start))
	}
	if slots > 0 {
		b.opts.Lane.release(slots)
	}
	if err == nil && len(resps) != len(reqs) {
		err = fmt.Errorf("batch %s: run returned %d responses for %d requests", b.name, len(resps), len(reqs))
	}
	for i, c := range batch {
		if err != nil {
			c.err = err
		} else {
			c.resp = resps[i]
		}
		close(c.done)
	}
}

// safeRun calls run, turning a panic into an error so one bad batch fails
// its requests instead of the process.
func (b *Batcher[Req, Resp]) safeRun(reqs []Req) (resps []Resp, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("batch %s: run panicked: %v", b.name, r)
		}
	}()
	return b.run(context.Background(), reqs)
}
