package pebblestore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/redactd/redactd/engine/store"
)

// queue implements store.Queue. Items are keys q/<pool>\x00<sequence>,
// so a pool's items iterate oldest first; the value holds the id, the
// payload, the durable attempt count and when the item may be handed out
// again after a Nack.
type queue struct{ s *Store }

type item struct {
	ID        string `json:"id"`
	Payload   []byte `json:"payload,omitempty"`
	Attempts  int    `json:"attempts"`
	NotBefore int64  `json:"not_before,omitempty"` // unix ns
}

func poolPrefix(pool string) []byte { return []byte(pQueue + pool + "\x00") }

func (q queue) Enqueue(ctx context.Context, pool, id string, payload []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if pool == "" || id == "" {
		return fmt.Errorf("%w: empty pool or id", store.ErrInvalidKey)
	}
	v, err := json.Marshal(item{ID: id, Payload: payload})
	if err != nil {
		return err
	}
	q.s.mu.Lock()
	defer q.s.mu.Unlock()
	b := q.s.db.NewBatch()
	seq := q.s.next(b)
	b.Set(append(poolPrefix(pool), be64(seq)...), v, nil)
	if err := q.s.commit(b); err != nil {
		return err
	}
	q.s.signal()
	return nil
}

// signal wakes every Lease waiting for the queue to change. Caller holds
// mu.
func (s *Store) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// maxWait bounds a Lease's sleep between looks at the queue, so a lease
// that expires is noticed without a timer per lease.
const maxWait = 50 * time.Millisecond

func (q queue) Lease(ctx context.Context, pool string) (store.Lease, error) {
	for {
		l, wake, err := q.try(pool)
		if l != nil || err != nil {
			return l, err
		}
		t := time.NewTimer(maxWait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// try hands out the oldest item of pool that is neither under a live
// lease nor held back by a Nack, counting the attempt durably. With
// nothing to hand out it returns the channel closed at the next change.
func (q queue) try(pool string) (store.Lease, <-chan struct{}, error) {
	s := q.s
	s.mu.Lock()
	defer s.mu.Unlock()
	lo := poolPrefix(pool)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: upper(lo)})
	if err != nil {
		return nil, nil, err
	}
	defer it.Close()
	now := s.now()
	for it.First(); it.Valid(); it.Next() {
		key := string(it.Key())
		if ls := s.leases[key]; ls != nil && now.Before(ls.expires) {
			continue
		}
		var m item
		if err := json.Unmarshal(it.Value(), &m); err != nil {
			return nil, nil, fmt.Errorf("pebblestore: queue item: %w", err)
		}
		if m.NotBefore > now.UnixNano() {
			continue
		}
		m.Attempts++
		v, err := json.Marshal(m)
		if err != nil {
			return nil, nil, err
		}
		b := s.db.NewBatch()
		b.Set([]byte(key), v, nil)
		if err := q.s.commit(b); err != nil {
			return nil, nil, err
		}
		s.leases[key] = &leaseState{attempt: m.Attempts, expires: now.Add(s.opts.LeaseTime)}
		return &lease{s: s, key: key, it: m}, nil, nil
	}
	return nil, s.changed, it.Error()
}

// lease implements store.Lease.
type lease struct {
	s   *Store
	key string
	it  item
}

func (l *lease) ID() string      { return l.it.ID }
func (l *lease) Payload() []byte { return l.it.Payload }
func (l *lease) Attempt() int    { return l.it.Attempts }
func (l *lease) Exhausted() bool { return l.it.Attempts > l.s.opts.MaxAttempts }

// current checks, under mu, that this is still the item's lease: the
// item is there and was not handed out again since. A lease past its
// time whose item nobody took yet is still current.
func (l *lease) current() error {
	ls := l.s.leases[l.key]
	if ls == nil || ls.attempt != l.it.Attempts {
		return store.ErrStaleLease
	}
	return nil
}

func (l *lease) Extend(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if err := l.current(); err != nil {
		return err
	}
	l.s.leases[l.key].expires = l.s.now().Add(l.s.opts.LeaseTime)
	return nil
}

func (l *lease) Ack(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if err := l.current(); err != nil {
		return err
	}
	b := l.s.db.NewBatch()
	b.Delete([]byte(l.key), nil)
	if err := l.s.commit(b); err != nil {
		return err
	}
	delete(l.s.leases, l.key)
	return nil
}

func (l *lease) Nack(ctx context.Context, delay time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if err := l.current(); err != nil {
		return err
	}
	m := l.it
	m.NotBefore = 0
	if delay > 0 {
		m.NotBefore = l.s.now().Add(delay).UnixNano()
	}
	v, err := json.Marshal(m)
	if err != nil {
		return err
	}
	b := l.s.db.NewBatch()
	b.Set([]byte(l.key), v, nil)
	if err := l.s.commit(b); err != nil {
		return err
	}
	delete(l.s.leases, l.key)
	l.s.signal()
	return nil
}

var (
	_ store.Queue = queue{}
	_ store.Lease = (*lease)(nil)
)
