package batch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// recorder is a run function that answers req*10+key and records batches.
type recorder struct {
	mu       sync.Mutex
	batches  [][]int
	running  atomic.Int32
	maxConc  atomic.Int32
	delay    time.Duration
	key      func(int) int
	failWith func([]int) error
}

func (r *recorder) run(_ context.Context, reqs []int) ([]int, error) {
	n := r.running.Add(1)
	defer r.running.Add(-1)
	for {
		m := r.maxConc.Load()
		if n <= m || r.maxConc.CompareAndSwap(m, n) {
			break
		}
	}
	if r.delay > 0 {
		time.Sleep(r.delay)
	}
	r.mu.Lock()
	r.batches = append(r.batches, append([]int(nil), reqs...))
	r.mu.Unlock()
	if r.failWith != nil {
		if err := r.failWith(reqs); err != nil {
			return nil, err
		}
	}
	out := make([]int, len(reqs))
	for i, q := range reqs {
		k := 0
		if r.key != nil {
			k = r.key(q)
		}
		out[i] = q*10 + k
	}
	return out, nil
}

func (r *recorder) snapshot() [][]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]int(nil), r.batches...)
}

func TestManyCallersGetTheirOwnResults(t *testing.T) {
	key := func(q int) int { return q % 5 }
	rec := &recorder{key: key, delay: 200 * time.Microsecond}
	b := New("test", rec.run, Options[int]{MaxBatch: 8, MaxWait: time.Millisecond, Key: key})
	defer b.Close()

	const callers, each = 32, 50
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				q := g*each + i
				got, err := b.Do(context.Background(), q)
				if err != nil {
					errs <- err
					return
				}
				if want := q*10 + q%5; got != want {
					errs <- fmt.Errorf("request %d: got %d, want %d", q, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	multi := 0
	for _, batch := range rec.snapshot() {
		if len(batch) > 8 {
			t.Errorf("batch of %d exceeds MaxBatch 8", len(batch))
		}
		if len(batch) > 1 {
			multi++
		}
		for _, q := range batch {
			if key(q) != key(batch[0]) {
				t.Errorf("batch %v mixes buckets", batch)
			}
			if seen[q] {
				t.Errorf("request %d ran twice", q)
			}
			seen[q] = true
		}
	}
	if len(seen) != callers*each {
		t.Errorf("ran %d requests, want %d", len(seen), callers*each)
	}
	if multi == 0 {
		t.Error("32 concurrent callers never shared a batch")
	}
	if m := rec.maxConc.Load(); m != 1 {
		t.Errorf("%d batches ran at once; the executor must run one at a time", m)
	}
}

func TestDoAllBucketsAndOrders(t *testing.T) {
	key := func(q int) int { return q / 100 }
	rec := &recorder{key: key}
	b := New("test", rec.run, Options[int]{MaxBatch: 4, MaxWait: time.Hour, Key: key})
	// With an hour of MaxWait only full buckets run before Close.
	reqs := []int{101, 5, 102, 6, 103, 7, 104, 8, 250}
	done := make(chan []int, 1)
	go func() {
		out, err := b.DoAll(context.Background(), reqs)
		if err != nil {
			t.Error(err)
		}
		done <- out
	}()
	deadline := time.Now().Add(5 * time.Second)
	for len(rec.snapshot()) < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	got := rec.snapshot()
	if len(got) != 2 {
		t.Fatalf("batches before Close: %v, want the two full buckets", got)
	}
	for _, batch := range got {
		if len(batch) != 4 {
			t.Errorf("batch %v not full", batch)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	out := <-done
	for i, q := range reqs {
		if want := q*10 + key(q); out[i] != want {
			t.Errorf("out[%d] = %d, want %d", i, out[i], want)
		}
	}
	if last := rec.snapshot(); len(last) != 3 || len(last[2]) != 1 || last[2][0] != 250 {
		t.Errorf("Close did not drain the partial bucket: %v", last)
	}
}

func TestMaxWaitClosesPartialBatch(t *testing.T) {
	rec := &recorder{}
	const wait = 20 * time.Millisecond
	b := New("test", rec.run, Options[int]{MaxBatch: 64, MaxWait: wait})
	defer b.Close()
	start := time.Now()
	got, err := b.Do(context.Background(), 7)
	if err != nil || got != 70 {
		t.Fatalf("Do = %d, %v", got, err)
	}
	// A lone request must have waited for company, then run alone.
	if el := time.Since(start); el < wait {
		t.Errorf("lone request ran after %v, before MaxWait %v", el, wait)
	}
	if bs := rec.snapshot(); len(bs) != 1 || len(bs[0]) != 1 {
		t.Errorf("batches %v", bs)
	}
}

func TestErrorsReachEveryCallerOfTheBatch(t *testing.T) {
	boom := errors.New("boom")
	rec := &recorder{failWith: func(reqs []int) error {
		for _, q := range reqs {
			if q < 0 {
				return boom
			}
		}
		return nil
	}}
	b := New("test", rec.run, Options[int]{MaxBatch: 3, MaxWait: time.Hour, Key: func(q int) int {
		if q < 0 {
			return 1
		}
		return 0
	}})
	defer b.Close()
	out, err := b.DoAll(context.Background(), []int{-1, -2, -3})
	if !errors.Is(err, boom) || out != nil {
		t.Fatalf("DoAll = %v, %v; want boom", out, err)
	}
	out, err = b.DoAll(context.Background(), []int{1, 2, 3})
	if err != nil || out[2] != 30 {
		t.Fatalf("healthy batch after failure: %v, %v", out, err)
	}
}

func TestPanicAndWrongCountBecomeErrors(t *testing.T) {
	b := New("test", func(_ context.Context, reqs []int) ([]int, error) {
		if reqs[0] == 0 {
			panic("model exploded")
		}
		return make([]int, len(reqs)+1), nil
	}, Options[int]{MaxBatch: 1})
	defer b.Close()
	if _, err := b.Do(context.Background(), 0); err == nil {
		t.Error("panic not reported")
	}
	if _, err := b.Do(context.Background(), 1); err == nil {
		t.Error("wrong response count not reported")
	}
}

func TestCancelledWaiterIsDropped(t *testing.T) {
	rec := &recorder{}
	b := New("test", rec.run, Options[int]{MaxBatch: 8, MaxWait: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := b.Do(ctx, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	b.Close()
	if bs := rec.snapshot(); len(bs) != 0 {
		t.Errorf("cancelled request still ran: %v", bs)
	}
}

func TestCancelWhileRunningReturnsAtOnce(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	b := New("test", func(_ context.Context, reqs []int) ([]int, error) {
		close(started)
		<-release
		return reqs, nil
	}, Options[int]{MaxBatch: 1})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := b.Do(ctx, 1)
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	close(release)
	b.Close()
}

func TestClosedBatcherRefuses(t *testing.T) {
	b := New("test", (&recorder{}).run, Options[int]{})
	b.Close()
	b.Close()
	if _, err := b.Do(context.Background(), 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v", err)
	}
	if _, err := b.DoAll(context.Background(), []int{1}); !errors.Is(err, ErrClosed) {
		t.Fatalf("DoAll err = %v", err)
	}
}

func TestLaneSerialisesBatchers(t *testing.T) {
	var running, maxConc atomic.Int32
	run := func(_ context.Context, reqs []int) ([]int, error) {
		n := running.Add(1)
		for {
			m := maxConc.Load()
			if n <= m || maxConc.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(100 * time.Microsecond)
		running.Add(-1)
		return reqs, nil
	}
	lane := NewLane(1)
	a := New("a", run, Options[int]{MaxBatch: 2, Lane: lane})
	c := New("c", run, Options[int]{MaxBatch: 2, Lane: lane})
	defer a.Close()
	defer c.Close()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bt := a
			if i%2 == 1 {
				bt = c
			}
			if got, err := bt.Do(context.Background(), i); err != nil || got != i {
				t.Errorf("Do(%d) = %d, %v", i, got, err)
			}
		}()
	}
	wg.Wait()
	if m := maxConc.Load(); m != 1 {
		t.Errorf("%d runs overlapped on a lane of 1", m)
	}
}

func BenchmarkDo(b *testing.B) {
	bt := New("bench", func(_ context.Context, reqs []int) ([]int, error) { return reqs, nil },
		Options[int]{MaxBatch: 64, MaxWait: 100 * time.Microsecond})
	defer bt.Close()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := bt.Do(context.Background(), 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestObserveSeesEveryBatch: the Observe hook is told of each batch with
// the batcher's name and the batch's size, and only through it does the
// package report (it imports no metrics).
func TestObserveSeesEveryBatch(t *testing.T) {
	key := func(q int) int { return q / 100 }
	rec := &recorder{key: key}
	var mu sync.Mutex
	var sizes []int
	observe := func(name string, size int, took time.Duration) {
		if name != "observed" || took < 0 {
			t.Errorf("observed %q took %v", name, took)
		}
		mu.Lock()
		sizes = append(sizes, size)
		mu.Unlock()
	}
	b := New("observed", rec.run, Options[int]{MaxBatch: 4, MaxWait: time.Hour, Key: key, Observe: observe})
	if _, err := b.DoAll(context.Background(), []int{101, 102, 103, 104}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sizes) != 1 || sizes[0] != 4 {
		t.Errorf("Observe saw batches of %v, want one of 4", sizes)
	}
}
