package natsstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/engine/store"
	natsstore "github.com/redactd/redactd/engine/store/nats"
	"github.com/redactd/redactd/internal/testkit/natskit"
)

// faultDoc is the document record the fault test's workers move through
// the commit order a job service follows.
type faultDoc struct {
	Status  string `json:"status"`
	Attempt int    `json:"attempt"`
}

// faultRun is the shared bookkeeping of one fault test.
type faultRun struct {
	mu        sync.Mutex
	redacted  map[string]int       // successful CAS to redacted, per doc
	charged   map[string]int       // Charge calls that made the charge, per doc
	died      map[string]time.Time // when a worker abandoned the doc
	redeliver []time.Duration      // abandonment → next lease of the doc
	kills     int
}

// TestFaults runs the commit order (lease, CAS to analyzing with the
// attempt, charge, CAS to redacted, ack) with three nodes of two workers
// on a 3-server R3 cluster while workers die at a failpoint after the
// charge and before the ack, and the work stream's leader is stopped
// mid-run. Every document must end redacted exactly once, charged once,
// with the stream empty and at least one redelivery.
func TestFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("3-server cluster with faults: not in -short")
	}
	const docs, pages = 60, 2
	c := natskit.Start(t, 3)
	o := natsstore.Options{Prefix: "fault", Replicas: 3, LeaseTime: time.Second, MaxAttempts: 10}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	var nodes []*natsstore.Store
	for range 3 {
		st, err := natsstore.Open(ctx, c.Connect(), o)
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, st)
	}
	for i := range docs {
		id := fmt.Sprintf("d%03d", i)
		v, _ := json.Marshal(faultDoc{Status: "uploaded"})
		if _, err := nodes[i%3].Docs.Create(ctx, "doc."+id, v); err != nil {
			t.Fatal(err)
		}
		if err := nodes[i%3].Queue.Enqueue(ctx, "cpu", id, nil); err != nil {
			t.Fatal(err)
		}
	}
	run := &faultRun{redacted: map[string]int{}, charged: map[string]int{}, died: map[string]time.Time{}}
	work, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for n, st := range nodes {
		for w := range 2 {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(w)))
			wg.Go(func() { run.worker(work, st, rng) })
		}
	}

	// Stop the work stream's leader once a third is done; bring it back
	// once two thirds are.
	js, _ := jetstream.New(c.Connect())
	stopped, phase := -1, 0 // phase 0: all up, 1: leader stopped, 2: back
	deadline := time.Now().Add(3 * time.Minute)
	for run.done() < docs {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d documents redacted after 3 minutes", run.done(), docs)
		}
		switch {
		case phase == 0 && run.done() >= docs/3:
			stopped = c.Index(streamLeader(ctx, t, js, "fault-work"))
			t.Logf("stopping the work stream's leader, server %d, at %d done", stopped+1, run.done())
			c.Stop(stopped)
			phase = 1
		case phase == 1 && run.done() >= 2*docs/3:
			c.Restart(stopped)
			t.Logf("server %d restarted at %d done", stopped+1, run.done())
			phase = 2
		}
		time.Sleep(50 * time.Millisecond)
	}
	// An ack lost in the leader's stop leaves a redacted document's
	// message in the stream; its redelivery, after the lease time, is
	// acked on sight. So the workers keep running until the stream is
	// empty: a message still there after many lease times is stuck.
	var left uint64
	for range 150 {
		var err error
		if left, err = nodes[1].Queue.Pending(ctx); err == nil && left == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	wg.Wait()

	// Every document was redacted once, after a successful Charge; no
	// Charge reported making a second charge; and the account holds
	// exactly one charge per document. (A charge whose first call lost
	// its answer in the leader's stop is finished by the next attempt,
	// which reports it as found, so "first" may be seen 0 times.)
	for i := range docs {
		id := fmt.Sprintf("d%03d", i)
		if run.redacted[id] != 1 || run.charged[id] > 1 {
			t.Errorf("%s: redacted %d times, charged first %d times; want 1 and at most 1", id, run.redacted[id], run.charged[id])
		}
	}
	if used, err := nodes[0].Ledger.Used(ctx, "acct"); err != nil || used != docs*pages {
		t.Errorf("Used = %d, %v; want %d", used, err, docs*pages)
	}
	if left != 0 {
		t.Errorf("%d messages left in the work stream 15 s after the last document was redacted", left)
	}
	if run.kills == 0 || len(run.redeliver) == 0 {
		t.Fatalf("%d kills, %d redeliveries; the test exercised nothing", run.kills, len(run.redeliver))
	}
	recreated := 0
	for _, st := range nodes {
		recreated += st.Queue.Recreations()
	}
	t.Logf("consumers re-created by the watchdog: %d", recreated)
	slices.Sort(run.redeliver)
	p := func(q float64) time.Duration { return run.redeliver[int(q*float64(len(run.redeliver)-1))] }
	t.Logf("%d worker kills; redelivery after a kill (lease time %v): p50 %v, p99 %v, max %v (n=%d)",
		run.kills, o.LeaseTime, p(0.5).Round(time.Millisecond), p(0.99).Round(time.Millisecond),
		run.redeliver[len(run.redeliver)-1].Round(time.Millisecond), len(run.redeliver))
}

