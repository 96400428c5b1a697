package storelog

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/record"
)

// Review links and editor sessions are one record each:
//
//	review.<kind>.<hex sha256 of token>    ReviewGrant
//
// Update and Delete are the engine's compare-and-set at the revision
// read, so of two nodes redeeming one link exactly one deletes it.

const pReview = "review."

func reviewKey(kind string, hash []byte) string {
	return pReview + kind + "." + hex.EncodeToString(hash)
}

// casErr maps the engine's lost compare-and-set to the records' one.
func casErr(key string, err error) error {
	if errors.Is(err, store.ErrConflict) {
		return conflict(key)
	}
	return notFound(err)
}

// ReviewGrant reads a link or session.
func (l *Log) ReviewGrant(kind string, hash []byte) (*record.ReviewGrant, error) {
	var g record.ReviewGrant
	rev, err := l.get(reviewKey(kind, hash), &g)
	if err != nil {
		return nil, err
	}
	g.Rev = rev
	return &g, nil
}

// CreateReviewGrant stores a new grant.
func (l *Log) CreateReviewGrant(kind string, hash []byte, g *record.ReviewGrant) error {
	if err := l.open(); err != nil {
		return err
	}
	c, cancel := ctx()
	defer cancel()
	k := reviewKey(kind, hash)
	rev, err := l.s.Docs.Create(c, k, encodeGrant(g))
	if err != nil {
		return casErr(k, err)
	}
	g.Rev = rev
	return l.sync()
}

// UpdateReviewGrant rewrites g at the revision it was read at.
func (l *Log) UpdateReviewGrant(kind string, hash []byte, g *record.ReviewGrant) error {
	if err := l.open(); err != nil {
		return err
	}
	c, cancel := ctx()
	defer cancel()
	k := reviewKey(kind, hash)
	rev, err := l.s.Docs.Update(c, k, encodeGrant(g), g.Rev)
	if err != nil {
		return casErr(k, err)
	}
	g.Rev = rev
	return l.sync()
}

// DeleteReviewGrant deletes g at the revision it was read at.
func (l *Log) DeleteReviewGrant(kind string, hash []byte, g *record.ReviewGrant) error {
	if err := l.open(); err != nil {
		return err
	}
	c, cancel := ctx()
	defer cancel()
	k := reviewKey(kind, hash)
	if err := l.s.Docs.Delete(c, k, g.Rev); err != nil {
		return casErr(k, err)
	}
	return l.sync()
}

// ReviewGrants lists the grants' keys and reads each (a sweep's cost,
// one read per live link or session).
func (l *Log) ReviewGrants(fn func(kind string, hash []byte, g *record.ReviewGrant) bool) error {
	ks, err := l.keys(pReview)
	if err != nil {
		return err
	}
	for _, k := range ks {
		kind, hx, ok := strings.Cut(strings.TrimPrefix(k, pReview), ".")
		h, err := hex.DecodeString(hx)
		if !ok || err != nil {
			continue
		}
		g, err := l.ReviewGrant(kind, h)
		if record.IsNotFound(err) {
			continue // deleted since the listing
		}
		if err != nil {
			return err
		}
		if !fn(kind, h, g) {
			return nil
		}
	}
	return nil
}

func encodeGrant(g *record.ReviewGrant) []byte {
	g.V = 1
	b, err := json.Marshal(g)
	if err != nil {
		panic(fmt.Sprintf("storelog: encode review grant: %v", err)) // strings and times only
	}
	return b
}
