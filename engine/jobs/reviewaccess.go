package jobs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"time"

	"github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/engine/store/record"
)

// Review links and editor sessions (server/review) are records of the
// record store (record.ReviewStore), not memory of the node that made
// them: on a cluster any node redeems a link and serves a session, and a
// session moves between nodes with the load balancer. Tokens are 32
// random bytes; only their SHA-256 is stored.
//
// Every redemption and every session use reads the API key that made
// the link: a revoked (or vanished) key, or a vanished account, ends the
// link or session at once, on every node. RevokeKey also deletes the
// key's links and sessions, but that sweep is a courtesy; the check at
// use is the guarantee.
//
// A session's last use (Seen) is stored only when the stored one is
// older than touchEvery, so a busy editor does not write a record per
// request (a page of previews is dozens). The idle bound is therefore
// approximate by that much: a session ends between Idle-touchEvery and
// Idle after its last request.
//
// Ended links and sessions are deleted when met (a redemption or use
// finds them ended) and by the janitor's pass (sweepReview), on one node
// at a time.

// ReviewAccess is the link and session side of the review editor.
type ReviewAccess interface {
	// CreateReviewLink stores a single-use link to jobID for acct, made
	// with acct.KeyID, valid for ttl; it returns the link's token.
	CreateReviewLink(ctx context.Context, acct *Account, jobID, role, actor string, ttl time.Duration) (token string, expires time.Time, err error)
	// RedeemReviewLink spends a link (exactly once, whatever the nodes
	// and races) and opens a session ending after idle without use or
	// maxAge after now. ErrNotFound: unknown, used, expired or revoked.
	RedeemReviewLink(ctx context.Context, token string, idle, maxAge time.Duration) (session string, g *ReviewGrant, err error)
	// ReviewSession returns a live session's grant and marks it used.
	// ErrUnauthorized: unknown, ended, or its key revoked.
	ReviewSession(ctx context.Context, token string) (*ReviewGrant, error)
	// EndReviewSession deletes a session (sign out); an unknown one is
	// not an error.
	EndReviewSession(ctx context.Context, token string) error
}

var _ ReviewAccess = (*Reviews)(nil)

// ReviewGrant is what a link or session allows: one job of one account,
// with a role, under the name the audit log gives the person.
type ReviewGrant struct {
	Account *Account
	JobID   string
	Role    string
	Actor   string
}

// touchEvery is how stale a session's stored Seen may get before a use
// rewrites it: a minute, or a tenth of the idle bound if that is less.
func touchEvery(idle time.Duration) time.Duration { return min(time.Minute, idle/10) }

// newReviewToken returns 32 random bytes, URL-safe, and their hash.
func newReviewToken() (string, []byte) {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	return tok, hashReviewToken(tok)
}

func hashReviewToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// reviews is the store's review side; a store without one cannot serve
// the editor.
func (rv *Reviews) reviews() (record.ReviewStore, error) {
	rs, ok := rv.jl.(record.ReviewStore)
	if !ok {
		return nil, errorf(ErrUnavailable, "", "the record store keeps no review sessions")
	}
	return rs, nil
}

// CreateReviewLink implements ReviewAccess.
func (rv *Reviews) CreateReviewLink(ctx context.Context, acct *Account, jobID, role, actor string, ttl time.Duration) (string, time.Time, error) {
	if acct == nil || acct.KeyID == "" {
		return "", time.Time{}, ErrUnauthorized // only a key's caller makes links
	}
	rs, err := rv.reviews()
	if err != nil {
		return "", time.Time{}, err
	}
	now := rv.now()
	g := &record.ReviewGrant{AccountID: acct.ID, KeyID: acct.KeyID, JobID: jobID, Role: role, Actor: actor,
		Created: now, Expires: now.Add(ttl)}
	tok, h := newReviewToken()
	if err := rs.CreateReviewGrant(record.ReviewLink, h, g); err != nil {
		return "", time.Time{}, rv.logErr("create review link", err)
	}
	return tok, g.Expires, nil
}

// RedeemReviewLink implements ReviewAccess. The link is deleted at the
// revision read before anything else: that compare-and-set is what only
// one redemption wins. A crash after it leaves a spent link and no
// session; the reviewer asks for a new link, as for an expired one.
func (rv *Reviews) RedeemReviewLink(ctx context.Context, token string, idle, maxAge time.Duration) (string, *ReviewGrant, error) {
	rs, err := rv.reviews()
	if err != nil {
		return "", nil, err
	}
	h := hashReviewToken(token)
	l, err := rs.ReviewGrant(record.ReviewLink, h)
	if record.IsNotFound(err) {
		return "", nil, ErrNotFound
	}
	if err != nil {
		return "", nil, rv.logErr("redeem review link", err)
	}
	switch err := rs.DeleteReviewGrant(record.ReviewLink, h, l); {
	case record.IsNotFound(err), record.IsConflict(err):
		return "", nil, ErrNotFound // another redemption won
	case err != nil:
		return "", nil, rv.logErr("redeem review link", err)
	}
	now := rv.now()
	if l.Ended(now) {
		return "", nil, ErrNotFound
	}
	g, err := rv.reviewGrant(l)
	if err != nil {
		if err == ErrUnauthorized {
			err = ErrNotFound
		}
		return "", nil, err
	}
	s := &record.ReviewGrant{AccountID: l.AccountID, KeyID: l.KeyID, JobID: l.JobID, Role: l.Role, Actor: l.Actor,
		Created: now, Seen: now, Expires: now.Add(maxAge), Idle: idle}
	tok, sh := newReviewToken()
	if err := rs.CreateReviewGrant(record.ReviewSession, sh, s); err != nil {
		return "", nil, rv.logErr("open review session", err)
	}
	return tok, g, nil
}

