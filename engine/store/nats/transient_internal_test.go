package natsstore

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/engine/store"
)

// TestTransient: what a leader election or a reconnect returns is
// transient; answers (conflicts, missing keys, a refused charge), a
// closed connection and other API errors are not.
func TestTransient(t *testing.T) {
	api := func(code jetstream.ErrorCode) error {
		return fmt.Errorf("natsstore: create k: %w", &jetstream.APIError{Code: 503, ErrorCode: code, Description: "x"})
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("natsstore: get k: %w", nats.ErrTimeout), true},
		{context.DeadlineExceeded, true},
		{nats.ErrNoResponders, true},
		{fmt.Errorf("natsstore: put: %w", jetstream.ErrNoStreamResponse), true},
		{fmt.Errorf("natsstore: put: %w", jetstream.ErrAsyncPublishTimeout), true}, // an Object Store chunk's ack
		{nats.ErrDisconnected, true},
		{nats.ErrConnectionReconnecting, true},
		{api(10008), true}, // JetStream system temporarily unavailable
		{api(10009), true}, // cluster can not handle request (no leader)
		{api(10118), true}, // stream offline
		{nil, false},
		{nats.ErrConnectionClosed, false},
		{context.Canceled, false},
		{api(jetstream.JSErrCodeStreamWrongLastSequence), false},
		{api(jetstream.JSErrCodeStreamNotFound), false},
		{api(10047), false}, // insufficient storage: not a moment's
		{jetstream.ErrKeyExists, false},
		{jetstream.ErrKeyNotFound, false},
		{&store.ConflictError{Key: "k"}, false},
		{store.ErrQuota, false},
		{errBusy, false},
		{errors.New("natsstore: ledger record x: bad json"), false},
	} {
		if got := Transient(tc.err); got != tc.want {
			t.Errorf("Transient(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}
