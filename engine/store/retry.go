package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// ErrUnavailable: the engine did not answer, or answered that it cannot
// for now (a leader election, a reconnect), for longer than Retry.For.
// The call may succeed later; the job service answers 503.
var ErrUnavailable = errors.New("store: temporarily unavailable")

// UnavailableError is a call that failed on transient errors until its
// retries ran out. errors.Is(err, ErrUnavailable) holds, and Unwrap gives
// the last try's error.
type UnavailableError struct {
	Op  string
	Err error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("store: %s: temporarily unavailable: %v", e.Op, e.Err)
}
func (e *UnavailableError) Unwrap() error        { return e.Err }
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// Retry settings; see Retry. DefaultRetryFor rides out a whole leader
// election: nats-server's election timeout (at most 9 s) and a vote,
// then a try begun just before the new leader stood and lost with the
// old one (DefaultRetryTry) and the longest pause before the next try
// (1.5 s: retryMaxPause, jittered), so that one try starts after the
// election: 9.5 + 3 + 1.5 = 14. With 10 s a creation begun as the
// leader was killed answered 503 after a 6 s election
// (TestClusterElection).
const (
	DefaultRetryFor = 14 * time.Second
	DefaultRetryTry = 3 * time.Second
	retryPause      = 50 * time.Millisecond
	retryMaxPause   = time.Second
)

// Retry is how a store's calls ride out a moment when the engine cannot
// answer: a JetStream leader election after a server is lost takes the
// survivors' election timeout (4 to 9 s in nats-server) and a vote, and
// a request to a stream without a leader goes unanswered or is refused.
// A call that fails with an error Transient accepts is tried again, with
// backoff (50 ms doubling to 1 s, jittered), until it succeeds, fails
// otherwise, its context ends, or the next try would start more than For
// after the first; then it returns an *UnavailableError.
//
// Only Transient errors are retried, and never a conflict, a missing
// key, a stale lease, a quota refusal or an invalid key, whatever
// Transient says: those are answers, and trying again cannot change them.
//
// A write whose try failed may still have landed (its answer was lost),
// so a retried write is checked against what the earlier try may have
// done: a Create that then finds the key holding exactly its value, an
// Update that finds a later revision holding exactly its value, a Delete
// that finds the key gone, and a Claim that finds the key holding its
// value each report success. Enqueue may leave a second copy, which the
// Queue contract allows; a Charge is never made twice, but one whose
// first try landed reports first=false. Blob Puts are retried only from
// an io.Seeker, which is rewound.
type Retry struct {
	// For bounds the retries of one call: no try starts once For has
	// passed since the first (0: DefaultRetryFor; < 0: no retries).
	For time.Duration
	// Try bounds one try of a call that is one short request, so a
	// request that a stream without a leader never answers is given up
	// and tried again (0: DefaultRetryTry). Calls that stream (a blob's
	// Put and Open, Keys) are bounded by the engine and their context.
	Try time.Duration
	// Transient reports an error after which the same call may succeed:
	// the engine's judgement (nil: none is).
	Transient func(error) bool
	// Retried, if set, is told of each retry, with the call's name
	// ("docs_create", "blobs_put"...), for metrics.
	Retried func(op string)
}

func (p Retry) budget() time.Duration {
	if p.For == 0 {
		return DefaultRetryFor
	}
	return max(p.For, 0)
}

func (p Retry) try() time.Duration {
	if p.Try <= 0 {
		return DefaultRetryTry
	}
	return p.Try
}

// answer reports an error that is the store's answer, never retried.
func answer(err error) bool {
	for _, e := range []error{ErrConflict, ErrNotFound, ErrStaleLease, ErrQuota, ErrInvalidKey, context.Canceled} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// retryable reports whether err may go away if the call is tried again.
func (p Retry) retryable(err error) bool {
	return err != nil && !answer(err) && p.Transient != nil && p.Transient(err)
}

// Do runs fn until it succeeds or fails for good, as the policy says.
// fn gets the context of one try (bounded by Try when short is true)
// and whether an earlier try failed on a transient error, which may have
// been applied nonetheless. The error is fn's, or an *UnavailableError
// once the retries run out on a transient one.
func (p Retry) Do(ctx context.Context, op string, short bool, fn func(ctx context.Context, retried bool) error) error {
	deadline := time.Now().Add(p.budget())
	pause := retryPause
	for retried := false; ; retried = true {
		c, cancel := ctx, context.CancelFunc(func() {})
		if short {
			c, cancel = context.WithTimeout(ctx, p.try())
		}
		err := fn(c, retried)
		cancel()
		if err == nil || !p.retryable(err) {
			return err
		}
		if ctx.Err() != nil {
			return ended(ctx, op, err)
		}
		wait := pause/2 + rand.N(pause)
		if time.Now().Add(wait).After(deadline) {
			return &UnavailableError{Op: op, Err: err}
		}
		if p.Retried != nil {
			p.Retried(op)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ended(ctx, op, err)
		case <-t.C:
		}
		pause = min(2*pause, retryMaxPause)
	}
}

// ended is the error of a call whose context ended while it was being
// retried: a cancellation is the caller's (the request is gone), a
// deadline bounded the retries and is the store's unavailability.
func ended(ctx context.Context, op string, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("store: %s: %w (last try: %v)", op, ctx.Err(), err)
	}
	return &UnavailableError{Op: op, Err: err}
}

