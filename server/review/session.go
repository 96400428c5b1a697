package review

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"sync"
	"time"

	"github.com/redactd/redactd/engine"
)

// Links and sessions live in memory, keyed by the SHA-256 of their
// secret, so a memory dump shows no usable token. A restart ends every
// session and voids every unredeemed link (the caller's system asks for a
// new link; nothing of the review state is lost, it lives in the job's
// files).

// Roles a link carries.
const (
	RoleReviewer = "reviewer"
	RoleViewer   = "viewer"
)

// grant is what a link or a session allows: one job of one account.
type grant struct {
	acct  *engine.Account
	jobID string
	role  string
	actor string // as the audit log names the person
}

type link struct {
	grant
	expires time.Time
}

type session struct {
	grant
	created, seen time.Time
}

// store holds links and sessions.
type store struct {
	mu       sync.Mutex
	links    map[[32]byte]*link
	sessions map[[32]byte]*session
	idle     time.Duration
	maxAge   time.Duration
	now      func() time.Time
}

func newStore(idle, maxAge time.Duration, now func() time.Time) *store {
	return &store{links: map[[32]byte]*link{}, sessions: map[[32]byte]*session{}, idle: idle, maxAge: maxAge, now: now}
}

// newToken returns 32 random bytes, URL-safe, and their hash.
func newToken() (string, [32]byte) {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	return tok, sha256.Sum256([]byte(tok))
}

func hashToken(tok string) [32]byte { return sha256.Sum256([]byte(tok)) }

// addLink registers a link valid for ttl and returns its token.
func (s *store) addLink(g grant, ttl time.Duration) (string, time.Time) {
	tok, h := newToken()
	exp := s.now().Add(ttl)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	s.links[h] = &link{grant: g, expires: exp}
	return tok, exp
}

var errNoLink = errors.New("review: link unknown, used or expired")

// redeem spends a link (once) and opens a session for it, returning the
// session's token.
func (s *store) redeem(tok string) (string, grant, error) {
	h := hashToken(tok)
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.links[h]
	delete(s.links, h) // single use, also when expired
	if l == nil || !s.now().Before(l.expires) {
		return "", grant{}, errNoLink
	}
	stok, sh := newToken()
	now := s.now()
	s.sessions[sh] = &session{grant: l.grant, created: now, seen: now}
	return stok, l.grant, nil
}

// session returns the live session of tok and marks it used.
func (s *store) session(tok string) (grant, bool) {
	if tok == "" {
		return grant{}, false
	}
	h := hashToken(tok)
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[h]
	if ss == nil {
		return grant{}, false
	}
	now := s.now()
	if now.Sub(ss.seen) >= s.idle || now.Sub(ss.created) >= s.maxAge {
		delete(s.sessions, h)
		return grant{}, false
	}
	ss.seen = now
	return ss.grant, true
}

// end removes a session (sign out).
func (s *store) end(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, hashToken(tok))
}

// sweepLocked drops expired links and sessions.
func (s *store) sweepLocked() {
	now := s.now()
	for h, l := range s.links {
		if !now.Before(l.expires) {
			delete(s.links, h)
		}
	}
	for h, ss := range s.sessions {
		if now.Sub(ss.seen) >= s.idle || now.Sub(ss.created) >= s.maxAge {
			delete(s.sessions, h)
		}
	}
}
