// Package storelog keeps the job service's records (engine/store/record) on
// any engine/store engine: the NATS JetStream cluster engine, or pebble
// in-process. It is what lets several redactd nodes serve one set of jobs:
// each node's job service runs unchanged on a record.Store, and this
// package turns its batches into the contract's compare-and-set steps.
//
// # Layout
//
// A job is one record: the job, its documents, its event log and its
// pending webhook together, so every state change of a job (what a
// joblog batch writes atomically) is one compare-and-set here, and a
// stale or partitioned node can never commit over a newer state.
//
//	meta.schema                  layout version
//	meta.upload-secret           the upload-signing secret all nodes share
//	meta.audit-key               the review audit key all nodes share
//	acct.<account>               Account (PagesUsed comes from the Ledger)
//	email.<sha256 of e-mail>     account id
//	key.<key>                    Key
//	khash.<sha256 of key>        key id
//	job.<job>                    bundle: Job, Docs, Events, Hook
//	doc.<doc>                    job id
//	ajob.<account>.<job>         creation time (unix ns): the account's jobs
//	ajobt.<account>.<pos>.<job>  job id: the account's jobs newest first,
//	                             for listing a page at a time (listKey)
//	review.<kind>.<sha256>       ReviewGrant: review link or editor session (review.go)
//
// Idempotency keys are store.Idempotency claims, quota is store.Ledger
// (one charge per document whatever the retries), and the ready queue is
// store.Queue, whose leases the service's dispatcher takes
// (record.LeasedQueue).
//
// # Commit order
//
// A batch commits in this order: ledger charges; account and key
// records; the refunds of the documents of jobs it deletes; each job's
// bundle (created, updated at the revision read, or deleted), with its
// indexes created before it and removed after it; idempotency claims;
// the other refunds; then enqueues. A lost compare-and-set or claim is a
// *record.ConflictError, after the steps already taken are undone where
// they would otherwise count (a new job's records, the batch's first
// charges); the job service reads again and retries. A crash between
// steps leaves at worst an index entry without its record (skipped by
// reads), a queued document without its queue entry, which the janitor
// re-enqueues, or a document marked refunded whose charge the ledger
// still counts, which the job service's recovery refunds (engine/jobs:
// settleRefunds).
package storelog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/record"
)

// Pool is the queue pool this package's nodes take work from.
const Pool = "cpu"

// opTimeout bounds one read or one commit against the engine.
const opTimeout = 30 * time.Second

// SchemaVersion is the layout written to meta.schema: 2 since the
// listing index (ajobt.); Open moves a layout-1 store to 2 (migrateListing).
const SchemaVersion = 2

// ReadSchema reads the layout version stored in docs without changing
// anything (redactd doctor): 0 when none is stored.
func ReadSchema(ctx context.Context, docs store.Docs) (int, error) {
	r, err := docs.Get(ctx, "meta.schema")
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(string(r.Value))
	if err != nil {
		return 0, fmt.Errorf("storelog: bad layout version %q", r.Value)
	}
	return n, nil
}

// Options configure Open.
type Options struct {
	// LeaseTime is the queue's lease time (the engine's AckWait); workers
	// extend their leases three times within it.
	LeaseTime time.Duration
	// Close, if set, is called by Log.Close (closing the engine's
	// connection).
	Close func() error
	// Sync, if set, makes the engine's writes so far durable: for an
	// engine whose writes are not durable one by one but kept in order
	// (pebblestore with DeferSync: one log, so a crash loses a suffix of
	// them). The log calls it once at the end of each synced Commit and
	// after each review grant write, so a commit's steps cost one sync
	// between them, not one each; a crash between two steps leaves what
	// a crash between them always could. Unset, each engine write is
	// durable when it returns (NATS JetStream).
	Sync func() error
}

// Log is a record.Store and record.LeasedQueue on a store.Store.
type Log struct {
	s    store.Store
	opts Options

	// closed makes every operation after Close fail with ErrClosed
	// rather than reach a closed engine.
	closed atomic.Bool
}

var (
	_ record.Store          = (*Log)(nil)
	_ record.LeasedQueue    = (*Log)(nil)
	_ record.Roles          = (*Log)(nil)
	_ record.ChargeReader   = (*Log)(nil)
	_ record.SecretKeeper   = (*Log)(nil)
	_ record.AuditKeyKeeper = (*Log)(nil)
	_ record.ReviewStore    = (*Log)(nil)
)

