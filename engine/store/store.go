// Package store is the contract between the job service and the storage
// engine under it. The single-node engine (pebble plus local files) and the
// cluster engine (NATS JetStream: engine/store/nats) both satisfy it, and
// engine/store/storetest holds the one suite of tests both must pass.
//
// It is a leaf: it imports nothing of pebble, NATS or the job service, so
// an engine can be written, tested and linked without either of the others.
//
// The contract is deliberately small. It names what a job service needs
// from shared storage once more than one process may act on the same job:
//
//   - Docs: records changed only by compare-and-set on a revision, so a
//     stale or partitioned worker can never overwrite a newer state;
//   - Idempotency: keys created exactly once, for as long as the job lives
//     (a stream's dedupe window is minutes; a client retries for days);
//   - Queue: work handed out under leases that expire, so the document of
//     a dead worker is handed out again, with an attempt number that fences
//     the dead worker's late acknowledgement;
//   - Ledger: a quota charge recorded once per document, whatever the
//     redeliveries;
//   - Blobs: originals, outputs and masks, streamed, never held whole in
//     memory;
//   - Singletons: roles such as the janitor, held by one node at a time.
//
// The commit order a job service follows on top of it (output blob, then
// ledger charge, then compare-and-set of the document to its terminal
// state, then Ack) makes every crash between two steps end in exactly one
// terminal state and one charge: each step is idempotent or fenced, and
// the lease is acknowledged only after the state is committed. A
// redelivered document whose record is already terminal is only acked.
//
// Reads see every acknowledged write (read-your-writes across nodes): a
// node that has just committed a state never reads the older one back.
package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Sentinel errors. Implementations return the typed errors below, which
// match these with errors.Is, so callers branch without reading strings.
var (
	// ErrNotFound: the key holds no record, blob or charge.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a compare-and-set lost: the record's revision is not
	// the one the caller read, or a key to be created exists already.
	ErrConflict = errors.New("store: conflict")
	// ErrStaleLease: the lease is no longer the current one for its item
	// (it expired and the item was handed out again, or the item was
	// already acknowledged). The caller must drop its work: another worker
	// owns the item now.
	ErrStaleLease = errors.New("store: stale lease")
	// ErrQuota: a charge would take the account past its limit.
	ErrQuota = errors.New("store: quota exceeded")
	// ErrInvalidKey: a key the engine cannot store (see Docs and Blobs).
	ErrInvalidKey = errors.New("store: invalid key")
)

// NotFoundError reports a missing key. errors.Is(err, ErrNotFound) holds.
type NotFoundError struct{ Key string }

func (e *NotFoundError) Error() string        { return fmt.Sprintf("store: %q not found", e.Key) }
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// ConflictError reports a lost compare-and-set on Key. Revision is the
// revision the caller expected (0: the key was to be created).
// errors.Is(err, ErrConflict) holds.
type ConflictError struct {
	Key      string
	Revision uint64
}

func (e *ConflictError) Error() string {
	if e.Revision == 0 {
		return fmt.Sprintf("store: %q exists already", e.Key)
	}
	return fmt.Sprintf("store: %q is not at revision %d", e.Key, e.Revision)
}
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Record is one stored record: its key, its opaque value (the job service
// encodes it) and its revision. A revision is > 0, changes on every write
// of the key and never repeats for the key, so an equal revision means
// an unchanged record.
type Record struct {
	Key      string
	Value    []byte
	Revision uint64
}

// Docs holds job, document and account records. Every change is a
// compare-and-set: Create only if absent, Update and Delete only at the
// revision the caller read. There are no multi-key transactions, because
// the cluster engine has none; a state change that touches two records is
// ordered so that each step is safe to repeat (see the package doc).
//
// Keys are dot-separated tokens of ASCII letters, digits, '-', '_' and
// '=' (for example "doc.6f1c…" or "acct.<id>.job.<id>"), at most 512
// bytes; anything else is ErrInvalidKey. UUIDs and fixed prefixes fit;
// free-form strings (e-mail addresses, idempotency keys) must be hashed by
// the caller or go through Idempotency.
type Docs interface {
	// Get returns the record at key, or a *NotFoundError.
	Get(ctx context.Context, key string) (Record, error)
	// Create stores a new record and returns its revision, or a
	// *ConflictError (Revision 0) if the key holds a record.
	Create(ctx context.Context, key string, value []byte) (uint64, error)
	// Update replaces the record at key if its revision is still rev and
	// returns the new revision. A record at another revision is a
	// *ConflictError; a missing (or deleted) one a *NotFoundError.
	Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error)
	// Delete removes the record at key if its revision is still rev:
	// *ConflictError otherwise, *NotFoundError if it is missing.
	Delete(ctx context.Context, key string, rev uint64) error
	// Keys lists the keys under prefix (a whole-token prefix such as
	// "doc." or "", for all), in no promised order. It is for sweeps
	// (retention, recovery), not for request paths.
	Keys(ctx context.Context, prefix string) ([]string, error)
	// KeysAfter lists up to limit keys under prefix (as for Keys) that
	// sort after after ("": from the first), in ascending byte order,
	// each holding a record. It is for request paths that page through
	// an index (job listing): the records it reads are O(limit), not
	// O(keys under prefix), so an index whose keys sort in the wanted
	// order is read a page at a time.
	KeysAfter(ctx context.Context, prefix, after string, limit int) ([]string, error)
}

