package natsstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/engine/store"
)

// Docs is store.Docs on the KV bucket PREFIX-docs.
type Docs struct {
	m      *Metrics
	kv     *bucket
	js     jetstream.JetStream
	bucket string
	stream string
}

var _ store.Docs = (*Docs)(nil)

// OpenDocs creates or binds the records bucket.
func OpenDocs(ctx context.Context, js jetstream.JetStream, o Options) (*Docs, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	kv, err := kvBucket(ctx, js, o, "docs")
	if err != nil {
		return nil, err
	}
	return &Docs{m: o.Metrics, kv: kv, js: js, bucket: o.Prefix + "-docs", stream: "KV_" + o.Prefix + "-docs"}, nil
}

// Get implements store.Docs.
func (d *Docs) Get(ctx context.Context, key string) (store.Record, error) {
	defer d.m.since("docs_get", time.Now())
	if err := store.CheckDocKey(key); err != nil {
		return store.Record{}, err
	}
	return get(ctx, d.kv, key)
}

func get(ctx context.Context, kv *bucket, key string) (store.Record, error) {
	e, err := kv.Get(ctx, key)
	if isMissing(err) {
		return store.Record{}, &store.NotFoundError{Key: key}
	}
	if err != nil {
		return store.Record{}, fmt.Errorf("natsstore: get %s: %w", key, err)
	}
	return store.Record{Key: key, Value: e.Value(), Revision: e.Revision()}, nil
}

// Create implements store.Docs.
func (d *Docs) Create(ctx context.Context, key string, value []byte) (uint64, error) {
	defer d.m.since("docs_create", time.Now())
	if err := store.CheckDocKey(key); err != nil {
		return 0, err
	}
	return create(ctx, d.kv, key, value)
}

func create(ctx context.Context, kv *bucket, key string, value []byte) (uint64, error) {
	rev, err := kv.Create(ctx, key, value)
	switch {
	case err == nil:
		return rev, nil
	case isConflict(err):
		kv.conflicts.Inc()
		return 0, &store.ConflictError{Key: key}
	case isUncertain(err):
		// Did our create land before the answer was lost? Only if the
		// record holds our bytes; otherwise someone else created it.
		rctx, cancel := readBackContext(ctx)
		defer cancel()
		if r, gerr := get(rctx, kv, key); gerr == nil {
			if bytes.Equal(r.Value, value) {
				return r.Revision, nil
			}
			kv.conflicts.Inc()
			return 0, &store.ConflictError{Key: key}
		}
	}
	return 0, fmt.Errorf("natsstore: create %s: %w", key, err)
}

// Update implements store.Docs.
func (d *Docs) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	defer d.m.since("docs_update", time.Now())
	if err := store.CheckDocKey(key); err != nil {
		return 0, err
	}
	return update(ctx, d.kv, key, value, rev)
}

// update is a compare-and-set that tells a real conflict from its own
// write seen twice. On a replicated bucket a leader change can lose the
// answer to a write that was applied; nats.go then reports a timeout, and
// a caller that retried would get ErrKeyRevisionMismatch (code 10164)
// against its own write. So after an uncertain error the record is read:
// at a newer revision holding our bytes, the write landed.
func update(ctx context.Context, kv *bucket, key string, value []byte, rev uint64) (uint64, error) {
	if rev == 0 {
		return 0, &store.ConflictError{Key: key}
	}
	nrev, err := kv.Update(ctx, key, value, rev)
	if err == nil {
		return nrev, nil
	}
	if !isConflict(err) && !isUncertain(err) {
		return 0, fmt.Errorf("natsstore: update %s: %w", key, err)
	}
	rctx, cancel := readBackContext(ctx)
	defer cancel()
	r, gerr := get(rctx, kv, key)
	switch {
	case errors.Is(gerr, store.ErrNotFound):
		return 0, gerr
	case gerr != nil:
		return 0, fmt.Errorf("natsstore: update %s: %w", key, err)
	case r.Revision > rev && bytes.Equal(r.Value, value) && isUncertain(err):
		return r.Revision, nil
	case r.Revision == rev && isUncertain(err):
		return 0, fmt.Errorf("natsstore: update %s: %w", key, err) // not applied; caller may retry
	}
	kv.conflicts.Inc()
	return 0, &store.ConflictError{Key: key, Revision: rev}
}

