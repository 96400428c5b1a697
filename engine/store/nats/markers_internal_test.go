package natsstore

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/internal/testkit/natskit"
)

// TestDeleteMarkersExpire checks that deletes leave nothing behind for
// long: an acked item's fence and a deleted record are purged with a
// marker that expires (MarkerTTL), so the buckets do not grow by one
// message per document forever.
func TestDeleteMarkersExpire(t *testing.T) {
	c := natskit.Start(t, 1)
	js, err := jetstream.New(c.Connect())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	o := Options{Prefix: "mk", Replicas: 1, LeaseTime: time.Second, MarkerTTL: time.Second}
	d, err := OpenDocs(ctx, js, o)
	if err != nil {
		t.Fatal(err)
	}
	q, err := OpenQueue(ctx, js, o)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := d.Create(ctx, "doc.x", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Delete(ctx, "doc.x", rev); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, "cpu", "doc-x", nil); err != nil {
		t.Fatal(err)
	}
	l, err := q.Lease(ctx, "cpu")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	msgs := func(stream string) uint64 {
		s, err := js.Stream(ctx, stream)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Msgs
	}
	if n := msgs("KV_mk-docs") + msgs("KV_mk-leases"); n == 0 {
		t.Fatal("no delete markers right after the deletes; the test checks nothing")
	}
	deadline := time.Now().Add(20 * time.Second)
	for msgs("KV_mk-docs")+msgs("KV_mk-leases") != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("markers left after 20 s: docs %d, leases %d", msgs("KV_mk-docs"), msgs("KV_mk-leases"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
