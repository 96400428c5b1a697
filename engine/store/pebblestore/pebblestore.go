// Package pebblestore is the single-node storage engine behind the
// store contract: records, idempotency keys, the work queue, the quota
// ledger and singleton roles in one pebble database on local disk (blobs
// are engine/store/dirblob's; Bundle puts the two together). It passes engine/store/storetest, the suite
// the cluster engine (engine/store/nats) passes too.
//
// One process owns the database (pebble locks it), so a mutex is the
// compare-and-set: every write reads, checks and commits a synced batch
// under Store.mu. Leases are held in memory only: after a restart every
// item that was leased is handed out again at once, as a later attempt
// (attempt counts are durable), which is exactly what a crashed worker's
// lease expiring would do.
package pebblestore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/internal/privatefs"
)

// Options configure a Store.
type Options struct {
	// LeaseTime is how long a lease lasts without Extend (default 30s).
	LeaseTime time.Duration
	// MaxAttempts is how many deliveries an item gets before the next
	// one is flagged Exhausted (default 5).
	MaxAttempts int
	// DeferSync leaves writes in pebble's log unsynced until the next
	// Sync (or the next synced write): a crash then loses the writes
	// since the last sync, always a suffix of them in the order they
	// were made, never a write without those before it, since one log
	// holds them all. A caller that makes several writes for one change
	// (engine/store/storelog's commit steps) pays one log sync for them instead
	// of one each. Off, every write is durable when it returns.
	DeferSync bool
	// ReadOnly opens the database for reading only (redactd doctor):
	// every write fails.
	ReadOnly bool
}

// Store is the pebble engine: its Docs, Idempotency, Queue and Ledger
// views share one database and one write lock.
type Store struct {
	db    *pebble.DB
	opts  Options
	wopts *pebble.WriteOptions // pebble.Sync, or NoSync with DeferSync
	now   func() time.Time

	mu      sync.Mutex
	rev     uint64                 // last revision or sequence handed out
	leases  map[string]*leaseState // by queue item key
	roles   map[string]claim       // Singletons
	changed chan struct{}          // closed and replaced when the queue changes
}

type leaseState struct {
	attempt int
	expires time.Time
}

// Key space.
const (
	pRev    = "m/rev"
	pDoc    = "d/"
	pIdem   = "i/"
	pQueue  = "q/"
	pCharge = "l/"
	pUsed   = "u/"
)

// Open opens or creates the database in dir. Its directories are 0700
// and its files 0600, whatever the umask (internal/privatefs).
func Open(dir string, o Options) (*Store, error) {
	if o.LeaseTime <= 0 {
		o.LeaseTime = 30 * time.Second
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 5
	}
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}, FS: privatefs.Default, ReadOnly: o.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("pebblestore: %w", err)
	}
	wopts := pebble.Sync
	if o.DeferSync {
		wopts = pebble.NoSync
	}
	s := &Store{db: db, opts: o, wopts: wopts, now: time.Now, leases: map[string]*leaseState{}, roles: map[string]claim{}, changed: make(chan struct{})}
	if v, err := s.get([]byte(pRev)); err == nil {
		s.rev = binary.BigEndian.Uint64(v)
	} else if !errors.Is(err, pebble.ErrNotFound) {
		db.Close()
		return nil, fmt.Errorf("pebblestore: %w", err)
	}
	return s, nil
}

var (
	_ store.Docs        = docs{}
	_ store.Idempotency = idem{}
	_ store.Ledger      = ledger{}
)

// quietLogger drops pebble's informational lines (WAL replay on every
// open) and keeps its fatal ones.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	pebble.DefaultLogger.Fatalf(format, args...)
}

// Close closes the database, syncing what DeferSync left unsynced.
func (s *Store) Close() error {
	if s.opts.DeferSync {
		if err := s.Sync(); err != nil {
			s.db.Close()
			return fmt.Errorf("pebblestore: %w", err)
		}
	}
	return s.db.Close()
}

