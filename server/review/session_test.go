package review

import (
	"testing"
	"time"
)

// TestStore: a link works once and not after it expires; a session ends
// after the idle time without use and after the absolute time however
// busy; tokens are kept only as hashes.
func TestStore(t *testing.T) {
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	s := newStore(10*time.Minute, time.Hour, func() time.Time { return now })
	g := grant{jobID: "j", role: RoleReviewer, actor: "reviewer"}

	tok, exp := s.addLink(g, 5*time.Minute)
	if !exp.Equal(now.Add(5 * time.Minute)) {
		t.Fatalf("expires %v", exp)
	}
	for h := range s.links {
		if string(h[:]) == tok {
			t.Fatal("the link token is stored in the clear")
		}
	}
	sess, got, err := s.redeem(tok)
	if err != nil || got.jobID != "j" {
		t.Fatalf("redeem: %v %+v", err, got)
	}
	if _, _, err := s.redeem(tok); err == nil {
		t.Fatal("a link worked twice")
	}
	late, _ := s.addLink(g, 5*time.Minute)
	now = now.Add(5 * time.Minute)
	if _, _, err := s.redeem(late); err == nil {
		t.Fatal("an expired link worked")
	}

	if _, ok := s.session(sess); !ok {
		t.Fatal("session ended after 5 idle minutes")
	}
	// Busy in 9-minute steps: alive; then the hour ends it.
	for i := 0; i < 5; i++ {
		now = now.Add(9 * time.Minute)
		if _, ok := s.session(sess); !ok {
			t.Fatalf("session ended after %d busy steps", i+1)
		}
	}
	now = now.Add(9 * time.Minute) // 5 + 54 min after redemption: 59 min
	if _, ok := s.session(sess); !ok {
		t.Fatal("session ended before its hour")
	}
	now = now.Add(2 * time.Minute)
	if _, ok := s.session(sess); ok {
		t.Fatal("session outlived review-session-max")
	}

	tok, _ = s.addLink(g, time.Minute)
	sess, _, _ = s.redeem(tok)
	now = now.Add(10 * time.Minute)
	if _, ok := s.session(sess); ok {
		t.Fatal("session outlived review-session-idle")
	}
	if _, ok := s.session(""); ok {
		t.Fatal("empty token accepted")
	}
}
