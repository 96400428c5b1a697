package natsstore

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/internal/testkit/natskit"
)

// TestLedgerResumesAfterCrash leaves the ledger records as a worker that
// died after each step of a charge (and of a refund) would, then lets the
// next call finish: the account must end charged (refunded) once.
func TestLedgerResumesAfterCrash(t *testing.T) {
	c := natskit.Start(t, 1)
	js, err := jetstream.New(c.Connect())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	l, err := OpenLedger(ctx, js, Options{Prefix: "crash", Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	put := func(key string, v any) {
		t.Helper()
		var rev uint64
		e, err := l.kv.Get(ctx, key)
		if err == nil {
			rev = e.Revision()
		}
		if _, err := writeJSON(ctx, l.kv, key, v, rev); err != nil {
			t.Fatal(err)
		}
	}
	used := func(want int64) {
		t.Helper()
		if n, err := l.Used(ctx, "acct"); err != nil || n != want {
			t.Fatalf("Used = %d, %v; want %d", n, err, want)
		}
	}
	base := int64(100)
	put(accountKey("acct"), account{Used: base})

	// Died after step 1: a pending charge the account never saw.
	put(chargeKey("acct", "d1"), charge{Pages: 3, State: statePending})
	if first, err := l.Charge(ctx, "acct", "d1", 3, 0); err != nil || !first {
		t.Fatalf("resume after step 1: %v, %v", first, err)
	}
	used(base + 3)

	// Died after step 2: applied on the account, not confirmed.
	put(chargeKey("acct", "d2"), charge{Pages: 4, State: statePending})
	put(accountKey("acct"), account{Used: base + 3 + 4, Inflight: map[string]int64{"+d2": 4}})
	if first, err := l.Charge(ctx, "acct", "d2", 4, 0); err != nil || first {
		t.Fatalf("resume after step 2: %v, %v; want false (applied before)", first, err)
	}
	used(base + 7)

	// Died after step 3: confirmed, mark left; Tidy drops it.
	put(chargeKey("acct", "d3"), charge{Pages: 5, State: stateApplied})
	put(accountKey("acct"), account{Used: base + 12, Inflight: map[string]int64{"+d3": 5}})
	if n, err := l.Tidy(ctx, "acct"); err != nil || n != 1 {
		t.Fatalf("Tidy = %d, %v", n, err)
	}
	var a account
	if _, err := readJSON(ctx, l.kv, accountKey("acct"), &a); err != nil || len(a.Inflight) != 0 || a.Used != base+12 {
		t.Fatalf("after Tidy: %+v, %v", a, err)
	}

	// A refund that died after its account step.
	put(chargeKey("acct", "d3"), charge{Pages: 5, State: stateRefunding})
	put(accountKey("acct"), account{Used: base + 7, Inflight: map[string]int64{"-d3": 5}})
	if ok, err := l.Refund(ctx, "acct", "d3"); err != nil || ok {
		t.Fatalf("resume refund after its account step: %v, %v; want false", ok, err)
	}
	used(base + 7)
	// And one that died before it.
	put(chargeKey("acct", "d1"), charge{Pages: 3, State: stateRefunding})
	if ok, err := l.Refund(ctx, "acct", "d1"); err != nil || !ok {
		t.Fatalf("resume refund before its account step: %v, %v", ok, err)
	}
	used(base + 4)
	if _, err := readJSON(ctx, l.kv, accountKey("acct"), &a); err != nil || len(a.Inflight) != 0 {
		t.Fatalf("marks left: %+v, %v", a, err)
	}
}
