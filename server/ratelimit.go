package server

import (
	"math"
	"sync"
	"time"
)

// limiter is a token bucket per API key: each key may make rate requests
// per second on average with bursts of burst. Buckets are keyed by a hash
// of the key, never the key itself, and only for keys that authenticated,
// so random keys cannot grow the map.
type limiter struct {
	rate  float64 // tokens per second; <= 0 disables limiting
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	if burst < 1 {
		burst = 1
	}
	if now == nil {
		now = time.Now
	}
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes one token from key's bucket. When none is left it reports
// how long until one will be.
func (l *limiter) allow(key string) (bool, time.Duration) {
	if l.rate <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := (1 - b.tokens) / l.rate
	return false, time.Duration(wait * float64(time.Second))
}

// wait reports how long until key's bucket holds a token, without taking
// one: 0 when it holds one now.
func (l *limiter) wait(key string) time.Duration {
	if l.rate <= 0 {
		return 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		return 0
	}
	tokens := math.Min(l.burst, b.tokens+max(now.Sub(b.last).Seconds(), 0)*l.rate)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) / l.rate * float64(time.Second))
}

// sweep drops buckets that have refilled completely (they behave exactly
// like a new bucket), at most once a minute.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	for k, b := range l.buckets {
		if now.Sub(b.last) >= full {
			delete(l.buckets, k)
		}
	}
}

// retryAfterSeconds rounds a wait up to whole seconds, at least 1, for the
// Retry-After header.
func retryAfterSeconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}