// Open returns the records kept in s, writing the layout version on
// first use.
func Open(ctx context.Context, s store.Store, o Options) (*Log, error) {
	if o.LeaseTime <= 0 {
		o.LeaseTime = 30 * time.Second
	}
	l := &Log{s: s, opts: o}
	schema, err := l.createOrGet(ctx, "meta.schema", []byte(fmt.Sprint(SchemaVersion)))
	if err != nil {
		return nil, fmt.Errorf("storelog: %w", err)
	}
	if err := l.migrateListing(ctx, schema); err != nil {
		return nil, err
	}
	if _, err := l.SchemaVersionOf(); err != nil {
		return nil, err
	}
	if err := l.sync(); err != nil {
		return nil, fmt.Errorf("storelog: %w", err)
	}
	return l, nil
}

// sync makes the engine's writes so far durable, where they are not one
// by one (Options.Sync).
func (l *Log) sync() error {
	if l.opts.Sync == nil {
		return nil
	}
	return l.opts.Sync()
}

// migrateListing moves a layout-1 store (r: its layout record) to layout
// 2: it adds the listing index entry (listKey) of every job the account
// index (ajob.) names, then records version 2. Every node of a cluster may run it at once:
// each entry is created once (a Create that finds it is done), and the
// version moves by compare-and-set. A binary of layout 1 then refuses
// the store (Ready fails), so no job is created without its entry.
func (l *Log) migrateListing(ctx context.Context, r store.Record) error {
	if string(r.Value) != "1" {
		return nil // new, migrated, or a layout SchemaVersionOf refuses
	}
	keys, err := l.s.Docs.Keys(ctx, "ajob.")
	if err != nil {
		return fmt.Errorf("storelog: migrate to layout 2: %w", err)
	}
	for _, k := range keys {
		acct, jobID, ok := strings.Cut(strings.TrimPrefix(k, "ajob."), ".")
		v, err := l.s.Docs.Get(ctx, k)
		if errors.Is(err, store.ErrNotFound) {
			continue // purged meanwhile
		}
		if err != nil {
			return fmt.Errorf("storelog: migrate to layout 2: %w", err)
		}
		ns, perr := strconv.ParseInt(string(v.Value), 10, 64)
		if !ok || perr != nil {
			return fmt.Errorf("storelog: migrate to layout 2: corrupt index %s", k)
		}
		if _, err := l.s.Docs.Create(ctx, listKey(acct, ns, jobID), []byte(jobID)); err != nil && !errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("storelog: migrate to layout 2: %w", err)
		}
	}
	if _, err := l.s.Docs.Update(ctx, "meta.schema", []byte(fmt.Sprint(SchemaVersion)), r.Revision); err != nil && !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("storelog: migrate to layout 2: %w", err)
	}
	return nil // on a conflict another node moved it; SchemaVersionOf reads which
}

// Close closes the engine connection, if Options.Close says how.
func (l *Log) Close() error {
	if l.closed.Swap(true) {
		return record.ErrClosed
	}
	if l.opts.Close != nil {
		return l.opts.Close()
	}
	return nil
}

// ctx bounds one operation on the engine.
func ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), opTimeout)
}

// open fails with ErrClosed once the log is closed.
func (l *Log) open() error {
	if l.closed.Load() {
		return record.ErrClosed
	}
	return nil
}

// notFound maps the engine's missing key to the records' one.
func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %v", record.ErrNotFound, err)
	}
	return err
}

func (l *Log) get(key string, v any) (uint64, error) {
	if err := l.open(); err != nil {
		return 0, err
	}
	c, cancel := ctx()
	defer cancel()
	r, err := l.s.Docs.Get(c, key)
	if err != nil {
		return 0, notFound(err)
	}
	if err := json.Unmarshal(r.Value, v); err != nil {
		return 0, fmt.Errorf("storelog: %s: %w", key, err)
	}
	return r.Revision, nil
}

func (l *Log) getString(key string) (string, error) {
	if err := l.open(); err != nil {
		return "", err
	}
	c, cancel := ctx()
	defer cancel()
	r, err := l.s.Docs.Get(c, key)
	if err != nil {
		return "", notFound(err)
	}
	return string(r.Value), nil
}

func (l *Log) keys(prefix string) ([]string, error) {
	if err := l.open(); err != nil {
		return nil, err
	}
	c, cancel := ctx()
	defer cancel()
	return l.s.Docs.Keys(c, prefix)
}

func hashKey(prefix string, b []byte) string {
	s := sha256.Sum256(b)
	return prefix + hex.EncodeToString(s[:])
}

func emailKey(email string) string { return hashKey("email.", []byte(email)) }

