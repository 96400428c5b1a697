package batch

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// threads counts the threads the runs of a test claim to use at once and
// the most they ever used together.
type threads struct{ now, peak atomic.Int32 }

func (th *threads) use(n int32, d time.Duration) {
	v := th.now.Add(n)
	for {
		p := th.peak.Load()
		if v <= p || th.peak.CompareAndSwap(p, v) {
			break
		}
	}
	time.Sleep(d)
	th.now.Add(-n)
}

// TestLaneNeverOversubscribed: runs holding the whole lane, runs holding
// one slot two batches at a time, and runs spreading pieces of one slot
// each, all on a lane of two, never use more than two threads together,
// and do use two.
func TestLaneNeverOversubscribed(t *testing.T) {
	var th threads
	lane := NewLane(2)
	whole := New("whole", func(_ context.Context, reqs []int) ([]int, error) {
		th.use(2, 200*time.Microsecond) // an intra-op pool of two threads
		return reqs, nil
	}, Options[int]{MaxBatch: 2, Lane: lane})
	single := New("single", func(_ context.Context, reqs []int) ([]int, error) {
		th.use(1, 300*time.Microsecond)
		return reqs, nil
	}, Options[int]{MaxBatch: 2, Lane: lane, Slots: 1, Parallel: 2})
	spread := New("spread", func(_ context.Context, reqs []int) ([]int, error) {
		err := lane.Spread(2, len(reqs), func(int) error {
			th.use(1, 250*time.Microsecond)
			return nil
		})
		return reqs, err
	}, Options[int]{MaxBatch: 3, Lane: lane, Spread: true, Parallel: 2})
	defer whole.Close()
	defer single.Close()
	defer spread.Close()
	var wg sync.WaitGroup
	for i := range 90 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := []*Batcher[int, int]{whole, single, spread}[i%3]
			if got, err := b.Do(context.Background(), i); err != nil || got != i {
				t.Errorf("Do(%d) = %d, %v", i, got, err)
			}
		}()
	}
	wg.Wait()
	if p := th.peak.Load(); p != 2 {
		t.Errorf("runs used up to %d threads together on a lane of 2", p)
	}
}

// TestSpreadLeavesIdleSlotToOthers: while a spreading run has one piece
// left (a batch of one recogniser chunk), another batcher's one-slot run
// goes on the lane's other slot instead of waiting for the batch to end.
func TestSpreadLeavesIdleSlotToOthers(t *testing.T) {
	lane := NewLane(2)
	started, release := make(chan struct{}), make(chan struct{})
	long := New("long", func(_ context.Context, reqs []int) ([]int, error) {
		return reqs, lane.Spread(2, 1, func(int) error {
			close(started)
			<-release
			return nil
		})
	}, Options[int]{Lane: lane, Spread: true})
	short := New("short", func(_ context.Context, reqs []int) ([]int, error) {
		return reqs, nil
	}, Options[int]{Lane: lane, Slots: 1})
	defer long.Close()
	defer short.Close()
	defer close(release)
	go long.Do(context.Background(), 1) //nolint:errcheck // ends when released
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the spreading run's piece never started")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := short.Do(ctx, 2); err != nil {
		t.Fatalf("a one-slot run waited for the lone piece on a lane of 2: %v", err)
	}
}

// TestParallelRunsBatchesSideBySide: with Parallel 2 a batcher runs two
// batches at once (each waits here until the other has started).
func TestParallelRunsBatchesSideBySide(t *testing.T) {
	var inside sync.WaitGroup
	inside.Add(2)
	both := make(chan struct{})
	go func() { inside.Wait(); close(both) }()
	b := New("pair", func(_ context.Context, reqs []int) ([]int, error) {
		inside.Done()
		select {
		case <-both:
			return reqs, nil
		case <-time.After(5 * time.Second):
			return nil, errors.New("the other batch never started")
		}
	}, Options[int]{MaxBatch: 1, Lane: NewLane(2), Slots: 1, Parallel: 2})
	defer b.Close()
	if _, err := b.DoAll(context.Background(), []int{1, 2}); err != nil {
		t.Fatal(err)
	}
}

