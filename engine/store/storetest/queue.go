package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
)

// QueueFixture is a fresh queue with the lease time and the maximum number
// of attempts it was configured with. Keep LeaseTime short (about a
// second): the expiry tests wait for it.
type QueueFixture struct {
	Queue       store.Queue
	LeaseTime   time.Duration
	MaxAttempts int
}

// leaseWithin leases from pool, failing the test unless an item comes
// within d.
func leaseWithin(t *testing.T, q store.Queue, pool string, d time.Duration) store.Lease {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	l, err := q.Lease(ctx, pool)
	if err != nil {
		t.Fatalf("Lease(%s) within %v: %v", pool, d, err)
	}
	return l
}

// wantEmpty fails if pool hands out an item within d.
func wantEmpty(t *testing.T, q store.Queue, pool string, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	l, err := q.Lease(ctx, pool)
	if err == nil {
		t.Fatalf("Lease(%s) = %s attempt %d; want nothing", pool, l.ID(), l.Attempt())
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lease(%s) on an empty pool: %v, want the context's deadline", pool, err)
	}
}

// Queue runs the contract of store.Queue: delivery, pools, lease expiry
// and redelivery with a higher attempt, the fence on a late Ack, Extend,
// Nack, and exhaustion after MaxAttempts.
func Queue(t *testing.T, newQueue func(t *testing.T) QueueFixture) {
	t.Run("AckRemoves", func(t *testing.T) {
		f, ctx := newQueue(t), ctxT(t)
		if err := f.Queue.Enqueue(ctx, "cpu", "doc-1", []byte("p1")); err != nil {
			t.Fatal(err)
		}
		l := leaseWithin(t, f.Queue, "cpu", timeout)
		if l.ID() != "doc-1" || string(l.Payload()) != "p1" || l.Attempt() != 1 || l.Exhausted() {
			t.Fatalf("lease = %s %q attempt %d exhausted %v", l.ID(), l.Payload(), l.Attempt(), l.Exhausted())
		}
		if err := l.Ack(ctx); err != nil {
			t.Fatalf("Ack: %v", err)
		}
		wantErr(t, "second Ack", l.Ack(ctx), store.ErrStaleLease)
		// Past the lease time: an acked item never comes back.
		wantEmpty(t, f.Queue, "cpu", f.LeaseTime+f.LeaseTime/2)
	})
	t.Run("Pools", func(t *testing.T) {
		f, ctx := newQueue(t), ctxT(t)
		if err := f.Queue.Enqueue(ctx, "gpu", "doc-g", nil); err != nil {
			t.Fatal(err)
		}
		wantEmpty(t, f.Queue, "cpu", 300*time.Millisecond)
		l := leaseWithin(t, f.Queue, "gpu", timeout)
		if l.ID() != "doc-g" {
			t.Fatalf("gpu lease = %s", l.ID())
		}
		if err := l.Ack(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Order", func(t *testing.T) {
		f, ctx := newQueue(t), ctxT(t)
		for i := range 5 {
			if err := f.Queue.Enqueue(ctx, "cpu", fmt.Sprintf("doc-%d", i), nil); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 5 {
			l := leaseWithin(t, f.Queue, "cpu", timeout)
			if want := fmt.Sprintf("doc-%d", i); l.ID() != want {
				t.Fatalf("lease %d = %s, want %s (oldest first)", i, l.ID(), want)
			}
			if err := l.Ack(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("ExpiryRedeliversAndFencesLateAck", func(t *testing.T) {
		f, ctx := newQueue(t), ctxT(t)
		if err := f.Queue.Enqueue(ctx, "cpu", "doc-x", []byte("p")); err != nil {
			t.Fatal(err)
		}
		dead := leaseWithin(t, f.Queue, "cpu", timeout)
		// The holder dies: no Extend, no Ack. Another worker gets the item
		// one lease time later, as a later attempt.
		start := time.Now()
		next := leaseWithin(t, f.Queue, "cpu", timeout)
		if next.ID() != "doc-x" || next.Attempt() <= dead.Attempt() {
			t.Fatalf("redelivery = %s attempt %d after attempt %d", next.ID(), next.Attempt(), dead.Attempt())
		}
		if waited := time.Since(start); waited < f.LeaseTime/2 {
			t.Fatalf("redelivered after %v, before the lease time %v", waited, f.LeaseTime)
		}
		// The old holder wakes up: its settlements must not count.
		wantErr(t, "late Ack", dead.Ack(ctx), store.ErrStaleLease)
		wantErr(t, "late Extend", dead.Extend(ctx), store.ErrStaleLease)
		wantErr(t, "late Nack", dead.Nack(ctx, 0), store.ErrStaleLease)
		if err := next.Ack(ctx); err != nil {
			t.Fatalf("current Ack: %v", err)
		}
		wantEmpty(t, f.Queue, "cpu", f.LeaseTime+f.LeaseTime/2)
	})
	t.Run("ExtendKeepsLease", func(t *testing.T) {
		f, ctx := newQueue(t), ctxT(t)
		if err := f.Queue.Enqueue(ctx, "cpu", "doc-long", nil); err != nil {
			t.Fatal(err)
		}
		l := leaseWithin(t, f.Queue, "cpu", timeout)
		stop := make(chan struct{})
		extended := make(chan error, 1)
		go func() {
			tick := time.NewTicker(f.LeaseTime / 4)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					extended <- nil
					return
				case <-tick.C:
					if err := l.Extend(ctx); err != nil {
						extended <- err
						return
					}
				}
			}
		}()
		// Twice the lease time: a worker that keeps extending keeps it.
		wantEmpty(t, f.Queue, "cpu", 2*f.LeaseTime)
		close(stop)
		if err := <-extended; err != nil {
			t.Fatalf("Extend: %v", err)
		}
		if err := l.Ack(ctx); err != nil {
			t.Fatalf("Ack after extending: %v", err)
		}
	})
	t.Run("NackRedelivers", func(t *testing.T) {
		f, ctx := newQueue(t), ctxT(t)
		if err := f.Queue.Enqueue(ctx, "cpu", "doc-n", nil); err != nil {
			t.Fatal(err)
		}
		l := leaseWithin(t, f.Queue, "cpu", timeout)
		if err := l.Nack(ctx, 0); err != nil {
			t.Fatal(err)
		}
		again := leaseWithin(t, f.Queue, "cpu", f.LeaseTime/2+5*time.Second)
		if again.ID() != "doc-n" || again.Attempt() != l.Attempt()+1 {
			t.Fatalf("after Nack: %s attempt %d", again.ID(), again.Attempt())
		}
		if err := again.Ack(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Exhausted", func(t *testing.T) {
		f, ctx := newQueue(t), ctxT(t)
		if f.MaxAttempts < 1 || f.MaxAttempts > 5 {
			t.Fatalf("fixture MaxAttempts %d; the suite wants 1..5", f.MaxAttempts)
		}
		if err := f.Queue.Enqueue(ctx, "cpu", "doc-bad", nil); err != nil {
			t.Fatal(err)
		}
		for a := 1; a <= f.MaxAttempts; a++ {
			l := leaseWithin(t, f.Queue, "cpu", timeout)
			if l.Attempt() != a || l.Exhausted() {
				t.Fatalf("delivery %d: attempt %d exhausted %v", a, l.Attempt(), l.Exhausted())
			}
			if err := l.Nack(ctx, 0); err != nil {
				t.Fatal(err)
			}
		}
		// One more delivery, flagged: the caller marks the document
		// failed and acks, which must remove the item for good.
		l := leaseWithin(t, f.Queue, "cpu", timeout)
		if !l.Exhausted() || l.Attempt() != f.MaxAttempts+1 {
			t.Fatalf("delivery after %d attempts: attempt %d exhausted %v", f.MaxAttempts, l.Attempt(), l.Exhausted())
		}
		if err := l.Ack(ctx); err != nil {
			t.Fatal(err)
		}
		wantEmpty(t, f.Queue, "cpu", f.LeaseTime+f.LeaseTime/2)
	})
}

// ChargeOnce runs the crash the commit order must survive: a worker
// charges a document and dies before its Ack; the document is delivered
// again and charged again by the next worker. The account must carry
// one charge.
func ChargeOnce(t *testing.T, newQueue func(t *testing.T) QueueFixture, newLedger func(t *testing.T) store.Ledger) {
	f, led, ctx := newQueue(t), newLedger(t), ctxT(t)
	if err := f.Queue.Enqueue(ctx, "cpu", "doc-c", nil); err != nil {
		t.Fatal(err)
	}
	first := leaseWithin(t, f.Queue, "cpu", timeout)
	if ok, err := led.Charge(ctx, "acct-1", first.ID(), 7, 100); err != nil || !ok {
		t.Fatalf("first Charge = %v, %v", ok, err)
	}
	// Dies here: no Ack.
	second := leaseWithin(t, f.Queue, "cpu", timeout)
	if second.ID() != "doc-c" || second.Attempt() <= first.Attempt() {
		t.Fatalf("redelivery = %s attempt %d", second.ID(), second.Attempt())
	}
	if ok, err := led.Charge(ctx, "acct-1", second.ID(), 7, 100); err != nil || ok {
		t.Fatalf("Charge on redelivery = %v, %v; want false (charged already)", ok, err)
	}
	if err := second.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "the dead worker's Ack", first.Ack(ctx), store.ErrStaleLease)
	if used, err := led.Used(ctx, "acct-1"); err != nil || used != 7 {
		t.Fatalf("Used = %d, %v; want 7", used, err)
	}
}
