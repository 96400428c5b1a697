package server

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := newLimiter(2, 3, func() time.Time { return now })
	for i := 0; i < 3; i++ {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("request %d of the burst refused", i)
		}
	}
	ok, wait := l.allow("a")
	if ok {
		t.Fatal("4th request within the same instant allowed")
	}
	if wait != 500*time.Millisecond {
		t.Fatalf("wait = %v, want 500ms at 2/s", wait)
	}
	if got := retryAfterSeconds(wait); got != 1 {
		t.Fatalf("Retry-After = %d, want 1", got)
	}
	// Other keys have their own bucket.
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("key b limited by key a's traffic")
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("token not refilled after 1/rate")
	}
	if ok, _ := l.allow("a"); ok {
		t.Fatal("only one token should have refilled")
	}
	// Refill caps at burst.
	now = now.Add(time.Hour)
	for i := 0; i < 3; i++ {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("after a long pause, burst request %d refused", i)
		}
	}
	if ok, _ := l.allow("a"); ok {
		t.Fatal("bucket exceeded burst after a long pause")
	}
}

func TestLimiterSweep(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := newLimiter(10, 5, func() time.Time { return now })
	for i := 0; i < 100; i++ {
		l.allow(string(rune('a' + i)))
	}
	now = now.Add(2 * time.Minute)
	l.allow("z")
	if n := len(l.buckets); n != 1 {
		t.Fatalf("%d buckets after sweep, want 1", n)
	}
}

func TestLimiterDisabled(t *testing.T) {
	l := newLimiter(0, 1, nil)
	for i := 0; i < 1000; i++ {
		if ok, _ := l.allow("a"); !ok {
			t.Fatal("rate 0 must disable limiting")
		}
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want int
	}{{0, 1}, {time.Millisecond, 1}, {time.Second, 1}, {1001 * time.Millisecond, 2}, {10 * time.Second, 10}} {
		if got := retryAfterSeconds(tt.d); got != tt.want {
			t.Errorf("retryAfterSeconds(%v) = %d, want %d", tt.d, got, tt.want)
		}
	}
}

func TestLimiterWait(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLimiter(1, 2, func() time.Time { return now })
	if w := l.wait("a"); w != 0 {
		t.Fatalf("unknown key waits %v", w)
	}
	l.allow("a")
	l.allow("a")
	if w := l.wait("a"); w != time.Second {
		t.Fatalf("empty bucket waits %v, want 1s", w)
	}
	if w := l.wait("a"); w != time.Second {
		t.Fatalf("wait took a token: %v", w)
	}
	now = now.Add(time.Second)
	if w := l.wait("a"); w != 0 {
		t.Fatalf("refilled bucket waits %v", w)
	}
	if w := newLimiter(0, 1, nil).wait("a"); w != 0 {
		t.Fatalf("disabled limiter waits %v", w)
	}
}