// TestSpreadBoundsAndStops: without a lane Spread still runs at most par
// calls at once, and after an error starts no more.
func TestSpreadBoundsAndStops(t *testing.T) {
	var th threads
	if err := (*Lane)(nil).Spread(3, 40, func(int) error {
		th.use(1, 100*time.Microsecond)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if p := th.peak.Load(); p > 3 {
		t.Errorf("%d calls at once with par 3", p)
	}
	var calls atomic.Int32
	boom := errors.New("boom")
	err := NewLane(1).Spread(1, 10, func(i int) error {
		calls.Add(1)
		if i == 2 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || calls.Load() != 3 {
		t.Errorf("err %v after %d calls, want boom after 3", err, calls.Load())
	}
}

// TestSpreadPanicIsAnError: a piece that panics fails its batch (every
// caller gets the error) instead of the process, and gives its slot back.
func TestSpreadPanicIsAnError(t *testing.T) {
	lane := NewLane(1)
	b := New("panicky", func(_ context.Context, reqs []int) ([]int, error) {
		return reqs, lane.Spread(1, len(reqs), func(i int) error {
			if reqs[i] < 0 {
				panic("negative")
			}
			return nil
		})
	}, Options[int]{Lane: lane, Spread: true, MaxWait: time.Hour, MaxBatch: 2})
	// Closed only once it worked: with its slot lost, Close would wait for
	// a batch that can never start.
	if _, err := b.DoAll(context.Background(), []int{1, -1}); err == nil || !strings.Contains(err.Error(), "panicked: negative") {
		t.Fatalf("err = %v, want the piece's panic", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := b.DoAll(ctx, []int{1, 2}); err != nil {
		t.Fatalf("after the panic: %v (its slot was not given back)", err)
	}
	b.Close()
}

// TestOverlapCapsAtTwo: a batcher whose runs take part of the lane runs
// two batches at once on a lane of two slots or more, never more (a
// lane of sixteen would otherwise start sixteen half-filled batches).
func TestOverlapCapsAtTwo(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 1, 2: 2, 16: 2} {
		if got := NewLane(n).Overlap(); got != want {
			t.Errorf("NewLane(%d).Overlap() = %d, want %d", n, got, want)
		}
	}
}

// BenchmarkLaneFill measures what thread slots buy: four callers send
// batches of one to three CPU-bound pieces (a recogniser batch's chunks)
// to one model on a lane of two slots, run the way they were before
// slots (a batch holds the whole lane and spreads its pieces over two
// goroutines of its own) and the way they run now (a slot a piece, two
// batches at once), one after the other in each iteration. It reports
// pieces a second both ways and their ratio, slots over whole.
func BenchmarkLaneFill(b *testing.B) {
	const callers, each, piece = 4, 50, 200 * time.Microsecond
	spin := func(int) error {
		for end := time.Now().Add(piece); time.Now().Before(end); {
		}
		return nil
	}
	pieces := func(q int) int { return 1 + q%3 }
	measure := func(slots bool) float64 {
		lane := NewLane(2)
		opts := Options[int]{MaxBatch: 1, Lane: lane}
		if slots {
			opts.Spread, opts.Parallel = true, lane.Overlap()
		}
		on := lane
		if !slots {
			on = nil // the batch holds the lane; its pieces only bound themselves
		}
		m := New("fill", func(_ context.Context, reqs []int) ([]int, error) {
			return reqs, on.Spread(2, pieces(reqs[0]), spin)
		}, opts)
		defer m.Close()
		start := time.Now()
		var wg sync.WaitGroup
		for c := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					if _, err := m.Do(context.Background(), c*each+i); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		n := 0
		for q := range callers * each {
			n += pieces(q)
		}
		return float64(n) / time.Since(start).Seconds()
	}
	var whole, slots float64
	for b.Loop() {
		whole += measure(false)
		slots += measure(true)
	}
	b.ReportMetric(whole/float64(b.N), "pieces/s-whole")
	b.ReportMetric(slots/float64(b.N), "pieces/s-slots")
	b.ReportMetric(slots/whole, "slots/whole")
}
