package joblog

import (
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/cockroachdb/pebble"

	"github.com/redactd/redactd/engine/store/record"
)

// pReview holds review links and editor sessions:
//
//	review/<kind>/<hex sha256 of token>    ReviewGrant
//
// A record's revision (ReviewGrant.Rev) is a hash of its stored bytes,
// and Update and Delete compare it under reviewMu: one node, one
// process, so the mutex makes a read, compare and write one step, and a
// link is spent once however many requests redeem it at the same time.
const pReview = "review/"

var _ record.ReviewStore = (*Log)(nil)

func reviewKey(kind string, hash []byte) []byte {
	return []byte(pReview + kind + "/" + hex.EncodeToString(hash))
}

// reviewRev is a stored grant's revision: never 0, and a rewrite changes
// it (Seen or the times differ).
func reviewRev(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64() | 1
}

// ReviewGrant reads a link or session.
func (l *Log) ReviewGrant(kind string, hash []byte) (*record.ReviewGrant, error) {
	var g record.ReviewGrant
	err := l.read(func() error {
		b, err := l.getRaw(reviewKey(kind, hash))
		if err != nil {
			return err
		}
		if err := decode(b, &g); err != nil {
			return err
		}
		g.Rev = reviewRev(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// CreateReviewGrant stores a new grant, synced: a link is handed to the
// caller's system once this returns.
func (l *Log) CreateReviewGrant(kind string, hash []byte, g *record.ReviewGrant) error {
	return l.writeReview(kind, hash, g, func(cur []byte, found bool) error {
		if found {
			return &record.ConflictError{Key: "review grant"}
		}
		return nil
	})
}

// UpdateReviewGrant rewrites g if it is still as read.
func (l *Log) UpdateReviewGrant(kind string, hash []byte, g *record.ReviewGrant) error {
	return l.writeReview(kind, hash, g, casCheck(g))
}

// DeleteReviewGrant deletes g if it is still as read.
func (l *Log) DeleteReviewGrant(kind string, hash []byte, g *record.ReviewGrant) error {
	return l.writeReview(kind, hash, nil, casCheck(g))
}

func casCheck(g *record.ReviewGrant) func([]byte, bool) error {
	return func(cur []byte, found bool) error {
		if !found {
			return ErrNotFound
		}
		if reviewRev(cur) != g.Rev {
			return &record.ConflictError{Key: "review grant"}
		}
		return nil
	}
}

// writeReview checks the stored record with check and then writes g (nil:
// deletes), all under reviewMu.
func (l *Log) writeReview(kind string, hash []byte, g *record.ReviewGrant, check func(cur []byte, found bool) error) error {
	return l.read(func() error {
		l.reviewMu.Lock()
		defer l.reviewMu.Unlock()
		k := reviewKey(kind, hash)
		cur, err := l.getRaw(k)
		found := err == nil
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err := check(cur, found); err != nil {
			return err
		}
		if g == nil {
			err = l.db.Delete(k, pebble.Sync)
		} else {
			g.V = recordVersion
			b := encode(g)
			if err = l.db.Set(k, b, pebble.Sync); err == nil {
				g.Rev = reviewRev(b)
			}
		}
		if err != nil {
			return fmt.Errorf("joblog: review grant: %w", err)
		}
		return nil
	})
}

// ReviewGrants calls fn for every link and session.
func (l *Log) ReviewGrants(fn func(kind string, hash []byte, g *record.ReviewGrant) bool) error {
	type item struct {
		kind string
		hash []byte
		g    *record.ReviewGrant
	}
	var all []item
	err := l.scanPrefix(pReview, func(k, v []byte) (bool, error) {
		kind, hx, ok := strings.Cut(strings.TrimPrefix(string(k), pReview), "/")
		h, err := hex.DecodeString(hx)
		if !ok || err != nil {
			return true, nil // not a grant's key: skip
		}
		var g record.ReviewGrant
		if err := decode(v, &g); err != nil {
			return false, err
		}
		g.Rev = reviewRev(v)
		all = append(all, item{kind, h, &g})
		return true, nil
	})
	if err != nil {
		return err
	}
	// fn runs outside the scan: it may update or delete what it is given.
	for _, it := range all {
		if !fn(it.kind, it.hash, it.g) {
			break
		}
	}
	return nil
}
