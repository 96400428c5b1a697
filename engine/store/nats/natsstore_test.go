package natsstore_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/redactd/redactd/engine/store"
	natsstore "github.com/redactd/redactd/engine/store/nats"
	"github.com/redactd/redactd/engine/store/storetest"
	"github.com/redactd/redactd/internal/testkit/natskit"
)

// fixture is a 3-server cluster with one connection; every store it opens
// gets its own prefix, so each contract subtest starts empty.
type fixture struct {
	c  *natskit.Cluster
	js jetstream.JetStream
	n  atomic.Int32
}

func newFixture(t *testing.T) *fixture {
	c := natskit.Start(t, 3)
	js, err := jetstream.New(c.Connect())
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{c: c, js: js}
}

// opts are the test settings: R3 as in production, a one-second lease so
// expiry tests wait one second, small segments so a blob of a few
// segments is quick.
func (f *fixture) opts() natsstore.Options {
	return natsstore.Options{
		Prefix:      fmt.Sprintf("t%d", f.n.Add(1)),
		Replicas:    3,
		LeaseTime:   time.Second,
		MaxAttempts: 2,
		SegmentSize: 256 << 10,
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// opened returns what an Open* function opened, failing the test on its
// error: opened(t)(natsstore.OpenDocs(…)).
func opened[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// TestContract runs the engine contract suite against a real 3-server
// JetStream cluster (embedded nats-server, R3, sync_interval: always).
func TestContract(t *testing.T) {
	f := newFixture(t)
	queue := func(t *testing.T) storetest.QueueFixture {
		o := f.opts()
		return storetest.QueueFixture{
			Queue:       opened[*natsstore.Queue](t)(natsstore.OpenQueue(ctx(t), f.js, o)),
			LeaseTime:   o.LeaseTime,
			MaxAttempts: o.MaxAttempts,
		}
	}
	ledger := func(t *testing.T) store.Ledger {
		return opened[*natsstore.Ledger](t)(natsstore.OpenLedger(ctx(t), f.js, f.opts()))
	}
	t.Run("Docs", func(t *testing.T) {
		storetest.Docs(t, func(t *testing.T) store.Docs {
			return opened[*natsstore.Docs](t)(natsstore.OpenDocs(ctx(t), f.js, f.opts()))
		})
	})
	t.Run("Idempotency", func(t *testing.T) {
		storetest.Idempotency(t, func(t *testing.T) store.Idempotency {
			return opened[*natsstore.Idempotency](t)(natsstore.OpenIdempotency(ctx(t), f.js, f.opts()))
		})
	})
	t.Run("Queue", func(t *testing.T) { storetest.Queue(t, queue) })
	t.Run("ChargeOnce", func(t *testing.T) { storetest.ChargeOnce(t, queue, ledger) })
	t.Run("Ledger", func(t *testing.T) { storetest.Ledger(t, ledger) })
	t.Run("Blobs", func(t *testing.T) {
		storetest.Blobs(t, func(t *testing.T) storetest.BlobsFixture {
			o := f.opts()
			return storetest.BlobsFixture{Blobs: opened[*natsstore.Blobs](t)(natsstore.OpenBlobs(ctx(t), f.js, o)), SegmentSize: o.SegmentSize}
		})
	})
	t.Run("Singletons", func(t *testing.T) {
		storetest.Singletons(t, func(t *testing.T) store.Singletons {
			return opened[*natsstore.Singletons](t)(natsstore.OpenSingletons(ctx(t), f.js, f.opts()))
		})
	})
	t.Run("LargeBlob", func(t *testing.T) {
		if testing.Short() {
			t.Skip("65 MiB through an R3 cluster: not in -short")
		}
		// Production segments (64 MiB): the blob spans two of them.
		o := f.opts()
		o.SegmentSize = 0
		storetest.LargeBlob(t, storetest.BlobsFixture{
			Blobs:       opened[*natsstore.Blobs](t)(natsstore.OpenBlobs(ctx(t), f.js, o)),
			SegmentSize: natsstore.MaxSegmentSize,
			Large:       natsstore.MaxSegmentSize + 1<<20,
		})
	})
}

// TestWatchdogRecreatesConsumer deletes a pool's durable consumer while
// a worker waits for work, as an operator or a lost leader election can:
// the worker's Lease must re-create it and deliver what is enqueued next.
func TestWatchdogRecreatesConsumer(t *testing.T) {
	c := natskit.Start(t, 1)
	js, err := jetstream.New(c.Connect())
	if err != nil {
		t.Fatal(err)
	}
	q, err := natsstore.OpenQueue(ctx(t), js, natsstore.Options{Prefix: "wd", Replicas: 1, LeaseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		lctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		l, err := q.Lease(lctx, "cpu")
		if err == nil {
			if l.ID() != "doc-w" {
				err = fmt.Errorf("leased %s", l.ID())
			} else {
				err = l.Ack(lctx)
			}
		}
		got <- err
	}()
	time.Sleep(300 * time.Millisecond) // the worker is waiting on a pull
	if err := js.DeleteConsumer(ctx(t), "wd-work", "wd-cpu"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // past one pull: the consumer is gone
	if err := q.Enqueue(ctx(t), "cpu", "doc-w", nil); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("Lease across a deleted consumer: %v", err)
	}
	if q.Recreations() == 0 {
		t.Fatal("delivered without re-creating the consumer?")
	}
}

// TestContractSingleServer runs the record parts of the contract on one
// server with R1 buckets, where a lost compare-and-set is answered with
// code 10071 instead of the replicated 10164, so both paths are held to
// the same tests. The queue and blobs do not depend on that code and run
// on the cluster only.
func TestContractSingleServer(t *testing.T) {
	c := natskit.Start(t, 1)
	js, err := jetstream.New(c.Connect())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{c: c, js: js}
	opts := func() natsstore.Options {
		o := f.opts()
		o.Replicas = 1
		return o
	}
	t.Run("Docs", func(t *testing.T) {
		storetest.Docs(t, func(t *testing.T) store.Docs {
			return opened[*natsstore.Docs](t)(natsstore.OpenDocs(ctx(t), js, opts()))
		})
	})
	t.Run("Idempotency", func(t *testing.T) {
		storetest.Idempotency(t, func(t *testing.T) store.Idempotency {
			return opened[*natsstore.Idempotency](t)(natsstore.OpenIdempotency(ctx(t), js, opts()))
		})
	})
	t.Run("Ledger", func(t *testing.T) {
		storetest.Ledger(t, func(t *testing.T) store.Ledger {
			return opened[*natsstore.Ledger](t)(natsstore.OpenLedger(ctx(t), js, opts()))
		})
	})
	t.Run("Singletons", func(t *testing.T) {
		storetest.Singletons(t, func(t *testing.T) store.Singletons {
			return opened[*natsstore.Singletons](t)(natsstore.OpenSingletons(ctx(t), js, opts()))
		})
	})
}

// TestMetrics checks that the store's metrics count what they say, on a
// registry of their own.
func TestMetrics(t *testing.T) {
	c := natskit.Start(t, 1)
	reg := prometheus.NewRegistry()
	m := natsstore.NewMetrics(reg)
	st, err := natsstore.Open(ctx(t), c.Connect(), natsstore.Options{Prefix: "m", Replicas: 1, LeaseTime: time.Second, MaxAttempts: 1, Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := st.Docs.Create(ctx(t), "doc.a", []byte("1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Docs.Update(ctx(t), "doc.a", []byte("2"), rev); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Docs.Update(ctx(t), "doc.a", []byte("stale"), rev); err == nil {
		t.Fatal("stale update succeeded")
	}
	if err := st.Queue.Enqueue(ctx(t), "cpu", "doc-a", nil); err != nil {
		t.Fatal(err)
	}
	first, err := st.Queue.Lease(ctx(t), "cpu")
	if err != nil {
		t.Fatal(err)
	}
	second, err := st.Queue.Lease(ctx(t), "cpu") // after the lease time
	if err != nil {
		t.Fatal(err)
	}
	if first.Ack(ctx(t)) == nil || second.Ack(ctx(t)) != nil {
		t.Fatal("fence did not hold")
	}
	for name, c := range map[string]struct {
		got  float64
		want float64
	}{
		"conflicts{docs}": {testutil.ToFloat64(m.Conflicts.WithLabelValues("docs")), 1},
		"redeliveries":    {testutil.ToFloat64(m.Redeliveries), 1},
		"exhausted":       {testutil.ToFloat64(m.Exhausted), 1}, // MaxAttempts 1: the second delivery
		"stale leases":    {testutil.ToFloat64(m.StaleLeases), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", name, c.got, c.want)
		}
	}
	if n := testutil.CollectAndCount(m.OpDuration); n < 5 {
		t.Errorf("%d op duration series; want docs_create, docs_update, queue_enqueue, queue_register, queue_ack at least", n)
	}
	if _, err := reg.Gather(); err != nil {
		t.Fatal(err)
	}
}

// TestFailedPutDoesNotWaitForCleanup: a Put that fails returns when its
// own call has failed, not after deleting the segments it may have
// written, which happens in the background and ends with Close. While
// the server cannot answer, each of those deletions would wait its
// whole bound (30 s); a Put that waited for them kept a job creation
// past store.Retry's budget, so it answered 503 long after a leader
// election had ended (TestClusterElection). Here the only server is
// stopped under the client, so every request waits for its context.
func TestFailedPutDoesNotWaitForCleanup(t *testing.T) {
	c := natskit.Start(t, 1)
	js, err := jetstream.New(c.Connect())
	if err != nil {
		t.Fatal(err)
	}
	b := opened[*natsstore.Blobs](t)(natsstore.OpenBlobs(ctx(t), js, natsstore.Options{Prefix: "drop", Replicas: 1}))
	if _, err := b.Put(ctx(t), "job/doc.orig", strings.NewReader("before the stop")); err != nil {
		t.Fatal(err)
	}
	c.Stop(0)

	// The Put's bound; the cleanup's own (30 s) is far longer.
	const bound = 2 * time.Second
	pctx, cancel := context.WithTimeout(t.Context(), bound)
	defer cancel()
	start := time.Now()
	_, err = b.Put(pctx, "job/doc.orig", strings.NewReader("during the stop"))
	took := time.Since(start)
	if err == nil {
		t.Fatal("Put succeeded with the server stopped")
	}
	if took > bound+5*time.Second {
		t.Errorf("failed Put returned after %v; its context ended after %v: it waited for its cleanup", took.Round(time.Millisecond), bound)
	}
	start = time.Now()
	b.Close()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Close took %v; it is to abandon the deletions, not wait them out", took.Round(time.Millisecond))
	}
}