// Docs, Idempotency, Queue, Ledger and Singletons are the store's views.
func (s *Store) Docs() store.Docs               { return docs{s} }
func (s *Store) Idempotency() store.Idempotency { return idem{s} }
func (s *Store) Queue() store.Queue             { return queue{s} }
func (s *Store) Ledger() store.Ledger           { return ledger{s} }
func (s *Store) Singletons() store.Singletons   { return singletons{s} }

// Bundle is the single-node engine as the job service is given it: this
// database's views and blobs (engine/store/dirblob, files under a local
// directory).
func (s *Store) Bundle(blobs store.Blobs) store.Store {
	return store.Store{Docs: s.Docs(), Idempotency: s.Idempotency(), Queue: s.Queue(), Ledger: s.Ledger(), Blobs: blobs, Singletons: s.Singletons()}
}

func (s *Store) get(key []byte) ([]byte, error) {
	v, closer, err := s.db.Get(key)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return bytes.Clone(v), nil
}

// next hands out the next revision into b. Caller holds mu.
func (s *Store) next(b *pebble.Batch) uint64 {
	s.rev++
	b.Set([]byte(pRev), be64(s.rev), nil)
	return s.rev
}

func be64(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}

// commit writes b and closes it: durably, unless the store defers its
// syncs (Options.DeferSync).
func (s *Store) commit(b *pebble.Batch) error {
	defer b.Close()
	return b.Commit(s.wopts)
}

// Sync makes every write before it durable. With Options.DeferSync it
// is how a caller ends a series of writes; otherwise each write is
// durable already and Sync costs one more log sync.
func (s *Store) Sync() error { return s.db.LogData(nil, pebble.Sync) }

// docs implements store.Docs: a record is its revision (8 bytes) then
// its value.
type docs struct{ s *Store }

func (d docs) read(key string) (store.Record, error) {
	v, err := d.s.get([]byte(pDoc + key))
	if errors.Is(err, pebble.ErrNotFound) {
		return store.Record{}, &store.NotFoundError{Key: key}
	}
	if err != nil {
		return store.Record{}, err
	}
	if len(v) < 8 {
		return store.Record{}, fmt.Errorf("pebblestore: record %q is corrupt", key)
	}
	return store.Record{Key: key, Revision: binary.BigEndian.Uint64(v[:8]), Value: v[8:]}, nil
}

func (d docs) Get(ctx context.Context, key string) (store.Record, error) {
	if err := store.CheckDocKey(key); err != nil {
		return store.Record{}, err
	}
	if err := ctx.Err(); err != nil {
		return store.Record{}, err
	}
	return d.read(key)
}

// write stores value at key under a new revision, if the key's current
// revision is want (0: absent).
func (d docs) write(ctx context.Context, key string, value []byte, want uint64, del bool) (uint64, error) {
	if err := store.CheckDocKey(key); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	cur, err := d.read(key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		if want != 0 {
			return 0, err
		}
	case err != nil:
		return 0, err
	case cur.Revision != want:
		return 0, &store.ConflictError{Key: key, Revision: want}
	}
	b := d.s.db.NewBatch()
	rev := d.s.next(b)
	if del {
		b.Delete([]byte(pDoc+key), nil)
	} else {
		b.Set([]byte(pDoc+key), append(be64(rev), value...), nil)
	}
	return rev, d.s.commit(b)
}

func (d docs) Create(ctx context.Context, key string, value []byte) (uint64, error) {
	return d.write(ctx, key, value, 0, false)
}

func (d docs) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	if rev == 0 {
		return 0, &store.ConflictError{Key: key, Revision: rev}
	}
	return d.write(ctx, key, value, rev, false)
}

func (d docs) Delete(ctx context.Context, key string, rev uint64) error {
	if rev == 0 {
		return &store.ConflictError{Key: key, Revision: rev}
	}
	_, err := d.write(ctx, key, nil, rev, true)
	return err
}

func (d docs) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := store.CheckPrefix(prefix); err != nil {
		return nil, err
	}
	lo := []byte(pDoc + prefix)
	it, err := d.s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: upper(lo)})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var keys []string
	for it.First(); it.Valid(); it.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		keys = append(keys, string(it.Key()[len(pDoc):]))
	}
	return keys, it.Error()
}

