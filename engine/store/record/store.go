package record

import (
	"context"
	"errors"
	"time"
)

// Store is what the job service reads and writes its records through.
// Two stores satisfy it:
//
//   - engine/store/joblog: one node, one pebble key space; a Batch commits
//     atomically and the service's per-account lock serialises changes;
//   - engine/store/storelog: any engine/store engine (pebble in-process, or
//     NATS JetStream shared by several nodes); a Batch commits as
//     compare-and-set steps in a crash-safe order and reports a lost
//     race as a conflict (IsConflict), which the service retries.
//
// It is composed of small interfaces, one a kind of record. Reads return
// records carrying the revision they were read at (Rev), so a batch that
// writes them back can tell a stale copy from a fresh one. Missing
// records are ErrNotFound; a closed store is ErrClosed. What only one
// store keeps (a local queue, a retention index, roles, a ledger, an
// older layout's secret) is an interface of its own below, which the
// service asks the store (or its Batch) for.
type Store interface {
	Accounts
	Keys
	Jobs
	Idems
	Hooks
	Inspector
	NewBatch() Batch
	Close() error
}

// Accounts reads accounts.
type Accounts interface {
	Account(id string) (*Account, error)
	AccountByEmail(email string) (*Account, error)
}

// Keys reads API keys.
type Keys interface {
	Key(id string) (*Key, error)
	KeyByHash(hash []byte) (*Key, error)
	Keys() ([]*Key, error)
}

// Jobs reads jobs, their documents and events, and the retention clock.
type Jobs interface {
	Job(id string) (*Job, error)
	Doc(id string) (*Doc, error)
	JobDocs(j *Job) ([]*Doc, error)
	// JobAndDocs reads a job and its documents as of one moment.
	JobAndDocs(id string) (*Job, []*Doc, error)
	AccountJobs(accountID string) ([]string, error)
	Events(jobID string) ([]*Event, error)
	// ListJobs returns a page of an account's jobs, newest first, from
	// the opaque position before (nil: the newest); next is nil at the
	// end. status, when not empty, keeps only jobs in that status.
	ListJobs(accountID string, before []byte, limit int, status string) (jobs []ListedJob, next []byte, err error)
	// ScanDocs calls fn for every document until it returns false.
	ScanDocs(fn func(*Doc) bool) error
	// Expired returns up to limit jobs whose retention ends before now.
	Expired(now time.Time, limit int) ([]RetentionEntry, error)
}

// Idems reads idempotency records.
type Idems interface {
	Idem(accountID, ns, key string) (*Idem, error)
}

// Hooks reads pending webhook deliveries.
type Hooks interface {
	Hook(jobID string) (*Hook, error)
	Hooks() ([]*Hook, error)
}

// Inspector is what the admin commands and readiness read.
type Inspector interface {
	// Count counts the records of a kind ("queue", "job", "doc", …).
	Count(kind string) (int, error)
	AllKeys() ([]string, error)
	// SchemaVersionOf reads the stored layout version; an error means
	// the store cannot serve (Ready fails).
	SchemaVersionOf() (int, error)
}

// LegacySecrets is offered by a store whose older layout kept the
// upload-signing secret (engine/store/joblog before 2026-11): the service
// moves it into its own file once.
type LegacySecrets interface {
	// LegacyUploadSecret returns the secret, if the store still keeps
	// it; DropLegacyUploadSecret forgets it once moved.
	LegacyUploadSecret() (secret []byte, ok bool, err error)
	DropLegacyUploadSecret() error
}

// Batch is one state change: every write of it lands, or none does
// (joblog), or they land in an order that leaves every crash
// recoverable and a lost race reported (storelog).
type Batch interface {
	// Commit writes the batch; sync false allows a crash to lose it (a
	// progress figure, never an acknowledged state).
	Commit(sync bool) error
	Discard()
	Empty() bool

	AccountWrites
	JobWrites
	// Enqueue puts a document on the ready queue (e.At orders it). A
	// local queue's entries leave it through QueueBatch; a shared
	// queue's through the lease's Ack.
	Enqueue(e QueueEntry)
}

// AccountWrites are a batch's writes of accounts, their quota and keys.
type AccountWrites interface {
	PutAccount(a *Account)
	// Charge adds pages for docID to a's use (a.PagesUsed grows at
	// once); Refund gives a charge back. A store with a ledger records
	// each once per document whatever the retries.
	Charge(a *Account, docID string, pages int64)
	Refund(a *Account, docID string, pages int64)
	PutKey(k *Key)
}

// JobWrites are a batch's writes of jobs and what hangs off them.
type JobWrites interface {
	PutJob(j *Job)
	PutDoc(d *Doc)
	PutIdem(accountID, ns, key string, r *Idem)
	AddEvent(jobID string, ev *Event)
	PutHook(h *Hook)
	DeleteHook(jobID string)
	// PurgeJob deletes a job with its documents, events and indexes.
	PurgeJob(j *Job, docs []*Doc)
}

