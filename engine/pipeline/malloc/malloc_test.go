package malloc

import (
	"runtime"
	"sync"
	"testing"
)

// TestArenasCapped allocates on more threads than the cap, one after
// another: glibc gives each thread's first allocation a new arena while
// there are fewer than its limit, so without the cap there would be about
// one arena per thread.
func TestArenasCapped(t *testing.T) {
	limit := ArenaLimit()
	if limit == 0 {
		t.Skip("no arena cap set here (MALLOC_ARENA_MAX or GLIBC_TUNABLES decides, or not glibc)")
	}
	threads := 2*limit + 2
	var (
		ready, allocated, done sync.WaitGroup
		turn                   = make(chan struct{})
	)
	ready.Add(threads)
	allocated.Add(threads)
	done.Add(threads)
	for range threads {
		go func() {
			defer done.Done()
			runtime.LockOSThread() // its own OS thread while the others wait
			defer runtime.UnlockOSThread()
			ready.Done()
			<-turn
			if _, err := Arenas(); err != nil { // allocates on this thread
				t.Error(err)
			}
			allocated.Done()
			allocated.Wait() // no thread is handed on before all allocated
		}()
	}
	ready.Wait()
	for range threads {
		turn <- struct{}{}
	}
	done.Wait()
	n, err := Arenas()
	if err != nil {
		t.Fatal(err)
	}
	if n > limit {
		t.Errorf("%d arenas after %d threads allocated, want at most %d (one per CPU)", n, threads, limit)
	}
	if limit != runtime.NumCPU() {
		t.Errorf("arena cap %d, want one per CPU (%d)", limit, runtime.NumCPU())
	}
}

// TestReadStats: a block the Go side cannot see (C.malloc through
// allocBlock) shows in InUse while held and leaves it when freed.
func TestReadStats(t *testing.T) {
	before, err := ReadStats()
	if err != nil {
		t.Skip(err)
	}
	const n = 8 << 20
	p := allocBlock(n)
	held, err := ReadStats()
	if err != nil {
		t.Fatal(err)
	}
	freeBlock(p)
	after, err := ReadStats()
	if err != nil {
		t.Fatal(err)
	}
	if held.InUse < before.InUse+n {
		t.Errorf("in use %d with an %d-byte block held, %d before", held.InUse, n, before.InUse)
	}
	if after.InUse > held.InUse-n {
		t.Errorf("in use %d after freeing the block, %d while held", after.InUse, held.InUse)
	}
}
