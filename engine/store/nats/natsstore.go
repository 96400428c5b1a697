// Package natsstore is the cluster engine's storage: store.Docs,
// store.Idempotency, store.Queue, store.Ledger and store.Blobs on NATS
// JetStream, so that several redactd nodes share jobs through an existing
// replicated engine instead of a cluster protocol of our own.
//
// What lives where (Prefix defaults to "redactd"):
//
//	PREFIX-docs       KV    job, document and account records; CAS by revision
//	PREFIX-idem       KV    idempotency keys, written with Create
//	PREFIX-ledger     KV    quota: one charge record per document, one total per account
//	PREFIX-leases     KV    the fence of each queue delivery (attempt, done)
//	PREFIX-work       stream, WorkQueue retention, subjects PREFIX.work.<pool>,
//	                  one durable pull consumer PREFIX-<pool> per pool
//	PREFIX-blobmeta   KV    one manifest per blob (size, digest, segments)
//	PREFIX-blobs      Object Store: blob segments of at most 64 MiB
//	PREFIX-roles      KV    singleton roles (the janitor), claims that expire
//
// Every bucket and stream has Replicas copies (3 in production, on a
// 3-server cluster with sync_interval: always), so a write acknowledged
// to the job service is on disk on a majority of servers.
//
// A KV revision is the stream sequence of the write, unique in its bucket
// and increasing, which is what store.Record promises.
package natsstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/engine/store"
)

// MaxSegmentSize bounds a blob segment: one Object Store put. Larger puts
// hold a stream's leader busy replicating one object for long, and a
// failure throws the whole put away.
const MaxSegmentSize = 64 << 20

// Options configure Open. The zero value is the production setting.
type Options struct {
	// Prefix names the buckets and the stream (letters, digits, '-' and
	// '_'); two installations on one cluster use two prefixes.
	Prefix string
	// Replicas is the copies of every bucket and stream: 3 on a 3-server
	// cluster (the default), 1 on a single server.
	Replicas int
	// LeaseTime is the queue's AckWait: a worker that does not extend its
	// lease within it loses the item (default 30 s).
	LeaseTime time.Duration
	// MaxAttempts is how many deliveries an item gets before it is handed
	// out once more flagged Exhausted (default 5).
	MaxAttempts int
	// Pools are the queue's pools (default cpu and gpu).
	Pools []string
	// SegmentSize is the size of blob segments (default and maximum
	// MaxSegmentSize; tests use less).
	SegmentSize int64
	// Memory keeps the streams in memory instead of files: for benchmarks
	// that measure the protocol, never for data.
	Memory bool
	// Metrics receives the store's metrics (nil: counted, not exported).
	Metrics *Metrics
	// MarkerTTL is how long a deleted key's marker stays in its bucket
	// (default an hour). Without a limit every delete (a purged job, an
	// acked queue item's fence) would leave a marker forever.
	MarkerTTL time.Duration
}

var prefixRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

func (o *Options) defaults() error {
	if o.Prefix == "" {
		o.Prefix = "redactd"
	}
	if !prefixRE.MatchString(o.Prefix) {
		return fmt.Errorf("natsstore: prefix %q: want 1 to 32 letters, digits, '-' or '_'", o.Prefix)
	}
	if o.Replicas == 0 {
		o.Replicas = 3
	}
	if o.Replicas < 1 || o.Replicas > 5 {
		return fmt.Errorf("natsstore: %d replicas; want 1 to 5", o.Replicas)
	}
	if o.LeaseTime == 0 {
		o.LeaseTime = 30 * time.Second
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = 5
	}
	if len(o.Pools) == 0 {
		o.Pools = []string{"cpu", "gpu"}
	}
	for _, p := range o.Pools {
		if !prefixRE.MatchString(p) {
			return fmt.Errorf("natsstore: pool %q: want letters, digits, '-' or '_'", p)
		}
	}
	if o.SegmentSize == 0 {
		o.SegmentSize = MaxSegmentSize
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics(nil)
	}
	if o.MarkerTTL == 0 {
		o.MarkerTTL = time.Hour
	}
	if o.MarkerTTL < time.Second {
		return fmt.Errorf("natsstore: marker ttl %v; want at least 1s", o.MarkerTTL)
	}
	if o.SegmentSize < 1 || o.SegmentSize > MaxSegmentSize {
		return fmt.Errorf("natsstore: segment size %d; want 1 to %d", o.SegmentSize, MaxSegmentSize)
	}
	return nil
}

