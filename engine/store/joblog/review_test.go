package joblog

import (
	"testing"

	"github.com/redactd/redactd/engine/store/record/recordtest"
)

// TestReviewGrantRevisions: a grant is changed and deleted only as read:
// a stale copy is a conflict, a deleted one not found, so one of two
// deletes of one read wins; creating a taken hash is a conflict.
func TestReviewGrantRevisions(t *testing.T) {
	recordtest.ReviewStore(t, openT(t, t.TempDir()))
}