// QueueBatch is offered by the batch of a store with a LocalQueue: its
// entries are records of the store, taken off in the batch that ends
// them (a shared queue's are settled by their lease).
type QueueBatch interface {
	Dequeue(at int64, docID string)
	DeleteQueued(e QueueEntry)
}

// ExpiryBatch is offered by the batch of a store that keeps the
// retention clock as an index of its own (engine/store/joblog), moved with
// the job's ExpiresAt; a store that reads the clock off the job records
// has none.
type ExpiryBatch interface {
	// SetExpiry moves a job's entry from old to next (zero: none).
	SetExpiry(jobID string, old, next time.Time)
	DeleteExpiry(e RetentionEntry)
}

// LocalQueue is the ready queue of a one-node store: the service's
// dispatcher scans it for the oldest entry that is not in flight.
type LocalQueue interface {
	NextQueued(skip func(docID string) bool) (e QueueEntry, ok bool, err error)
	Queue() ([]QueueEntry, error)
}

// LeasedQueue is the ready queue of a shared store: entries are handed
// out under leases that expire, so a dead node's document goes to
// another node.
type LeasedQueue interface {
	// Lease blocks until an entry is available or ctx ends.
	Lease(ctx context.Context) (Lease, error)
	// ExtendEvery is how often a holder must extend a lease it keeps.
	ExtendEvery() time.Duration
}

// Lease is one delivery of one queue entry.
type Lease interface {
	Entry() QueueEntry
	// Attempt counts deliveries from 1; Exhausted means past the
	// queue's limit: the holder must fail the document and Ack.
	Attempt() int
	Exhausted() bool
	// Extend keeps the lease while the holder works.
	Extend(ctx context.Context) error
	// Ack settles the entry once its outcome is committed.
	Ack(ctx context.Context) error
	// Nack hands the entry out again after delay.
	Nack(ctx context.Context, delay time.Duration) error
}

// ConflictError is a batch that lost a compare-and-set race: a record
// it read changed before it committed. Nothing of the batch that the
// caller relies on landed; reading again and retrying is safe.
type ConflictError struct{ Key string }

func (e *ConflictError) Error() string { return "record: " + e.Key + " changed meanwhile" }

// IsConflict reports whether err is (or wraps) a *ConflictError.
func IsConflict(err error) bool {
	var c *ConflictError
	return errors.As(err, &c)
}

// ListCursorLen is the length of a listing position: the creation time
// (8 bytes, big-endian unix ns) and the job id (a 36-character UUID).
const ListCursorLen = 8 + 36

// Roles is offered by a shared store: a role such as the janitor is held
// by one node at a time, as a claim that expires unless renewed, and
// given up with ReleaseRole (a no-op unless holder has it).
type Roles interface {
	HoldRole(role, holder string, ttl time.Duration) (bool, error)
	ReleaseRole(role, holder string) error
}

// ChargeReader is offered by a store whose quota is a ledger apart from
// the document records: a charge can then be made and its document's
// record not yet say so (the node died between the two). Charged reports
// such a charge, so the retry does not count the document's own pages
// against it.
type ChargeReader interface {
	Charged(accountID, docID string) (pages int64, ok bool, err error)
}

// SecretKeeper is offered by a shared store: the upload-signing secret
// every node uses, so that any node accepts the upload URLs another one
// signed. SharedSecret stores candidate unless a secret is stored
// already, and returns the stored one.
type SecretKeeper interface {
	SharedSecret(candidate []byte) ([]byte, error)
}

// AuditKeyKeeper is offered by a shared store: the key every node seals
// review audit logs with (engine/review), so that a log one node wrote
// verifies and continues on any other. SharedAuditKey stores candidate
// unless a key is stored already, and returns the stored one.
type AuditKeyKeeper interface {
	SharedAuditKey(candidate []byte) ([]byte, error)
}

// ReviewStore keeps review links and editor sessions (ReviewGrant), so
// that any node redeems a link another one made and serves a session
// another one opened. Grants are keyed by kind (ReviewLink,
// ReviewSession) and the SHA-256 of their token. Update and Delete act
// on the record as read (its Rev): a changed one is a *ConflictError, a
// deleted one ErrNotFound; so of two deletes of one link, on any nodes,
// exactly one succeeds, which is what makes a link single-use.
type ReviewStore interface {
	ReviewGrant(kind string, hash []byte) (*ReviewGrant, error)
	// CreateReviewGrant stores a new grant; a taken hash is a conflict.
	CreateReviewGrant(kind string, hash []byte, g *ReviewGrant) error
	UpdateReviewGrant(kind string, hash []byte, g *ReviewGrant) error
	DeleteReviewGrant(kind string, hash []byte, g *ReviewGrant) error
	// ReviewGrants calls fn for every stored grant until it returns
	// false: for sweeps and revocation, never for a request path.
	ReviewGrants(fn func(kind string, hash []byte, g *ReviewGrant) bool) error
}
