// Package storetest is the contract suite every storage engine passes:
// the single-node engine (pebble plus local files) and the cluster engine
// (engine/store/nats against a real 3-server JetStream cluster). Each
// function takes a factory that returns a fresh, empty implementation for
// one test and runs the contract as subtests, so an engine's test file is
// a few lines:
//
//	func TestDocs(t *testing.T) { storetest.Docs(t, func(t *testing.T) store.Docs { … }) }
//
// It is a test kit imported only by _test.go files; it imports testing.
// The suite checks behaviour a job service relies on (conflicts, fences,
// charge-once, atomic blobs), never timing: waits are bounded by the
// implementation's own lease time.
package storetest

import (
	"context"
	"errors"
	"testing"
	"time"
)

// timeout bounds one contract step that should not block.
const timeout = 30 * time.Second

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	t.Cleanup(cancel)
	return ctx
}

// wantErr fails unless err matches target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error %v, want %v", what, err, target)
	}
}
