package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/redactd/redactd/engine/store"
)

// TestStoreUnavailable: a store call whose retries ran out, on their own
// budget or on the job log's deadline, is a 503 that says the storage is
// temporarily unavailable, never the 500 of an unknown error; a
// cancellation is still the caller's.
func TestStoreUnavailable(t *testing.T) {
	e := &core{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, err := range []error{
		&store.UnavailableError{Op: "docs_create", Err: errors.New("no leader")},
		fmt.Errorf("storelog: job.x: %w", &store.UnavailableError{Op: "docs_create", Err: context.DeadlineExceeded}),
	} {
		got := e.apiErr("create job", err)
		var ee *Error
		if !errors.Is(got, ErrUnavailable) || !errors.As(got, &ee) || ee.Message() != "storage temporarily unavailable" {
			t.Errorf("apiErr(%v) = %v; want ErrUnavailable, storage temporarily unavailable", err, got)
		}
	}
	if got := e.apiErr("create job", context.Canceled); got != context.Canceled {
		t.Errorf("apiErr(canceled) = %v", got)
	}
}