func (o *Options) storage() jetstream.StorageType {
	if o.Memory {
		return jetstream.MemoryStorage
	}
	return jetstream.FileStorage
}

// Store is the whole cluster storage on one connection.
type Store struct {
	Docs       *Docs
	Idem       *Idempotency
	Queue      *Queue
	Ledger     *Ledger
	Blobs      *Blobs
	Singletons *Singletons

	m *Metrics
}

// Close stops the store's background work (the Blobs' segment
// deletions) and waits for it. The connection stays the caller's to
// close, after Close.
func (s *Store) Close() {
	if s.Blobs != nil {
		s.Blobs.Close()
	}
}

// Contract returns the store as the job service takes it: every call
// retried through a leader election (store.WithRetry with Transient, for
// store.DefaultRetryFor), each retry counted in Metrics.Retries.
func (s *Store) Contract() store.Store {
	raw := store.Store{Docs: s.Docs, Idempotency: s.Idem, Queue: s.Queue, Ledger: s.Ledger, Blobs: s.Blobs, Singletons: s.Singletons}
	return store.WithRetry(raw, store.Retry{
		Transient: Transient,
		Retried: func(op string) {
			if s.m != nil {
				s.m.Retries.WithLabelValues(op).Inc()
			}
		},
	})
}

// openTry bounds one attempt of Open. Nodes started together create the
// same buckets at once; on a replicated cluster a request that races
// another node's update of the same stream can go unanswered, so each
// attempt is bounded and Open tries again (it is idempotent) until ctx
// ends.
const openTry = 20 * time.Second

// updateWait bounds one stream update in leaderReads.
const updateWait = 3 * time.Second

// Open creates (or binds to) every bucket and stream on nc. It is
// idempotent, so every node runs it at start, at once if need be.
func Open(ctx context.Context, nc *nats.Conn, o Options) (*Store, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	for try := 1; ; try++ {
		tctx, cancel := context.WithTimeout(ctx, openTry)
		s, err := open(tctx, js, o)
		cancel()
		if err == nil || ctx.Err() != nil {
			return s, err
		}
		select {
		case <-time.After(time.Duration(try)*200*time.Millisecond + time.Duration(rand.Int64N(int64(time.Second)))):
		case <-ctx.Done():
			return nil, err
		}
	}
}

func open(ctx context.Context, js jetstream.JetStream, o Options) (*Store, error) {
	var err error
	s := Store{m: o.Metrics}
	if s.Docs, err = OpenDocs(ctx, js, o); err != nil {
		return nil, err
	}
	if s.Idem, err = OpenIdempotency(ctx, js, o); err != nil {
		return nil, err
	}
	if s.Queue, err = OpenQueue(ctx, js, o); err != nil {
		return nil, err
	}
	if s.Ledger, err = OpenLedger(ctx, js, o); err != nil {
		return nil, err
	}
	if s.Blobs, err = OpenBlobs(ctx, js, o); err != nil {
		return nil, err
	}
	if s.Singletons, err = OpenSingletons(ctx, js, o); err != nil {
		return nil, err
	}
	return &s, nil
}

// kvBucket creates or binds the KV bucket PREFIX-name with one revision
// of history (the job service reads the latest record only, and history
// would multiply the replicated bytes), and reads served by its leader
// (leaderReads).
func kvBucket(ctx context.Context, js jetstream.JetStream, o Options, name string) (*bucket, error) {
	bname := o.Prefix + "-" + name
	_, err := js.KeyValue(ctx, bname)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		_, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:         bname,
			History:        1,
			Replicas:       o.Replicas,
			Storage:        o.storage(),
			LimitMarkerTTL: o.MarkerTTL,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			err = nil // another node created it meanwhile
		}
	}
	if err != nil {
		return nil, fmt.Errorf("natsstore: bucket %s: %w", bname, err)
	}
	if err := leaderReads(ctx, js, "KV_"+bname); err != nil {
		return nil, err
	}
	// Bind again: the handle decides at bind time how it reads.
	kv, err := js.KeyValue(ctx, bname)
	if err != nil {
		return nil, fmt.Errorf("natsstore: bucket %s: %w", bname, err)
	}
	return &bucket{KeyValue: kv, markerTTL: o.MarkerTTL, conflicts: o.Metrics.Conflicts.WithLabelValues(name)}, nil
}

// bucket is a KV bucket whose delete markers expire and whose lost
// compare-and-sets are counted.
type bucket struct {
	jetstream.KeyValue
	markerTTL time.Duration
	conflicts prometheus.Counter
}

