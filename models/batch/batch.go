// Package batch is the dynamic batcher shared by redactd's models (NER
// sentences, OCR detection pages, OCR text lines).
//
// Requests come from any goroutine (pages of many documents at once); one
// executor goroutine per Batcher gathers them into batches and runs one
// batch at a time, so a model session never serves two batches at once
// and the threads a batch's run uses (ONNX Runtime's intra-op pool, or the
// run function's own split of the batch, as the OCR recogniser's) are the
// only parallelism inside it. A batch
// closes when it holds MaxBatch requests or its oldest request has waited
// MaxWait. Requests are bucketed by Key (a sentence length, a line width
// rounded to a step) and a batch only holds requests of one bucket, so
// padding to the batch's longest member stays small. Each request gets its
// result through its own channel.
//
// API (stable; NER and OCR depend on it):
//
//	type Options[Req any] struct {
//		MaxBatch int                // requests per batch (default 32)
//		MaxWait  time.Duration      // longest a request waits for its batch to fill (default 2ms)
//		Key      func(Req) int      // bucket; nil puts every request in one bucket
//		Lane     *Lane              // optional: batchers sharing a Lane run at most n batches at once
//	}
//	func New[Req, Resp any](name string, run func(ctx context.Context, reqs []Req) ([]Resp, error), opts Options[Req]) *Batcher[Req, Resp]
//	func (b *Batcher[Req, Resp]) Do(ctx context.Context, req Req) (Resp, error)
//	func (b *Batcher[Req, Resp]) DoAll(ctx context.Context, reqs []Req) ([]Resp, error)
//	func (b *Batcher[Req, Resp]) Close() error   // runs what is queued, then stops; later Do returns ErrClosed
//	func NewLane(n int) *Lane
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
	"time"
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
	// Lane, when set, bounds how many batches of all batchers sharing it
	// run at once (e.g. one lane for every CPU model, so NER and OCR runs
	// take turns on the cores instead of splitting them).
	Lane *Lane
	// Observe, when set, is told of every batch run: the batcher's name,
	// how many requests it held and how long the run took. The batcher
	// itself reports nowhere else, so whoever builds it decides where the
	// figures go (the pipeline: the model metrics).
	Observe Observer
}

// Observer receives the size and run time of each batch of a named
// batcher.
type Observer func(name string, size int, took time.Duration)

// Lane is a semaphore shared by batchers whose runs must not overlap.
type Lane struct{ sem chan struct{} }

// NewLane returns a lane admitting n concurrent runs (n < 1 means 1).
func NewLane(n int) *Lane { return &Lane{sem: make(chan struct{}, max(n, 1))} }

// Batcher groups requests into batches for run. Create it with New.
type Batcher[Req, Resp any] struct {
	name string
	run  func(context.Context, []Req) ([]Resp, error)
	opts Options[Req]

	mu      sync.Mutex
	buckets map[int]*bucket[Req, Resp]
	closed  bool
	notify  chan struct{} // wakes the executor (capacity 1)
	done    chan struct{} // closed when the executor exits

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

// loop is the executor: it picks the next ready batch, runs it, and
// sleeps until a request arrives or the oldest waiting one times out.
func (b *Batcher[Req, Resp]) loop() {
	defer close(b.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		b.mu.Lock()
		batch, wait := b.pick(time.Now())
		closed := b.closed
		b.mu.Unlock()
		if batch != nil {
			b.execute(batch)
			continue
		}
		if closed && wait < 0 {
			return
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
	if b.opts.Lane != nil {
		b.opts.Lane.sem <- struct{}{}
	}
	start := time.Now()
	resps, err := b.safeRun(reqs)
	if b.opts.Observe != nil {
		b.opts.Observe(b.name, len(batch), time.Since(start))
	}
	if b.opts.Lane != nil {
		<-b.opts.Lane.sem
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
