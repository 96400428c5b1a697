package jobs

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store/record"
)

// grants lists the stored review grants of kind.
func (v *env) grants(kind string) []*record.ReviewGrant {
	v.t.Helper()
	var out []*record.ReviewGrant
	err := v.e.jl.(record.ReviewStore).ReviewGrants(func(k string, _ []byte, g *record.ReviewGrant) bool {
		if k == kind {
			out = append(out, g)
		}
		return true
	})
	if err != nil {
		v.t.Fatal(err)
	}
	return out
}

// TestReviewAccess: a link works once and not after it expires; a
// session ends after the idle time without use and after the absolute
// time however busy, stores its last use only now and then, ends at sign
// out; tokens are kept only as hashes; the janitor deletes what ended.
func TestReviewAccess(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("ra@example.com", PlanStandard, 0)
	const idle, maxAge = 10 * time.Minute, time.Hour
	tok, exp, err := v.e.rev.CreateReviewLink(bg, a, "job-1", "reviewer", "reviewer:Ann", 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !exp.Equal(v.clock.Now().Add(5 * time.Minute)) {
		t.Fatalf("expires %v", exp)
	}
	keys, _ := v.e.jl.AllKeys()
	for _, k := range keys {
		if strings.Contains(k, tok) {
			t.Fatal("the link token is stored in the clear")
		}
	}
	if ls := v.grants(record.ReviewLink); len(ls) != 1 || ls[0].KeyID != a.KeyID || ls[0].KeyID == "" {
		t.Fatalf("stored links %+v; want one, with the key id %q", ls, a.KeyID)
	}
	sess, g, err := v.e.rev.RedeemReviewLink(bg, tok, idle, maxAge)
	if err != nil || g.JobID != "job-1" || g.Account.ID != a.ID || g.Role != "reviewer" || g.Actor != "reviewer:Ann" {
		t.Fatalf("redeem: %v %+v", err, g)
	}
	if _, _, err := v.e.rev.RedeemReviewLink(bg, tok, idle, maxAge); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a link worked twice: %v", err)
	}
	late, _, _ := v.e.rev.CreateReviewLink(bg, a, "job-1", "viewer", "viewer", 5*time.Minute)
	v.clock.Advance(5 * time.Minute)
	if _, _, err := v.e.rev.RedeemReviewLink(bg, late, idle, maxAge); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an expired link worked: %v", err)
	}
	if _, _, err := v.e.rev.RedeemReviewLink(bg, "nonsense", idle, maxAge); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown link: %v", err)
	}

	use := func(what string, want bool) {
		t.Helper()
		g, err := v.e.rev.ReviewSession(bg, sess)
		if want && (err != nil || g.JobID != "job-1" || g.Account.KeyID != a.KeyID) {
			t.Fatalf("%s: %v %+v", what, err, g)
		}
		if !want && !errors.Is(err, ErrUnauthorized) {
			t.Fatalf("%s: session still works (%v)", what, err)
		}
	}
	use("after 5 idle minutes", true)
	// A use within touchEvery of the stored one writes nothing.
	seen := v.grants(record.ReviewSession)[0].Seen
	v.clock.Advance(30 * time.Second)
	use("30 s later", true)
	if s := v.grants(record.ReviewSession)[0]; !s.Seen.Equal(seen) {
		t.Fatalf("a use 30 s after the last stored one wrote Seen %v (was %v)", s.Seen, seen)
	}
	// Busy in 9-minute steps: alive; then the hour ends it.
	for i := range 5 {
		v.clock.Advance(9 * time.Minute)
		use("busy step "+string(rune('1'+i)), true)
	}
	v.clock.Advance(8*time.Minute + 30*time.Second) // 5 + 0.5 + 53.5 min after redemption: 59 min
	use("before its hour", true)
	v.clock.Advance(2 * time.Minute)
	use("past review-session-max", false)

	tok, _, _ = v.e.rev.CreateReviewLink(bg, a, "job-1", "reviewer", "reviewer", time.Minute)
	sess, _, _ = v.e.rev.RedeemReviewLink(bg, tok, idle, maxAge)
	v.clock.Advance(idle)
	use("past review-session-idle", false)
	if _, err := v.e.rev.ReviewSession(bg, ""); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("empty token: %v", err)
	}

	tok, _, _ = v.e.rev.CreateReviewLink(bg, a, "job-1", "reviewer", "reviewer", time.Minute)
	sess, _, _ = v.e.rev.RedeemReviewLink(bg, tok, idle, maxAge)
	use("a new session", true)
	if err := v.e.rev.EndReviewSession(bg, sess); err != nil {
		t.Fatal(err)
	}
	use("after sign out", false)
	if err := v.e.rev.EndReviewSession(bg, sess); err != nil {
		t.Fatalf("signing out twice: %v", err)
	}

	// The janitor deletes ended links and sessions, and only those.
	v.e.rev.CreateReviewLink(bg, a, "job-1", "reviewer", "reviewer", time.Minute)
	tok, _, _ = v.e.rev.CreateReviewLink(bg, a, "job-1", "reviewer", "reviewer", time.Minute)
	v.e.rev.RedeemReviewLink(bg, tok, idle, maxAge)
	live, _, _ := v.e.rev.CreateReviewLink(bg, a, "job-1", "reviewer", "reviewer", time.Hour)
	v.clock.Advance(idle)
	v.e.rev.sweepReview()
	if n, s := len(v.grants(record.ReviewLink)), len(v.grants(record.ReviewSession)); n != 1 || s != 0 {
		t.Fatalf("after the sweep: %d links, %d sessions; want the live link only", n, s)
	}
	if _, _, err := v.e.rev.RedeemReviewLink(bg, live, idle, maxAge); err != nil {
		t.Fatalf("the live link after the sweep: %v", err)
	}
}

