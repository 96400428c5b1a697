package storelog_test

import (
	"testing"

	"github.com/redactd/redactd/engine/store/record/recordtest"
)

// TestReviewGrantRevisions: as joblog's: a grant is changed and deleted
// only at the revision read (the engine's compare-and-set), so of two
// nodes redeeming one link one wins.
func TestReviewGrantRevisions(t *testing.T) {
	recordtest.ReviewStore(t, open(t))
}
