package storetest

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/redactd/redactd/engine/store"
)

// Ledger runs the contract of store.Ledger: one charge and one refund per
// document, quota limits that leave nothing charged, accounts apart.
func Ledger(t *testing.T, newLedger func(t *testing.T) store.Ledger) {
	t.Run("ChargeOnce", func(t *testing.T) {
		l, ctx := newLedger(t), ctxT(t)
		if used, err := l.Used(ctx, "acct-a"); err != nil || used != 0 {
			t.Fatalf("Used of a new account = %d, %v", used, err)
		}
		if first, err := l.Charge(ctx, "acct-a", "doc-1", 5, 0); err != nil || !first {
			t.Fatalf("Charge = %v, %v", first, err)
		}
		// Again, even with another page count: the first one stands.
		if first, err := l.Charge(ctx, "acct-a", "doc-1", 9, 0); err != nil || first {
			t.Fatalf("second Charge = %v, %v; want false", first, err)
		}
		if first, err := l.Charge(ctx, "acct-a", "doc-2", 3, 0); err != nil || !first {
			t.Fatalf("Charge doc-2 = %v, %v", first, err)
		}
		if first, err := l.Charge(ctx, "acct-b", "doc-3", 4, 0); err != nil || !first {
			t.Fatalf("Charge acct-b = %v, %v", first, err)
		}
		wantUsed(t, l, "acct-a", 8)
		wantUsed(t, l, "acct-b", 4)
		if pages, ok, err := l.Charged(ctx, "acct-a", "doc-1"); err != nil || !ok || pages != 5 {
			t.Fatalf("Charged doc-1 = %d, %v, %v; want 5, true", pages, ok, err)
		}
		if _, ok, err := l.Charged(ctx, "acct-a", "doc-3"); err != nil || ok {
			t.Fatalf("Charged of another account's document = %v, %v; want false", ok, err)
		}
	})
	t.Run("RefundOnce", func(t *testing.T) {
		l, ctx := newLedger(t), ctxT(t)
		if ok, err := l.Refund(ctx, "acct-a", "doc-none"); err != nil || ok {
			t.Fatalf("Refund without a charge = %v, %v", ok, err)
		}
		if _, err := l.Charge(ctx, "acct-a", "doc-1", 5, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Charge(ctx, "acct-a", "doc-2", 2, 0); err != nil {
			t.Fatal(err)
		}
		if ok, err := l.Refund(ctx, "acct-a", "doc-1"); err != nil || !ok {
			t.Fatalf("Refund = %v, %v", ok, err)
		}
		if ok, err := l.Refund(ctx, "acct-a", "doc-1"); err != nil || ok {
			t.Fatalf("second Refund = %v, %v; want false", ok, err)
		}
		wantUsed(t, l, "acct-a", 2)
		if _, ok, err := l.Charged(ctx, "acct-a", "doc-1"); err != nil || ok {
			t.Fatalf("Charged after Refund = %v, %v; want false", ok, err)
		}
		// A refunded document is not charged again.
		if first, err := l.Charge(ctx, "acct-a", "doc-1", 5, 0); err != nil || first {
			t.Fatalf("Charge after Refund = %v, %v; want false", first, err)
		}
		wantUsed(t, l, "acct-a", 2)
	})
	t.Run("Limit", func(t *testing.T) {
		l, ctx := newLedger(t), ctxT(t)
		if _, err := l.Charge(ctx, "acct-a", "doc-1", 8, 10); err != nil {
			t.Fatal(err)
		}
		_, err := l.Charge(ctx, "acct-a", "doc-2", 3, 10)
		wantErr(t, "Charge past the limit", err, store.ErrQuota)
		wantUsed(t, l, "acct-a", 8)
		// Refused means not charged: with room it is charged, once.
		if first, err := l.Charge(ctx, "acct-a", "doc-2", 3, 11); err != nil || !first {
			t.Fatalf("Charge within a raised limit = %v, %v", first, err)
		}
		if first, err := l.Charge(ctx, "acct-a", "doc-3", 0, 11); err != nil || !first {
			t.Fatalf("Charge of 0 pages at the limit = %v, %v", first, err)
		}
		wantUsed(t, l, "acct-a", 11)
	})
	t.Run("ConcurrentCharges", func(t *testing.T) {
		l, ctx := newLedger(t), ctxT(t)
		var firsts atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, 12)
		for i := range 12 {
			doc := "doc-same"
			if i%3 == 0 {
				doc = "doc-" + string(rune('a'+i))
			}
			wg.Go(func() {
				first, err := l.Charge(ctx, "acct-c", doc, 2, 0)
				if err != nil {
					errs <- err
				}
				if first && doc == "doc-same" {
					firsts.Add(1)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if firsts.Load() != 1 {
			t.Fatalf("doc-same charged first %d times", firsts.Load())
		}
		wantUsed(t, l, "acct-c", 2+4*2)
	})
}

func wantUsed(t *testing.T, l store.Ledger, account string, want int64) {
	t.Helper()
	used, err := l.Used(ctxT(t), account)
	if err != nil || used != want {
		t.Fatalf("Used(%s) = %d, %v; want %d", account, used, err, want)
	}
}
