package natsstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/engine/store"
)

// Idempotency is store.Idempotency on the KV bucket PREFIX-idem, written
// with Create: a JetStream dedupe window (Nats-Msg-Id) lasts minutes, a
// client may retry for days, so the key must live as long as its job.
type Idempotency struct {
	kv *bucket
}

var _ store.Idempotency = (*Idempotency)(nil)

// OpenIdempotency creates or binds the idempotency bucket.
func OpenIdempotency(ctx context.Context, js jetstream.JetStream, o Options) (*Idempotency, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	kv, err := kvBucket(ctx, js, o, "idem")
	if err != nil {
		return nil, err
	}
	return &Idempotency{kv: kv}, nil
}

// idemKey maps a free-form key to a KV key: its SHA-256, so any bytes a
// client sends fit, and none appear in the cluster's subjects.
func idemKey(key string) string {
	s := sha256.Sum256([]byte(key))
	return "k." + hex.EncodeToString(s[:])
}

// Claim implements store.Idempotency.
func (s *Idempotency) Claim(ctx context.Context, key string, value []byte) ([]byte, bool, error) {
	k := idemKey(key)
	for range maxRetries {
		_, err := create(ctx, s.kv, k, value)
		if err == nil {
			return value, true, nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return nil, false, err
		}
		r, err := get(ctx, s.kv, k)
		if errors.Is(err, store.ErrNotFound) {
			continue // released between our Create and Get: try again
		}
		if err != nil {
			return nil, false, err
		}
		return r.Value, false, nil
	}
	return nil, false, errBusy
}

// Get implements store.Idempotency.
func (s *Idempotency) Get(ctx context.Context, key string) ([]byte, error) {
	r, err := get(ctx, s.kv, idemKey(key))
	if errors.Is(err, store.ErrNotFound) {
		return nil, &store.NotFoundError{Key: key}
	}
	return r.Value, err
}

// Release implements store.Idempotency.
func (s *Idempotency) Release(ctx context.Context, key string) error {
	if err := s.kv.purge(ctx, idemKey(key)); err != nil {
		return fmt.Errorf("natsstore: release: %w", err)
	}
	return nil
}