// WithRetry returns s with every call (but Queue.Lease and what a Lease
// does, which the dispatcher's loop and the lease's fence handle) retried
// as p says. Its Blobs is a BlobSweeper when s's is.
func WithRetry(s Store, p Retry) Store {
	w := s
	if s.Docs != nil {
		w.Docs = retryDocs{s.Docs, p}
	}
	if s.Idempotency != nil {
		w.Idempotency = retryIdem{s.Idempotency, p}
	}
	if s.Queue != nil {
		w.Queue = retryQueue{s.Queue, p}
	}
	if s.Ledger != nil {
		w.Ledger = retryLedger{s.Ledger, p}
	}
	if s.Blobs != nil {
		rb := retryBlobs{s.Blobs, p}
		w.Blobs = rb
		if sw, ok := s.Blobs.(BlobSweeper); ok {
			w.Blobs = retrySweeper{rb, sw}
		}
	}
	if s.Singletons != nil {
		w.Singletons = retrySingletons{s.Singletons, p}
	}
	return w
}

type retryDocs struct {
	d Docs
	p Retry
}

func (r retryDocs) Get(ctx context.Context, key string) (rec Record, err error) {
	err = r.p.Do(ctx, "docs_get", true, func(c context.Context, _ bool) error {
		rec, err = r.d.Get(c, key)
		return err
	})
	return rec, err
}

func (r retryDocs) Create(ctx context.Context, key string, value []byte) (rev uint64, err error) {
	err = r.p.Do(ctx, "docs_create", true, func(c context.Context, retried bool) error {
		rev, err = r.d.Create(c, key, value)
		if retried && errors.Is(err, ErrConflict) {
			// An earlier try's create landed if the record is ours.
			if got, gerr := r.d.Get(c, key); gerr == nil && bytes.Equal(got.Value, value) {
				rev, err = got.Revision, nil
			}
		}
		return err
	})
	return rev, err
}

func (r retryDocs) Update(ctx context.Context, key string, value []byte, rev uint64) (nrev uint64, err error) {
	err = r.p.Do(ctx, "docs_update", true, func(c context.Context, retried bool) error {
		nrev, err = r.d.Update(c, key, value, rev)
		if retried && errors.Is(err, ErrConflict) {
			// An earlier try's update landed if the record moved past
			// rev to exactly our value.
			if got, gerr := r.d.Get(c, key); gerr == nil && got.Revision > rev && bytes.Equal(got.Value, value) {
				nrev, err = got.Revision, nil
			}
		}
		return err
	})
	return nrev, err
}

func (r retryDocs) Delete(ctx context.Context, key string, rev uint64) error {
	return r.p.Do(ctx, "docs_delete", true, func(c context.Context, retried bool) error {
		err := r.d.Delete(c, key, rev)
		if retried && errors.Is(err, ErrNotFound) {
			return nil // an earlier try's delete landed
		}
		return err
	})
}

func (r retryDocs) Keys(ctx context.Context, prefix string) (keys []string, err error) {
	err = r.p.Do(ctx, "docs_keys", false, func(c context.Context, _ bool) error {
		keys, err = r.d.Keys(c, prefix)
		return err
	})
	return keys, err
}

func (r retryDocs) KeysAfter(ctx context.Context, prefix, after string, limit int) (keys []string, err error) {
	err = r.p.Do(ctx, "docs_keys_after", false, func(c context.Context, _ bool) error {
		keys, err = r.d.KeysAfter(c, prefix, after, limit)
		return err
	})
	return keys, err
}

type retryIdem struct {
	i Idempotency
	p Retry
}

func (r retryIdem) Claim(ctx context.Context, key string, value []byte) (got []byte, won bool, err error) {
	err = r.p.Do(ctx, "idem_claim", true, func(c context.Context, retried bool) error {
		got, won, err = r.i.Claim(c, key, value)
		if err == nil && retried && !won && bytes.Equal(got, value) {
			won = true // an earlier try's claim landed
		}
		return err
	})
	return got, won, err
}

func (r retryIdem) Get(ctx context.Context, key string) (v []byte, err error) {
	err = r.p.Do(ctx, "idem_get", true, func(c context.Context, _ bool) error {
		v, err = r.i.Get(c, key)
		return err
	})
	return v, err
}

