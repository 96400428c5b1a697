// Package recordtest holds the contract tests every implementation of
// engine/store/record's interfaces must pass (engine/store/joblog, engine/store/storelog).
// Only tests import it.
package recordtest

import (
	"errors"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store/record"
)

// ReviewStore checks rs against the record.ReviewStore contract: a
// grant is changed and deleted only as read (its Rev), so a stale copy
// is a conflict and a deleted one not found, and of two deletes of one
// read exactly one wins (what makes a review link single-use on any
// number of nodes); creating a taken hash is a conflict; kinds are
// apart; ReviewGrants lists what is stored. rs must hold no grants.
func ReviewStore(t *testing.T, rs record.ReviewStore) {
	t.Helper()
	h := []byte("0123456789abcdef0123456789abcdef")
	now := time.Now().UTC()
	g := &record.ReviewGrant{AccountID: "a", KeyID: "k", JobID: "j", Role: "reviewer", Actor: "reviewer",
		Created: now, Seen: now, Expires: now.Add(time.Hour), Idle: time.Minute}
	if err := rs.CreateReviewGrant(record.ReviewSession, h, g); err != nil {
		t.Fatal(err)
	}
	if err := rs.CreateReviewGrant(record.ReviewSession, h, g); !record.IsConflict(err) {
		t.Fatalf("creating a taken hash: %v", err)
	}
	a, err := rs.ReviewGrant(record.ReviewSession, h)
	if err != nil || a.KeyID != "k" || !a.Seen.Equal(now) || a.Idle != time.Minute {
		t.Fatalf("read: %v %+v", err, a)
	}
	b, _ := rs.ReviewGrant(record.ReviewSession, h)
	a.Seen = now.Add(time.Minute)
	if err := rs.UpdateReviewGrant(record.ReviewSession, h, a); err != nil {
		t.Fatal(err)
	}
	b.Seen = now.Add(2 * time.Minute)
	if err := rs.UpdateReviewGrant(record.ReviewSession, h, b); !record.IsConflict(err) {
		t.Fatalf("a stale update: %v", err)
	}
	if err := rs.DeleteReviewGrant(record.ReviewSession, h, b); !record.IsConflict(err) {
		t.Fatalf("a stale delete: %v", err)
	}
	if _, err := rs.ReviewGrant(record.ReviewLink, h); !errors.Is(err, record.ErrNotFound) {
		t.Fatalf("kinds are apart: %v", err)
	}
	n := 0
	rs.ReviewGrants(func(kind string, hash []byte, g *record.ReviewGrant) bool {
		n++
		if kind != record.ReviewSession || string(hash) != string(h) || !g.Seen.Equal(now.Add(time.Minute)) {
			t.Errorf("listed %s %x %+v", kind, hash, g)
		}
		return true
	})
	if n != 1 {
		t.Fatalf("listed %d grants", n)
	}
	c, _ := rs.ReviewGrant(record.ReviewSession, h)
	if err := rs.DeleteReviewGrant(record.ReviewSession, h, a); err != nil {
		t.Fatal(err)
	}
	if err := rs.DeleteReviewGrant(record.ReviewSession, h, c); !errors.Is(err, record.ErrNotFound) {
		t.Fatalf("a second delete of one read: %v", err)
	}
	if err := rs.UpdateReviewGrant(record.ReviewSession, h, c); !errors.Is(err, record.ErrNotFound) {
		t.Fatalf("an update of a deleted grant: %v", err)
	}
}
