package natsstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestIsConflict pins the errors that mean "lost a compare-and-set": a
// single server's code 10071, a replicated stream's 10164 (which older
// clients did not map to ErrKeyRevisionMismatch), wrapped or not, and
// nothing else, so a timeout is never taken for a conflict.
func TestIsConflict(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&jetstream.APIError{ErrorCode: jetstream.JSErrCodeStreamWrongLastSequence, Code: 400}, true},
		{&jetstream.APIError{ErrorCode: jetstream.JSErrCodeStreamWrongLastSequenceConstant, Code: 400}, true},
		{fmt.Errorf("put: %w", &jetstream.APIError{ErrorCode: jetstream.JSErrCodeStreamWrongLastSequenceConstant}), true},
		{jetstream.ErrKeyExists, true},
		{fmt.Errorf("x: %w", jetstream.ErrKeyRevisionMismatch), true},
		{&jetstream.APIError{ErrorCode: jetstream.JSErrCodeStreamNotFound, Code: 404}, false},
		{nats.ErrTimeout, false},
		{context.DeadlineExceeded, false},
		{jetstream.ErrKeyNotFound, false},
	} {
		if got := isConflict(c.err); got != c.want {
			t.Errorf("isConflict(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if !isUncertain(fmt.Errorf("publish: %w", nats.ErrTimeout)) || isUncertain(jetstream.ErrKeyExists) {
		t.Error("isUncertain misclassifies")
	}
}
