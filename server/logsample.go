package server

import (
	"strings"
	"sync"
	"time"
)

// logSampler lets through at most one log line per second per bucket (a
// rate-limited key, a client address) and counts what it held back, so a
// polling storm answered 429 costs a line a second, not a line a request.
// The 429s themselves are all counted in redactd_rate_limited_total.
type logSampler struct {
	mu    sync.Mutex
	seen  map[string]*sampled
	swept time.Time
}

type sampled struct {
	last       time.Time
	suppressed int
}

func newLogSampler() *logSampler { return &logSampler{seen: map[string]*sampled{}} }

// allow reports whether a line for bucket may be logged now, and how many
// were held back since the last one.
func (l *logSampler) allow(bucket string, now time.Time) (ok bool, suppressed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		for k, v := range l.seen {
			if now.Sub(v.last) > time.Minute {
				delete(l.seen, k)
			}
		}
		l.swept = now
	}
	s, found := l.seen[bucket]
	if !found {
		l.seen[bucket] = &sampled{last: now}
		return true, 0
	}
	if now.Sub(s.last) < time.Second {
		s.suppressed++
		return false, 0
	}
	n := s.suppressed
	s.last, s.suppressed = now, 0
	return true, n
}

// limitKind is the redactd_rate_limited_total label of a 429's bucket.
func limitKind(bucket string) string {
	if strings.HasPrefix(bucket, "key:") {
		return "key"
	}
	return "auth_failures"
}
