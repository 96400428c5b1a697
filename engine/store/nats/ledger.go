package natsstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/engine/store"
)

// Ledger is store.Ledger on the KV bucket PREFIX-ledger, which holds two
// kinds of record:
//
//	c.<account>.<doc>   charge: pages and state (pending, applied, refunding, refunded)
//	a.<account>         account: used pages, and the charges in flight
//
// JetStream has no transaction over two keys, so a charge is a small
// state machine in which every step is a compare-and-set and the account
// record remembers the charges it has applied but not yet seen confirmed
// (Inflight, "+doc" for a charge, "-doc" for a refund). A worker that dies
// between any two steps leaves records from which the next call, on any
// node, finishes the charge without applying it twice:
//
//  1. create c (pending)            a charge exists; the account is untouched
//  2. CAS a: used += pages, +doc    applied exactly once: +doc says so
//  3. CAS c: applied                the charge is confirmed
//  4. CAS a: drop +doc              tidy; a charge that is applied needs no mark
//
// A pending charge whose +doc is on the account was applied (step 2 ran),
// one without it was not, because +doc goes only after step 3. A refund
// runs the same four steps with "refunding", "-doc" and "refunded".
type Ledger struct {
	kv *bucket
	m  *Metrics
}

var _ store.Ledger = (*Ledger)(nil)

// OpenLedger creates or binds the ledger bucket.
func OpenLedger(ctx context.Context, js jetstream.JetStream, o Options) (*Ledger, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	kv, err := kvBucket(ctx, js, o, "ledger")
	if err != nil {
		return nil, err
	}
	return &Ledger{kv: kv, m: o.Metrics}, nil
}

const (
	statePending   = "pending"
	stateApplied   = "applied"
	stateRefunding = "refunding"
	stateRefunded  = "refunded"
)

type charge struct {
	Pages int64  `json:"pages"`
	State string `json:"state"`
}

type account struct {
	Used     int64            `json:"used"`
	Inflight map[string]int64 `json:"inflight,omitempty"`
}

func chargeKey(acct, doc string) string { return "c." + acct + "." + doc }
func accountKey(acct string) string     { return "a." + acct }

func checkIDs(ids ...string) error {
	for _, id := range ids {
		if err := store.CheckDocKey(id); err != nil {
			return err
		}
	}
	return nil
}

// readJSON reads key into v; a missing key leaves v as it is, revision 0.
func readJSON(ctx context.Context, kv *bucket, key string, v any) (uint64, error) {
	r, err := get(ctx, kv, key)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(r.Value, v); err != nil {
		return 0, fmt.Errorf("natsstore: ledger record %s: %w", key, err)
	}
	return r.Revision, nil
}

// writeJSON creates (rev 0) or updates key by compare-and-set.
func writeJSON(ctx context.Context, kv *bucket, key string, v any, rev uint64) (uint64, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	if rev == 0 {
		return create(ctx, kv, key, b)
	}
	return update(ctx, kv, key, b, rev)
}

func lostRace(err error) bool {
	return errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound)
}

func pause(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(retryWait):
		return nil
	}
}

// Charge implements store.Ledger.
func (l *Ledger) Charge(ctx context.Context, acct, doc string, pages, limit int64) (bool, error) {
	defer l.m.since("ledger_charge", time.Now())
	if err := checkIDs(acct, doc); err != nil {
		return false, err
	}
	if pages < 0 {
		return false, fmt.Errorf("natsstore: charge of %d pages", pages)
	}
	ck, mark := chargeKey(acct, doc), "+"+doc
	applied := false // by this call (step 2)
	for range maxRetries {
		var c charge
		crev, err := readJSON(ctx, l.kv, ck, &c)
		if err != nil {
			return false, err
		}
		if crev == 0 { // step 1
			c = charge{Pages: pages, State: statePending}
			if crev, err = writeJSON(ctx, l.kv, ck, c, 0); lostRace(err) {
				continue
			} else if err != nil {
				return false, err
			}
		}
		if c.State != statePending {
			return applied, l.unmark(ctx, acct, mark)
		}
		var a account
		arev, err := readJSON(ctx, l.kv, accountKey(acct), &a)
		if err != nil {
			return false, err
		}
		if _, ok := a.Inflight[mark]; !ok { // step 2
			// No mark may mean "not applied yet" or "applied, confirmed
			// and tidied" by another caller after c was read: step 3
			// comes before step 4, so c still pending at crev, read after
			// a, means the first.
			if same, err := l.at(ctx, ck, crev); err != nil {
				return false, err
			} else if !same {
				continue
			}
			if limit > 0 && a.Used+c.Pages > limit {
				err := del(ctx, l.kv, ck, crev) // refused: leave nothing charged
				if lostRace(err) {
					continue
				}
				if err != nil {
					return false, err
				}
				return false, fmt.Errorf("%w: %d + %d pages > %d", store.ErrQuota, a.Used, c.Pages, limit)
			}
			a.Used += c.Pages
			if a.Inflight == nil {
				a.Inflight = map[string]int64{}
			}
			a.Inflight[mark] = c.Pages
			if _, err := writeJSON(ctx, l.kv, accountKey(acct), a, arev); lostRace(err) {
				if err := pause(ctx); err != nil {
					return false, err
				}
				continue
			} else if err != nil {
				return false, err
			}
			applied = true
		}
		c.State = stateApplied // step 3
		if _, err := writeJSON(ctx, l.kv, ck, c, crev); lostRace(err) {
			continue
		} else if err != nil {
			return false, err
		}
		return applied, l.unmark(ctx, acct, mark) // step 4
	}
	return false, errBusy
}