// Idempotency records which job an idempotency key created. A key is
// created once and never overwritten, so two nodes that receive the same
// retried request agree on one job: the first Claim wins and every later
// one returns the winner's value. Keys are free-form (the engine encodes
// them); values are the job service's.
type Idempotency interface {
	// Claim stores value under key if the key is new and returns (value,
	// true). If the key exists it stores nothing and returns the existing
	// value and false.
	Claim(ctx context.Context, key string, value []byte) ([]byte, bool, error)
	// Get returns the value under key, or a *NotFoundError.
	Get(ctx context.Context, key string) ([]byte, error)
	// Release forgets key (the job it named was purged), so the key may
	// create a new job. Releasing a missing key is not an error.
	Release(ctx context.Context, key string) error
}

// Queue hands out work items under leases. An item is held by at most one
// current lease; a lease that is neither extended nor settled within the
// queue's lease time expires and the item is delivered again with a higher
// attempt number. Delivery is therefore at-least-once: the job service
// makes processing idempotent (Docs revisions, Ledger) and the Queue makes
// a late settlement by a dead or partitioned worker harmless (ErrStaleLease).
//
// Pools separate work that needs different workers (cpu and gpu): a Lease
// for one pool never returns another pool's items.
type Queue interface {
	// Enqueue adds an item to pool. id names it (the document id). An id
	// enqueued again while a copy waits may be dropped as a duplicate or
	// delivered twice (engines dedupe within a window); the job service's
	// revision check makes a second delivery of finished work a no-op.
	Enqueue(ctx context.Context, pool, id string, payload []byte) error
	// Lease blocks until an item of pool is available or ctx ends
	// (ctx.Err() then). The caller must settle the lease with Ack or Nack,
	// or extend it while it works.
	Lease(ctx context.Context, pool string) (Lease, error)
}

// Lease is one delivery of one item.
type Lease interface {
	// ID and Payload are what Enqueue was given.
	ID() string
	Payload() []byte
	// Attempt counts deliveries of the item, from 1. A later delivery of
	// the same item has a higher attempt; the job service stores it on
	// the document, so a write by an older attempt can be told apart.
	Attempt() int
	// Exhausted reports that the item has been delivered more than the
	// queue's maximum number of attempts. The caller must not process it:
	// it marks the document failed and calls Ack, which removes the item.
	// (A bare JetStream work queue would keep such a message forever.)
	Exhausted() bool
	// Extend tells the queue the holder is still working, restarting the
	// lease time. ErrStaleLease if the lease was lost meanwhile.
	Extend(ctx context.Context) error
	// Ack settles the item as done and removes it from the queue.
	// ErrStaleLease if this is not the item's current lease: the item was
	// handed out again, and the new holder's Ack is the one that counts.
	Ack(ctx context.Context) error
	// Nack gives the item back for another delivery after delay (0: as
	// soon as the queue can). ErrStaleLease as for Ack.
	Nack(ctx context.Context, delay time.Duration) error
}