// purge removes key, leaving a marker that expires after markerTTL.
func (b *bucket) purge(ctx context.Context, key string, opts ...jetstream.KVDeleteOpt) error {
	return b.Purge(ctx, key, append(opts, jetstream.PurgeTTL(b.markerTTL))...)
}

// leaderReads turns off direct gets on a bucket's stream. nats.go creates
// KV and Object Store buckets with AllowDirect, which lets any replica
// answer a read, including one that has not applied the latest write: a
// node that has just committed a document could read the older state
// back, and a blob just stored could be "not found" (seen in the contract
// suite on an R3 cluster). Without it every read goes to the stream
// leader, which has applied every acknowledged write. Reads then load the
// leaders; each bucket elects its own, so the load is spread.
func leaderReads(ctx context.Context, js jetstream.JetStream, stream string) error {
	for {
		s, err := js.Stream(ctx, stream)
		if err != nil {
			return fmt.Errorf("natsstore: stream %s: %w", stream, err)
		}
		cfg := s.CachedInfo().Config
		if !cfg.AllowDirect {
			return nil
		}
		cfg.AllowDirect = false
		// Another node starting now may update the same stream; the
		// loser's request can go unanswered, so it is bounded and the
		// state read again (the other node's update does as well).
		uctx, cancel := context.WithTimeout(ctx, updateWait)
		_, err = js.UpdateStream(uctx, cfg)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("natsstore: stream %s: turning off direct gets: %w", stream, err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(500 * time.Millisecond))))
	}
}

// isConflict reports a lost compare-and-set. A single server answers a
// wrong expected revision with code 10071, a replicated (R3) stream with
// 10164; nats.go maps both to ErrKeyExists or ErrKeyRevisionMismatch
// depending on the call, so all four are checked here in one place.
func isConflict(err error) bool {
	if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return true
	}
	var api *jetstream.APIError
	return errors.As(err, &api) &&
		(api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
			api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

func isMissing(err error) bool {
	return errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted)
}

// isUncertain reports an error after which a write may or may not have
// been applied: the request or its answer was lost (timeout, leader
// change, reconnect). The write must be checked by reading, never simply
// repeated, or a CAS that succeeded reports a conflict with itself.
func isUncertain(err error) bool {
	return errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, jetstream.ErrAsyncPublishTimeout) || errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.Is(err, nats.ErrConnectionClosed) || errors.Is(err, nats.ErrDisconnected)
}

// Transient reports an error after which the same call may succeed in a
// moment: the cluster is electing a stream's leader, or the connection
// is moving to another server. It is the classification store.Retry
// uses. A request to a stream without a leader is refused (no
// responders, "JetStream system temporarily unavailable", "cluster can
// not handle request", stream or consumer offline) or not answered at
// all (a timeout, the try's deadline); a connection being re-established
// refuses or holds requests. A closed connection (the node is stopping),
// a conflict, a missing key, a refused charge or any other API error is
// not transient.
func Transient(err error) bool {
	switch {
	case err == nil, errors.Is(err, nats.ErrConnectionClosed), errors.Is(err, context.Canceled):
		return false
	case errors.Is(err, nats.ErrTimeout), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, jetstream.ErrAsyncPublishTimeout),
		errors.Is(err, nats.ErrNoResponders), errors.Is(err, jetstream.ErrNoStreamResponse),
		errors.Is(err, nats.ErrDisconnected), errors.Is(err, nats.ErrConnectionReconnecting),
		errors.Is(err, nats.ErrStaleConnection):
		return true
	}
	var api *jetstream.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode {
		case 10008, // JSClusterNotAvailErr: JetStream system temporarily unavailable
			10009,        // JSClusterNotLeaderErr: cluster can not handle request
			10004,        // JSClusterIncompleteErr: incomplete results
			10118, 10194, // JSStreamOfflineErr(F): stream is offline
			10119, 10195, // JSConsumerOfflineErr(F): consumer is offline
			10163: // expected last sequence per subject temporarily unavailable
			return true
		}
	}
	return false
}

// retryWait is the pause before a CAS loop retries after a conflict with
// another writer, so contending nodes do not spin.
const retryWait = 2 * time.Millisecond

// maxRetries bounds the internal CAS loops (ledger, blob manifests): a
// record that keeps changing under one writer this often is a fault.
const maxRetries = 200

var errBusy = errors.New("natsstore: record kept changing; giving up")