// at reports whether key is still at revision rev (0: absent).
func (l *Ledger) at(ctx context.Context, key string, rev uint64) (bool, error) {
	var c charge
	now, err := readJSON(ctx, l.kv, key, &c)
	if err != nil {
		return false, err
	}
	return now == rev, nil
}

// Refund implements store.Ledger.
func (l *Ledger) Refund(ctx context.Context, acct, doc string) (bool, error) {
	if err := checkIDs(acct, doc); err != nil {
		return false, err
	}
	ck := chargeKey(acct, doc)
	refunded := false
	for range maxRetries {
		var c charge
		crev, err := readJSON(ctx, l.kv, ck, &c)
		if err != nil {
			return false, err
		}
		var a account
		arev, err := readJSON(ctx, l.kv, accountKey(acct), &a)
		if err != nil {
			return false, err
		}
		switch c.State {
		case "":
			return false, nil // never charged
		case statePending:
			if _, ok := a.Inflight["+"+doc]; ok {
				// Applied but not confirmed: finish the charge first.
				if _, err := l.Charge(ctx, acct, doc, c.Pages, 0); err != nil {
					return false, err
				}
				continue
			}
			// Never reached the account: nothing to give back.
			if err := del(ctx, l.kv, ck, crev); lostRace(err) {
				continue
			} else if err != nil {
				return false, err
			}
			return false, nil
		case stateApplied:
			c.State = stateRefunding
			if _, err := writeJSON(ctx, l.kv, ck, c, crev); err != nil && !lostRace(err) {
				return false, err
			}
			continue
		case stateRefunding:
			mark := "-" + doc
			if _, ok := a.Inflight[mark]; !ok {
				// As in Charge: the mark's absence means "not given back
				// yet" only if c is still refunding at crev, read after a.
				if same, err := l.at(ctx, ck, crev); err != nil {
					return false, err
				} else if !same {
					continue
				}
				a.Used -= c.Pages
				if a.Inflight == nil {
					a.Inflight = map[string]int64{}
				}
				a.Inflight[mark] = c.Pages
				if _, err := writeJSON(ctx, l.kv, accountKey(acct), a, arev); lostRace(err) {
					if err := pause(ctx); err != nil {
						return false, err
					}
					continue
				} else if err != nil {
					return false, err
				}
				refunded = true
			}
			c.State = stateRefunded
			if _, err := writeJSON(ctx, l.kv, ck, c, crev); lostRace(err) {
				continue
			} else if err != nil {
				return false, err
			}
			return refunded, l.unmark(ctx, acct, mark)
		case stateRefunded:
			return refunded, l.unmark(ctx, acct, "-"+doc)
		default:
			return false, fmt.Errorf("natsstore: charge %s in unknown state %q", ck, c.State)
		}
	}
	return false, errBusy
}

// unmark drops a confirmed charge's or refund's in-flight mark from the
// account (step 4).
func (l *Ledger) unmark(ctx context.Context, acct, mark string) error {
	for range maxRetries {
		var a account
		arev, err := readJSON(ctx, l.kv, accountKey(acct), &a)
		if err != nil {
			return err
		}
		if _, ok := a.Inflight[mark]; !ok {
			return nil
		}
		delete(a.Inflight, mark)
		if _, err := writeJSON(ctx, l.kv, accountKey(acct), a, arev); !lostRace(err) {
			return err
		}
		if err := pause(ctx); err != nil {
			return err
		}
	}
	return errBusy
}

// Used implements store.Ledger.
// Charged implements store.Ledger: whether doc's pages are in the
// account's Used, reading a charge caught between two steps as the
// account record says (its mark tells whether step 2 ran).
func (l *Ledger) Charged(ctx context.Context, acct, doc string) (int64, bool, error) {
	if err := checkIDs(acct, doc); err != nil {
		return 0, false, err
	}
	var c charge
	rev, err := readJSON(ctx, l.kv, chargeKey(acct, doc), &c)
	if err != nil || rev == 0 {
		return 0, false, err
	}
	var a account
	if _, err := readJSON(ctx, l.kv, accountKey(acct), &a); err != nil {
		return 0, false, err
	}
	_, plus := a.Inflight["+"+doc]
	_, minus := a.Inflight["-"+doc]
	switch c.State {
	case stateApplied:
		return c.Pages, true, nil
	case statePending:
		return c.Pages, plus, nil
	case stateRefunding:
		return c.Pages, !minus, nil
	}
	return c.Pages, false, nil
}

func (l *Ledger) Used(ctx context.Context, acct string) (int64, error) {
	if err := checkIDs(acct); err != nil {
		return 0, err
	}
	var a account
	_, err := readJSON(ctx, l.kv, accountKey(acct), &a)
	return a.Used, err
}

// Tidy drops the in-flight marks of account whose steps are confirmed:
// those a worker left when it died between steps 3 and 4 and that no
// later call on the same document removed. They never change Used; Tidy
// keeps the account record small. The janitor runs it.
func (l *Ledger) Tidy(ctx context.Context, acct string) (int, error) {
	if err := checkIDs(acct); err != nil {
		return 0, err
	}
	var a account
	if _, err := readJSON(ctx, l.kv, accountKey(acct), &a); err != nil {
		return 0, err
	}
	n := 0
	for mark := range a.Inflight {
		var c charge
		if _, err := readJSON(ctx, l.kv, chargeKey(acct, mark[1:]), &c); err != nil {
			return n, err
		}
		done := c.State == stateRefunded || mark[0] == '+' && c.State != statePending
		if !done {
			continue
		}
		if err := l.unmark(ctx, acct, mark); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