// reviewGrant checks that the key that made r still works (not revoked,
// its account still there) and returns what r allows. ErrUnauthorized
// otherwise.
func (rv *Reviews) reviewGrant(r *record.ReviewGrant) (*ReviewGrant, error) {
	k, err := rv.jl.Key(r.KeyID)
	if record.IsNotFound(err) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, rv.logErr("review: read key", err)
	}
	if k.Revoked || k.AccountID != r.AccountID {
		return nil, ErrUnauthorized
	}
	a, err := rv.jl.Account(r.AccountID)
	if record.IsNotFound(err) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, rv.logErr("review: read account", err)
	}
	acct := toAccount(a)
	acct.KeyID = k.ID
	return &ReviewGrant{Account: acct, JobID: r.JobID, Role: r.Role, Actor: r.Actor}, nil
}

// ReviewSession implements ReviewAccess.
func (rv *Reviews) ReviewSession(ctx context.Context, token string) (*ReviewGrant, error) {
	if token == "" {
		return nil, ErrUnauthorized
	}
	rs, err := rv.reviews()
	if err != nil {
		return nil, err
	}
	h := hashReviewToken(token)
	s, err := rs.ReviewGrant(record.ReviewSession, h)
	if record.IsNotFound(err) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, rv.logErr("review session", err)
	}
	now := rv.now()
	if s.Ended(now) {
		rv.dropGrant(rs, record.ReviewSession, h, s)
		return nil, ErrUnauthorized
	}
	g, err := rv.reviewGrant(s)
	if err == ErrUnauthorized {
		rv.dropGrant(rs, record.ReviewSession, h, s)
	}
	if err != nil {
		return nil, err
	}
	if now.Sub(s.Seen) >= touchEvery(s.Idle) {
		s.Seen = now
		switch err := rs.UpdateReviewGrant(record.ReviewSession, h, s); {
		case record.IsConflict(err):
			// Another request (on any node) stored a newer Seen.
		case record.IsNotFound(err):
			return nil, ErrUnauthorized // signed out or revoked meanwhile
		case err != nil:
			return nil, rv.logErr("review session", err)
		}
	}
	return g, nil
}

// EndReviewSession implements ReviewAccess.
func (rv *Reviews) EndReviewSession(ctx context.Context, token string) error {
	rs, err := rv.reviews()
	if err != nil {
		return err
	}
	h := hashReviewToken(token)
	for range 3 { // a conflict is a concurrent touch: read again
		s, err := rs.ReviewGrant(record.ReviewSession, h)
		if record.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return rv.logErr("end review session", err)
		}
		err = rs.DeleteReviewGrant(record.ReviewSession, h, s)
		if err == nil || record.IsNotFound(err) {
			return nil
		}
		if !record.IsConflict(err) {
			return rv.logErr("end review session", err)
		}
	}
	return errorf(ErrConflict, "", "the session changed meanwhile; sign out again")
}

// dropGrant deletes a grant found ended; losing a race to another
// request or the janitor is fine, and a failure is only logged (the
// janitor retries).
func (rv *Reviews) dropGrant(rs record.ReviewStore, kind string, h []byte, g *record.ReviewGrant) {
	err := rs.DeleteReviewGrant(kind, h, g)
	if err != nil && !record.IsNotFound(err) && !record.IsConflict(err) {
		rv.log.Warn("engine: deleting an ended review grant", "kind", kind, "err", err)
	}
}

// dropReviewGrants deletes the grants drop selects, returning how many
// it deleted.
func (rv *Reviews) dropReviewGrants(drop func(*record.ReviewGrant) bool) (int, error) {
	rs, err := rv.reviews()
	if err != nil {
		return 0, nil // nothing is kept
	}
	n := 0
	err = rs.ReviewGrants(func(kind string, h []byte, g *record.ReviewGrant) bool {
		if drop(g) {
			if err := rs.DeleteReviewGrant(kind, h, g); err == nil {
				n++
			} else if !record.IsNotFound(err) && !record.IsConflict(err) {
				rv.log.Warn("engine: deleting a review grant", "kind", kind, "err", err)
			}
		}
		return rv.base == nil || rv.base.Err() == nil
	})
	return n, err
}

// sweepReview deletes ended links and sessions (the janitor's pass).
func (rv *Reviews) sweepReview() {
	now := rv.now()
	n, err := rv.dropReviewGrants(func(g *record.ReviewGrant) bool { return g.Ended(now) })
	if err != nil {
		rv.log.Error("engine: janitor: sweeping review sessions", "err", err)
	}
	if n > 0 {
		rv.log.Info("engine: removed ended review links and sessions", "grants", n)
	}
}

// VerifyAudit checks a document's audit log (as ReviewAudit returns it)
// against this installation's audit key: review.VerifyChain.
func (rv *Reviews) VerifyAudit(entries []review.Entry) error {
	return review.VerifyChain(entries, rv.auditKey)
}