// TestReviewRevokedKey: revoking the API key that made a link ends the
// sessions opened with it and its unredeemed links, and only those. The
// refusal comes from the check at use: a revocation written by another
// node (the key record alone, no sweep of grants) refuses as well.
func TestReviewRevokedKey(t *testing.T) {
	v := newEnv(t)
	a, key := v.account("rk@example.com", PlanStandard, 0)
	_, key2 := v.account("rk@example.com", PlanStandard, 0) // a second key of the account
	a2, err := v.e.Authenticate(bg, key2)
	if err != nil || a2.KeyID == a.KeyID {
		t.Fatalf("second key: %v, %q", err, a2.KeyID)
	}
	_ = key
	const idle, maxAge = 10 * time.Minute, time.Hour
	open := func(acct *Account) string {
		tok, _, err := v.e.rev.CreateReviewLink(bg, acct, "job-1", "reviewer", "reviewer", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		sess, _, err := v.e.rev.RedeemReviewLink(bg, tok, idle, maxAge)
		if err != nil {
			t.Fatal(err)
		}
		return sess
	}
	sess, sess2 := open(a), open(a2)
	link, _, _ := v.e.rev.CreateReviewLink(bg, a, "job-1", "reviewer", "reviewer", time.Hour)
	link2, _, _ := v.e.rev.CreateReviewLink(bg, a2, "job-1", "reviewer", "reviewer", time.Hour)

	// Revoked as another node would: the key record only.
	k, err := v.e.jl.Key(a.KeyID)
	if err != nil {
		t.Fatal(err)
	}
	k.Revoked, k.RevokedAt = true, v.clock.Now()
	b := v.e.jl.NewBatch()
	b.PutKey(k)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.rev.ReviewSession(bg, sess); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("a session of a revoked key: %v", err)
	}
	if _, _, err := v.e.rev.RedeemReviewLink(bg, link, idle, maxAge); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a link of a revoked key: %v", err)
	}
	if _, err := v.e.rev.ReviewSession(bg, sess2); err != nil {
		t.Fatalf("the other key's session: %v", err)
	}

	// RevokeKey: the same, and the key's grants are deleted.
	sess2b := open(a2)
	link2b, _, _ := v.e.rev.CreateReviewLink(bg, a2, "job-1", "reviewer", "reviewer", time.Hour)
	if err := v.e.RevokeKey(bg, a2.KeyID); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{sess2, sess2b} {
		if _, err := v.e.rev.ReviewSession(bg, s); !errors.Is(err, ErrUnauthorized) {
			t.Fatalf("a session of a key revoked by RevokeKey: %v", err)
		}
	}
	for _, l := range []string{link2, link2b} {
		if _, _, err := v.e.rev.RedeemReviewLink(bg, l, idle, maxAge); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a link of a key revoked by RevokeKey: %v", err)
		}
	}
	for _, kind := range []string{record.ReviewLink, record.ReviewSession} {
		for _, g := range v.grants(kind) {
			if g.KeyID == a2.KeyID {
				t.Fatalf("RevokeKey left a %s of the key: %+v", kind, g)
			}
		}
	}
	// A caller without a key (no KeyID) makes no links.
	if _, _, err := v.e.rev.CreateReviewLink(bg, &Account{ID: a.ID}, "job-1", "reviewer", "reviewer", time.Hour); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("a link without a key: %v", err)
	}
}