func (r *faultRun) done() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.redacted)
}

// streamLeader names the server leading stream.
func streamLeader(ctx context.Context, t *testing.T, js jetstream.JetStream, stream string) string {
	ctx, cancel := op(ctx)
	defer cancel()
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil || info.Cluster == nil {
		t.Fatalf("stream info: %v", err)
	}
	return info.Cluster.Leader
}

// op bounds one store call: during a leader election a request may go
// unanswered, and a worker that waits too long only delays redelivery.
func op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 3*time.Second)
}

// worker leases and processes documents until ctx ends. With
// probability 1/5 on a first attempt it dies at the failpoint after the
// charge and before the CAS to redacted and the ack: it abandons the
// lease, as kill -9 would.
func (r *faultRun) worker(ctx context.Context, st *natsstore.Store, rng *rand.Rand) {
	for ctx.Err() == nil {
		lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		l, err := st.Queue.Lease(lctx, "cpu")
		cancel()
		if err != nil {
			continue
		}
		r.mu.Lock()
		if at, ok := r.died[l.ID()]; ok {
			r.redeliver = append(r.redeliver, time.Since(at))
			delete(r.died, l.ID())
		}
		r.mu.Unlock()
		if err := r.process(ctx, st, l, rng); err != nil && !errors.Is(err, errKilled) {
			// Could not commit (election, conflict): leave the item to
			// its lease, like a crash.
			continue
		}
	}
}

var errKilled = errors.New("killed at the failpoint")

func (r *faultRun) process(ctx context.Context, st *natsstore.Store, l store.Lease, rng *rand.Rand) error {
	key := "doc." + l.ID()
	c, cancel := op(ctx)
	defer cancel()
	rec, err := st.Docs.Get(c, key)
	if err != nil {
		return err
	}
	var d faultDoc
	json.Unmarshal(rec.Value, &d)
	if d.Status == "redacted" || l.Exhausted() {
		// Done by an earlier attempt that died before its ack.
		return l.Ack(c)
	}
	d.Status, d.Attempt = "analyzing", l.Attempt()
	v, _ := json.Marshal(d)
	rev, err := st.Docs.Update(c, key, v, rec.Revision)
	if err != nil {
		return err
	}
	time.Sleep(20 * time.Millisecond) // the work
	first, err := st.Ledger.Charge(c, "acct", l.ID(), 2, 0)
	if err != nil {
		return err
	}
	if first {
		r.mu.Lock()
		r.charged[l.ID()]++
		r.mu.Unlock()
	}
	if l.Attempt() == 1 && rng.IntN(5) == 0 {
		r.mu.Lock()
		r.kills++
		r.died[l.ID()] = time.Now()
		r.mu.Unlock()
		return errKilled
	}
	d.Status = "redacted"
	v, _ = json.Marshal(d)
	if _, err := st.Docs.Update(c, key, v, rev); err != nil {
		return err // a later attempt moved the document: this one is stale
	}
	r.mu.Lock()
	r.redacted[l.ID()]++
	r.mu.Unlock()
	return l.Ack(c)
}