// KeysAfter implements store.Docs: one iterator from the key after
// after, stopped at limit keys.
func (d docs) KeysAfter(ctx context.Context, prefix, after string, limit int) ([]string, error) {
	if err := store.CheckPrefix(prefix); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lo := []byte(pDoc + prefix)
	hi := upper(lo)
	if a := []byte(pDoc + after + "\x00"); after != "" && bytes.Compare(a, lo) > 0 {
		lo = a
	}
	it, err := d.s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var keys []string
	for ok := it.First(); ok && len(keys) < limit; ok = it.Next() {
		keys = append(keys, string(it.Key()[len(pDoc):]))
	}
	return keys, it.Error()
}

// upper is the least key greater than every key with prefix p.
func upper(p []byte) []byte {
	u := bytes.Clone(p)
	for i := len(u) - 1; i >= 0; i-- {
		if u[i] < 0xff {
			u[i]++
			return u[:i+1]
		}
	}
	return nil
}

// idem implements store.Idempotency. Keys are free-form: they are stored
// as they are, after the prefix.
type idem struct{ s *Store }

func (i idem) Claim(ctx context.Context, key string, value []byte) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	v, err := i.s.get([]byte(pIdem + key))
	if err == nil {
		return v, false, nil
	}
	if !errors.Is(err, pebble.ErrNotFound) {
		return nil, false, err
	}
	b := i.s.db.NewBatch()
	b.Set([]byte(pIdem+key), value, nil)
	if err := i.s.commit(b); err != nil {
		return nil, false, err
	}
	return bytes.Clone(value), true, nil
}

func (i idem) Get(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := i.s.get([]byte(pIdem + key))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, &store.NotFoundError{Key: key}
	}
	return v, err
}

func (i idem) Release(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	b := i.s.db.NewBatch()
	b.Delete([]byte(pIdem+key), nil)
	return i.s.commit(b)
}

// ledger implements store.Ledger: one entry per charged document, and
// the account's running total, written together.
type ledger struct{ s *Store }

type charge struct {
	Pages    int64 `json:"pages"`
	Refunded bool  `json:"refunded,omitempty"`
}

func chargeKey(account, doc string) []byte { return []byte(pCharge + account + "\x00" + doc) }

func (l ledger) used(account string) (int64, error) {
	v, err := l.s.get([]byte(pUsed + account))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}

func (l ledger) Charge(ctx context.Context, account, doc string, pages, limit int64) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if _, err := l.s.get(chargeKey(account, doc)); err == nil {
		return false, nil
	} else if !errors.Is(err, pebble.ErrNotFound) {
		return false, err
	}
	used, err := l.used(account)
	if err != nil {
		return false, err
	}
	if limit > 0 && used+pages > limit {
		return false, fmt.Errorf("%w: %d of %d pages used, %d more asked", store.ErrQuota, used, limit, pages)
	}
	return true, l.put(account, doc, charge{Pages: pages}, used+pages)
}

func (l ledger) put(account, doc string, c charge, used int64) error {
	v, err := json.Marshal(c)
	if err != nil {
		return err
	}
	b := l.s.db.NewBatch()
	b.Set(chargeKey(account, doc), v, nil)
	b.Set([]byte(pUsed+account), be64(uint64(used)), nil)
	return l.s.commit(b)
}

func (l ledger) Refund(ctx context.Context, account, doc string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	v, err := l.s.get(chargeKey(account, doc))
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var c charge
	if err := json.Unmarshal(v, &c); err != nil {
		return false, fmt.Errorf("pebblestore: charge of %q: %w", doc, err)
	}
	if c.Refunded {
		return false, nil
	}
	used, err := l.used(account)
	if err != nil {
		return false, err
	}
	c.Refunded = true
	return true, l.put(account, doc, c, used-c.Pages)
}

func (l ledger) Charged(ctx context.Context, account, doc string) (int64, bool, error) {
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	v, err := l.s.get(chargeKey(account, doc))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	var c charge
	if err := json.Unmarshal(v, &c); err != nil {
		return 0, false, fmt.Errorf("pebblestore: charge of %q: %w", doc, err)
	}
	return c.Pages, !c.Refunded, nil
}

func (l ledger) Used(ctx context.Context, account string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return l.used(account)
}