// Ledger charges documents' pages to accounts. A document is charged at
// most once whatever the number of calls, deliveries or crashes between
// calls, and refunded at most once, so the quota never drifts from the
// documents that were processed.
type Ledger interface {
	// Charge charges pages for doc to account unless doc is charged
	// already. limit bounds the account's use (0: no bound); a charge
	// that would pass it is refused with ErrQuota and leaves nothing
	// charged. first is true when this call made the charge, false when it
	// found one (whose page count is kept: a document is charged for what
	// it had the first time).
	Charge(ctx context.Context, account, doc string, pages, limit int64) (first bool, err error)
	// Refund gives doc's charge back once. refunded is false when there
	// was no charge or it was refunded already.
	Refund(ctx context.Context, account, doc string) (refunded bool, err error)
	// Used returns the account's charged pages, net of refunds.
	Used(ctx context.Context, account string) (int64, error)
	// Charged returns the pages Used counts for doc: ok is false when doc
	// has no charge, or its charge was refunded. A job service that died
	// between a charge and recording it reads here that the charge is
	// its document's own, already in Used, when it tries again.
	Charged(ctx context.Context, account, doc string) (pages int64, ok bool, err error)
}

// BlobInfo describes a stored blob.
type BlobInfo struct {
	Key  string
	Size int64
	// SHA256 is the hex SHA-256 of the content, computed while storing.
	SHA256 string
}

// Blobs stores originals, outputs and masks by key. Put is atomic: a blob
// is visible under its key whole or not at all, so a reader never sees a
// half-written output and a crash mid-Put leaves the old blob (if any)
// in place. Content is streamed in both directions; engines split large
// blobs into bounded segments internally.
//
// Keys are '/'-separated segments of ASCII letters, digits, '-', '_',
// '.', none starting with '.' (for example "<job>/<doc>.pdf"); see
// CheckBlobKey.
type Blobs interface {
	// Put stores r's content under key, replacing any blob there.
	Put(ctx context.Context, key string, r io.Reader) (BlobInfo, error)
	// Open returns a reader of the blob at key, or a *NotFoundError. The
	// caller closes it.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Stat describes the blob at key, or returns a *NotFoundError.
	Stat(ctx context.Context, key string) (BlobInfo, error)
	// Delete removes the blob at key. Deleting a missing blob is not an
	// error: purges repeat after crashes.
	Delete(ctx context.Context, key string) error
}

// BlobSweeper is an optional ability of a Blobs, for the one node that
// sweeps (the janitor): listing what the store holds, so blobs that no
// record points at (a job whose creation crashed after its originals were
// stored, a purge that died half-way) can be found and deleted, and
// removing what crashed Puts left behind.
type BlobSweeper interface {
	// Keys calls fn with the key of every blob and when it was last
	// stored, in no particular order, until fn returns false.
	Keys(ctx context.Context, fn func(key string, stored time.Time) bool) error
	// SweepPartial removes the pieces of Puts that never completed (no
	// key names them) and are older than age. age must exceed the
	// longest Put, which may be running on another node.
	SweepPartial(ctx context.Context, age time.Duration) (removed int, err error)
}

// Singletons hands out roles that one node at a time should play (the
// janitor: retention, sweeps), as leases that expire unless renewed, so a
// dead node's role passes to another one ttl later.
//
// A role is not a fence: a holder that stalls past its ttl may still be
// running when the next one starts. Work done under a role must be safe
// to overlap (every change a compare-and-set); the role only keeps the
// nodes from all doing the same sweep. Expiry compares the holder's claim
// with the checking node's clock, so node clocks must agree to well under
// a ttl (NTP).
type Singletons interface {
	// Hold takes role for holder, or renews it, for ttl from now, and
	// reports true; it reports false while another holder's claim runs.
	Hold(ctx context.Context, role, holder string, ttl time.Duration) (bool, error)
	// Release gives role up if holder has it, so another node need not
	// wait for the ttl; otherwise it does nothing.
	Release(ctx context.Context, role, holder string) error
}

// Store is one engine's parts, as the job service is given them.
type Store struct {
	Docs        Docs
	Idempotency Idempotency
	Queue       Queue
	Ledger      Ledger
	Blobs       Blobs
	Singletons  Singletons
}