func (r retryIdem) Release(ctx context.Context, key string) error {
	return r.p.Do(ctx, "idem_release", true, func(c context.Context, _ bool) error {
		return r.i.Release(c, key)
	})
}

type retryQueue struct {
	q Queue
	p Retry
}

func (r retryQueue) Enqueue(ctx context.Context, pool, id string, payload []byte) error {
	return r.p.Do(ctx, "queue_enqueue", true, func(c context.Context, _ bool) error {
		return r.q.Enqueue(c, pool, id, payload)
	})
}

// Lease is not retried: it blocks until ctx ends, and the dispatcher
// calls it again in its loop.
func (r retryQueue) Lease(ctx context.Context, pool string) (Lease, error) {
	return r.q.Lease(ctx, pool)
}

type retryLedger struct {
	l Ledger
	p Retry
}

func (r retryLedger) Charge(ctx context.Context, account, doc string, pages, limit int64) (first bool, err error) {
	err = r.p.Do(ctx, "ledger_charge", true, func(c context.Context, _ bool) error {
		first, err = r.l.Charge(c, account, doc, pages, limit)
		return err
	})
	return first, err
}

func (r retryLedger) Refund(ctx context.Context, account, doc string) (refunded bool, err error) {
	err = r.p.Do(ctx, "ledger_refund", true, func(c context.Context, _ bool) error {
		refunded, err = r.l.Refund(c, account, doc)
		return err
	})
	return refunded, err
}

func (r retryLedger) Used(ctx context.Context, account string) (n int64, err error) {
	err = r.p.Do(ctx, "ledger_used", true, func(c context.Context, _ bool) error {
		n, err = r.l.Used(c, account)
		return err
	})
	return n, err
}

func (r retryLedger) Charged(ctx context.Context, account, doc string) (pages int64, ok bool, err error) {
	err = r.p.Do(ctx, "ledger_charged", true, func(c context.Context, _ bool) error {
		pages, ok, err = r.l.Charged(c, account, doc)
		return err
	})
	return pages, ok, err
}

type retryBlobs struct {
	b Blobs
	p Retry
}

// Put is retried only when r can be rewound to where it stood.
func (r retryBlobs) Put(ctx context.Context, key string, rd io.Reader) (info BlobInfo, err error) {
	sk, ok := rd.(io.Seeker)
	var at int64
	if ok {
		if at, err = sk.Seek(0, io.SeekCurrent); err != nil {
			ok = false
		}
	}
	if !ok {
		return r.b.Put(ctx, key, rd)
	}
	err = r.p.Do(ctx, "blobs_put", false, func(c context.Context, retried bool) error {
		if retried {
			if _, err := sk.Seek(at, io.SeekStart); err != nil {
				return err
			}
		}
		info, err = r.b.Put(c, key, rd)
		return err
	})
	return info, err
}

func (r retryBlobs) Open(ctx context.Context, key string) (rc io.ReadCloser, err error) {
	err = r.p.Do(ctx, "blobs_open", false, func(c context.Context, _ bool) error {
		rc, err = r.b.Open(c, key)
		return err
	})
	return rc, err
}

func (r retryBlobs) Stat(ctx context.Context, key string) (info BlobInfo, err error) {
	err = r.p.Do(ctx, "blobs_stat", true, func(c context.Context, _ bool) error {
		info, err = r.b.Stat(c, key)
		return err
	})
	return info, err
}

func (r retryBlobs) Delete(ctx context.Context, key string) error {
	return r.p.Do(ctx, "blobs_delete", true, func(c context.Context, _ bool) error {
		return r.b.Delete(c, key)
	})
}

// retrySweeper is retryBlobs over a BlobSweeper; the sweeps themselves
// are the janitor's, which runs them again on its next round.
type retrySweeper struct {
	retryBlobs
	sw BlobSweeper
}

func (r retrySweeper) Keys(ctx context.Context, fn func(key string, stored time.Time) bool) error {
	return r.sw.Keys(ctx, fn)
}

func (r retrySweeper) SweepPartial(ctx context.Context, age time.Duration) (int, error) {
	return r.sw.SweepPartial(ctx, age)
}

type retrySingletons struct {
	s Singletons
	p Retry
}

func (r retrySingletons) Hold(ctx context.Context, role, holder string, ttl time.Duration) (held bool, err error) {
	err = r.p.Do(ctx, "roles_hold", true, func(c context.Context, _ bool) error {
		held, err = r.s.Hold(c, role, holder, ttl)
		return err
	})
	return held, err
}

func (r retrySingletons) Release(ctx context.Context, role, holder string) error {
	return r.p.Do(ctx, "roles_release", true, func(c context.Context, _ bool) error {
		return r.s.Release(c, role, holder)
	})
}
