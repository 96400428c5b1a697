package pebblestore_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/dirblob"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/storetest"
)

// TestRetryContract runs the contract suite through store.WithRetry, as
// the cluster engine's store is given to the job service: retrying
// changes no answer (conflicts, missing keys, stale leases, refused
// charges pass through at once) and keeps a sweeping Blobs sweeping.
func TestRetryContract(t *testing.T) {
	p := store.Retry{Transient: func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }}
	wrapped := func(t *testing.T, o pebblestore.Options) store.Store {
		return store.WithRetry(open(t, o).Bundle(nil), p)
	}
	t.Run("Docs", func(t *testing.T) {
		storetest.Docs(t, func(t *testing.T) store.Docs { return wrapped(t, pebblestore.Options{}).Docs })
	})
	t.Run("Idempotency", func(t *testing.T) {
		storetest.Idempotency(t, func(t *testing.T) store.Idempotency { return wrapped(t, pebblestore.Options{}).Idempotency })
	})
	t.Run("Ledger", func(t *testing.T) {
		storetest.Ledger(t, func(t *testing.T) store.Ledger { return wrapped(t, pebblestore.Options{}).Ledger })
	})
	t.Run("Queue", func(t *testing.T) {
		storetest.Queue(t, func(t *testing.T) storetest.QueueFixture {
			return storetest.QueueFixture{Queue: wrapped(t, pebblestore.Options{LeaseTime: leaseTime, MaxAttempts: 3}).Queue, LeaseTime: leaseTime, MaxAttempts: 3}
		})
	})
	t.Run("Singletons", func(t *testing.T) {
		storetest.Singletons(t, func(t *testing.T) store.Singletons { return wrapped(t, pebblestore.Options{}).Singletons })
	})
	t.Run("Blobs", func(t *testing.T) {
		storetest.Blobs(t, func(t *testing.T) storetest.BlobsFixture {
			d, err := dirblob.Open(filepath.Join(t.TempDir(), "blobs"))
			if err != nil {
				t.Fatal(err)
			}
			return storetest.BlobsFixture{Blobs: store.WithRetry(store.Store{Blobs: d}, p).Blobs}
		})
	})
}