// SchemaVersionOf reads the layout version: a round trip to the engine,
// so Ready fails while the engine is unreachable.
func (l *Log) SchemaVersionOf() (int, error) {
	v, err := l.getString("meta.schema")
	if err != nil {
		return 0, fmt.Errorf("storelog: %w", err)
	}
	var n int
	if _, err := fmt.Sscan(v, &n); err != nil || n != SchemaVersion {
		return 0, fmt.Errorf("storelog: layout %q; this binary reads %d", v, SchemaVersion)
	}
	return n, nil
}

// SharedSecret returns the upload-signing secret every node shares,
// storing candidate if none is stored yet (the first node to start wins).
func (l *Log) SharedSecret(candidate []byte) ([]byte, error) {
	return l.sharedMeta("meta.upload-secret", candidate)
}

// SharedAuditKey returns the review audit key every node shares, storing
// candidate if none is stored yet (the first node to start wins).
func (l *Log) SharedAuditKey(candidate []byte) ([]byte, error) {
	return l.sharedMeta("meta.audit-key", candidate)
}

// sharedMeta creates the record key with candidate (hex) unless it
// exists, and returns what it holds: written once, the same on every node.
func (l *Log) sharedMeta(key string, candidate []byte) ([]byte, error) {
	r, err := l.createOrGet(context.Background(), key, []byte(hex.EncodeToString(candidate)))
	if err != nil {
		return nil, err
	}
	if err := l.sync(); err != nil {
		return nil, err
	}
	return hex.DecodeString(string(r.Value))
}

// createOrGet creates the record key with value unless it exists, and
// returns the record stored: the first node's value on every node.
//
// Nodes of a new cluster start together, so most lose the create, and a
// loser's read can still find nothing: a stream leader refuses a create
// while another for the same key is proposed but not yet applied, so the
// conflict can come before the winner's record is readable (seen once in
// CI: a node's start failed with "meta.upload-secret" not found). So a
// missing record is read again, and the create tried again, for up to
// opTimeout: the create is a compare-and-set, so a retry never replaces a
// record another node wrote, and every node ends with the one record.
func (l *Log) createOrGet(ctx context.Context, key string, value []byte) (store.Record, error) {
	c, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	for pause := 50 * time.Millisecond; ; pause = min(2*pause, time.Second) {
		_, err := l.s.Docs.Create(c, key, value)
		if err != nil && !errors.Is(err, store.ErrConflict) {
			return store.Record{}, err
		}
		r, err := l.s.Docs.Get(c, key)
		if !errors.Is(err, store.ErrNotFound) {
			return r, err
		}
		select {
		case <-c.Done():
			return store.Record{}, fmt.Errorf("storelog: %s still missing after its create: %w", key, err)
		case <-time.After(pause):
		}
	}
}

// Lease takes the next document from the shared queue.
func (l *Log) Lease(c context.Context) (record.Lease, error) {
	sl, err := l.s.Queue.Lease(c, Pool)
	if err != nil {
		return nil, err
	}
	var p queued
	if err := json.Unmarshal(sl.Payload(), &p); err != nil {
		// Not ours to read: settle it so it does not come back forever.
		sl.Ack(c)
		return nil, fmt.Errorf("storelog: queue item %s: %w", sl.ID(), err)
	}
	return lease{Lease: sl, e: record.QueueEntry{At: p.At, DocID: sl.ID(), JobID: p.Job, AccountID: p.Account}}, nil
}

// ExtendEvery is a third of the lease time.
func (l *Log) ExtendEvery() time.Duration { return l.opts.LeaseTime / 3 }

// queued is a queue item's payload.
type queued struct {
	At  int64  `json:"at"`
	Job string `json:"job"`
	// Account is empty in an item enqueued before items carried it.
	Account string `json:"account,omitempty"`
}

type lease struct {
	store.Lease
	e record.QueueEntry
}

func (l lease) Entry() record.QueueEntry { return l.e }

// HoldRole takes or renews role for holder for ttl (store.Singletons).
func (l *Log) HoldRole(role, holder string, ttl time.Duration) (bool, error) {
	if err := l.open(); err != nil {
		return false, err
	}
	c, cancel := ctx()
	defer cancel()
	return l.s.Singletons.Hold(c, role, holder, ttl)
}

// ReleaseRole gives role up if holder has it (store.Singletons).
func (l *Log) ReleaseRole(role, holder string) error {
	if err := l.open(); err != nil {
		return err
	}
	c, cancel := ctx()
	defer cancel()
	return l.s.Singletons.Release(c, role, holder)
}

// Charged reports the pages the ledger counts for doc: a charge made by
// an attempt that died before recording it on the document.
func (l *Log) Charged(accountID, docID string) (int64, bool, error) {
	if err := l.open(); err != nil {
		return 0, false, err
	}
	c, cancel := ctx()
	defer cancel()
	return l.s.Ledger.Charged(c, accountID, docID)
}