// redeemRace redeems one link from every engine at once, n times each
// round, and fails unless exactly one redemption wins every round.
func redeemRace(t *testing.T, acct *Account, engines ...*Engine) {
	t.Helper()
	const rounds, per = 10, 4
	for round := range rounds {
		tok, _, err := engines[0].rev.CreateReviewLink(bg, acct, "job-1", "reviewer", "reviewer", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		won, lost := 0, 0
		start := make(chan struct{})
		for i := range per * len(engines) {
			wg.Go(func() {
				<-start
				_, _, err := engines[i%len(engines)].rev.RedeemReviewLink(bg, tok, time.Minute, time.Hour)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
				case errors.Is(err, ErrNotFound):
					lost++
				default:
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		close(start)
		wg.Wait()
		if won != 1 {
			t.Fatalf("round %d: %d of %d concurrent redemptions of one link won, want 1", round, won, won+lost)
		}
	}
}

// TestReviewLinkRedeemedOnce: concurrent redemptions of one link: one
// wins.
func TestReviewLinkRedeemedOnce(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("once@example.com", PlanStandard, 0)
	redeemRace(t, a, v.e)
}

// TestTwoNodesReviewAccess: review links and sessions are the cluster's,
// not a node's: a link made on one node is redeemed on the other, a
// session opened on one is used on the other, one link redeemed on both
// at once opens one session, and a key revoked on one node ends its
// sessions and links on the other at once.
func TestTwoNodesReviewAccess(t *testing.T) {
	a, b := twoNodes(t)
	acct, key := a.account("tworev@example.com", PlanStandard, 0)
	acctB, err := b.e.Authenticate(bg, key)
	if err != nil {
		t.Fatal(err)
	}
	const idle, maxAge = 10 * time.Minute, time.Hour
	tok, _, err := a.e.rev.CreateReviewLink(bg, acct, "job-1", "reviewer", "reviewer:Ann", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	sess, g, err := b.e.rev.RedeemReviewLink(bg, tok, idle, maxAge)
	if err != nil || g.Account.ID != acct.ID || g.JobID != "job-1" {
		t.Fatalf("a link made on A, redeemed on B: %v %+v", err, g)
	}
	if _, _, err := a.e.rev.RedeemReviewLink(bg, tok, idle, maxAge); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the link, redeemed on B, again on A: %v", err)
	}
	// The session moves between the nodes.
	for i, n := range []*env{a, b, a} {
		if g, err := n.e.rev.ReviewSession(bg, sess); err != nil || g.Actor != "reviewer:Ann" {
			t.Fatalf("use %d of the session opened on B: %v %+v", i+1, err, g)
		}
	}
	tokA, _, _ := a.e.rev.CreateReviewLink(bg, acct, "job-1", "reviewer", "reviewer", time.Hour)
	sessA, _, err := a.e.rev.RedeemReviewLink(bg, tokA, idle, maxAge)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.e.rev.ReviewSession(bg, sessA); err != nil {
		t.Fatalf("a session opened on A, used on B: %v", err)
	}
	// Sign out on B ends it on A.
	if err := b.e.rev.EndReviewSession(bg, sessA); err != nil {
		t.Fatal(err)
	}
	if _, err := a.e.rev.ReviewSession(bg, sessA); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("signed out on B, used on A: %v", err)
	}

	redeemRace(t, acct, a.e, b.e)

	// Revoked through B: A refuses the session and the link at once.
	pending, _, _ := a.e.rev.CreateReviewLink(bg, acct, "job-1", "reviewer", "reviewer", time.Hour)
	if err := b.e.RevokeKey(bg, acctB.KeyID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.e.rev.ReviewSession(bg, sess); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("key revoked on B, session used on A: %v", err)
	}
	if _, _, err := a.e.rev.RedeemReviewLink(bg, pending, idle, maxAge); !errors.Is(err, ErrNotFound) {
		t.Fatalf("key revoked on B, link redeemed on A: %v", err)
	}
}