// Delete implements store.Docs. It purges the key (a delete marker that
// drops the older revision), so deleted records do not linger on disk.
func (d *Docs) Delete(ctx context.Context, key string, rev uint64) error {
	defer d.m.since("docs_delete", time.Now())
	if err := store.CheckDocKey(key); err != nil {
		return err
	}
	return del(ctx, d.kv, key, rev)
}

func del(ctx context.Context, kv *bucket, key string, rev uint64) error {
	if rev == 0 {
		return &store.ConflictError{Key: key}
	}
	err := kv.purge(ctx, key, jetstream.LastRevision(rev))
	if err == nil {
		return nil
	}
	if !isConflict(err) && !isUncertain(err) {
		return fmt.Errorf("natsstore: delete %s: %w", key, err)
	}
	rctx, cancel := readBackContext(ctx)
	defer cancel()
	_, gerr := get(rctx, kv, key)
	switch {
	case errors.Is(gerr, store.ErrNotFound):
		if isUncertain(err) {
			return nil // our purge landed
		}
		return gerr
	case gerr != nil:
		return fmt.Errorf("natsstore: delete %s: %w", key, err)
	}
	kv.conflicts.Inc()
	return &store.ConflictError{Key: key, Revision: rev}
}

// Keys implements store.Docs. It asks the stream leader (stream info
// with a subject filter, paged by nats.go) which keys have messages, then
// drops those whose latest message is a delete marker by reading each
// from the leader. nats.go's ListKeys is not used: it reads through an
// ordered consumer, which the cluster may place on a replica that lags,
// and then lists nothing or an older set (seen on the R3 cluster).
func (d *Docs) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := store.CheckPrefix(prefix); err != nil {
		return nil, err
	}
	names, err := d.keyNames(ctx, prefix)
	if err != nil {
		return nil, err
	}
	return d.live(ctx, names, len(names))
}

// keyNames asks the stream leader which keys under prefix have messages
// (stream info with a subject filter: names only, no message is read).
// A deleted key's marker is a message too: live tells them apart.
func (d *Docs) keyNames(ctx context.Context, prefix string) ([]string, error) {
	s, err := d.js.Stream(ctx, d.stream)
	if err != nil {
		return nil, fmt.Errorf("natsstore: keys: %w", err)
	}
	subjPrefix := "$KV." + d.bucket + "."
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(subjPrefix+prefix+">"))
	if err != nil {
		return nil, fmt.Errorf("natsstore: keys %s: %w", prefix, err)
	}
	names := make([]string, 0, len(info.State.Subjects))
	for subj := range info.State.Subjects {
		names = append(names, strings.TrimPrefix(subj, subjPrefix))
	}
	return names, nil
}

// live reads names in order from the leader and returns the first limit
// that hold a record, skipping those whose latest message is a delete
// marker.
func (d *Docs) live(ctx context.Context, names []string, limit int) ([]string, error) {
	var keys []string
	for _, key := range names {
		if len(keys) == limit {
			break
		}
		_, err := get(ctx, d.kv, key)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			keys = append(keys, key)
		}
	}
	return keys, nil
}

// KeysAfter implements store.Docs. The stream leader names the keys
// under prefix (stream info with a subject filter: names only, no
// message is read); they are sorted here, and from the first one after
// after each is read, in order, until limit hold a record (a purged
// key's marker lingers for MarkerTTL and is skipped). So it reads
// O(limit) records, plus the purged keys among them, whatever the
// number of keys under prefix.
func (d *Docs) KeysAfter(ctx context.Context, prefix, after string, limit int) ([]string, error) {
	defer d.m.since("docs_keys_after", time.Now())
	if err := store.CheckPrefix(prefix); err != nil {
		return nil, err
	}
	if limit < 1 {
		return nil, nil
	}
	all, err := d.keyNames(ctx, prefix)
	if err != nil {
		return nil, err
	}
	names := all[:0]
	for _, key := range all {
		if key > after {
			names = append(names, key)
		}
	}
	slices.Sort(names)
	return d.live(ctx, names, limit)
}

// readBackTimeout bounds the read that settles an uncertain write.
const readBackTimeout = 5 * time.Second

// readBackContext is the context of that read: it outlives the caller's
// (whose deadline may be what made the write uncertain), briefly, so the
// caller learns whether its write landed instead of a bare timeout after
// which a retry would conflict with its own write.
func readBackContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), readBackTimeout)
}
