package jobs

import (
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/redactd/redactd/engine/store/record"
)

// flakyRecords is the node's store with commits that fail on demand: the
// next failCharges commits that carry a quota charge (the first progress
// report of a document) return an error, as a cluster's store does
// during a leader election.
type flakyRecords struct {
	nodeRecords
	failCharges atomic.Int32
	failed      atomic.Int32
}

func (f *flakyRecords) NewBatch() record.Batch {
	return &flakyBatch{Batch: f.nodeRecords.NewBatch(), f: f}
}

// flakyBatch is the store's batch with a failing Commit.
type flakyBatch struct {
	record.Batch
	f       *flakyRecords
	charges bool
}

func (b *flakyBatch) Charge(a *record.Account, docID string, pages int64) {
	b.charges = true
	b.Batch.Charge(a, docID, pages)
}

func (b *flakyBatch) Commit(sync bool) error {
	if b.charges && b.f.failCharges.Add(-1) >= 0 {
		b.f.failed.Add(1)
		b.Batch.Discard()
		return errors.New("store unavailable (injected)")
	}
	return b.Batch.Commit(sync)
}

// TestRecordStoreFailureRetries: a record-store failure while a document
// is processed (here its charge's commit) is the store's, not the
// document's: the attempt is given back and the document is processed
// again and redacted, charged once.
func TestRecordStoreFailureRetries(t *testing.T) {
	flaky := &flakyRecords{}
	flaky.failCharges.Store(1)
	v := newEnv(t, func(s *Settings) {
		s.Records = func() (record.Store, error) {
			sl, err := openNodeStore(filepath.Join(s.Data, storeDir))
			if err != nil {
				return nil, err
			}
			flaky.nodeRecords = nodeRecords{Store: sl, LeasedQueue: sl, Roles: sl, ChargeReader: sl, ReviewStore: sl}
			return flaky, nil
		}
	})
	a, _ := v.account("flaky@example.com", PlanStandard, 0)
	j := v.create(a, pdfFile("a.pdf", 2))
	done := v.waitDoneWithin(a, j.ID, 30)
	if d := done.Documents[0]; d.Status != StatusRedacted {
		t.Fatalf("document after a store failure: %s (%s)", d.Status, d.ErrorMessage)
	}
	if flaky.failed.Load() != 1 {
		t.Fatalf("%d commits failed, want 1", flaky.failed.Load())
	}
	if used := v.pagesUsed(a); used != 2 {
		t.Fatalf("pages used %d, want 2 (charged once)", used)
	}
	if v.proc.callCount(j.Documents[0].ID) != 2 {
		t.Fatalf("processed %d times, want 2 (the failed attempt, then the retry)", v.proc.callCount(j.Documents[0].ID))
	}
}
