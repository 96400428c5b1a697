package jobs

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/redactd/redactd/engine/joblog"
	"github.com/redactd/redactd/engine/record"
)

// The record store.
//
// The job service keeps its records in a record.Store. A one-node
// install uses the pebble job log at DATA/joblog (joblog, through
// pebbleRecords); a cluster node is given a store on the shared engine
// (Settings.Records: engine/storelog on NATS JetStream). The service
// code is the same on both: every state change is a transition
// (transition.go) whose batch the store commits; what differs is the
// ready queue (a local index the dispatcher scans, or leases handed out
// by the shared queue: dispatch.go) and what a commit may answer (a
// shared store reports a lost race as a record.ConflictError, which
// change retries).

// pebbleRecords is the job log as a record.Store.
type pebbleRecords struct{ *joblog.Log }

func (p pebbleRecords) NewBatch() record.Batch { return p.Log.NewBatch() }

var (
	_ record.Store         = pebbleRecords{}
	_ record.LocalQueue    = pebbleRecords{}
	_ record.LegacySecrets = pebbleRecords{}
	_ record.QueueBatch    = (*joblog.Batch)(nil)
	_ record.ExpiryBatch   = (*joblog.Batch)(nil)
)

// dequeue takes a local queue's entry off in b; a shared queue's entry
// is settled by its lease (dispatch.go), so its batch has nothing to do.
func dequeue(b record.Batch, at int64, docID string) {
	if qb, ok := b.(record.QueueBatch); ok {
		qb.Dequeue(at, docID)
	}
}

// deleteQueued takes a stale entry off a local queue in b.
func deleteQueued(b record.Batch, e record.QueueEntry) {
	if qb, ok := b.(record.QueueBatch); ok {
		qb.DeleteQueued(e)
	}
}

// setExpiry moves a job's entry in a store's retention index, where the
// store keeps one (ExpiryBatch); the caller sets the job's ExpiresAt to
// next in the same batch, which is all a store without one reads.
func setExpiry(b record.Batch, jobID string, old, next time.Time) {
	if eb, ok := b.(record.ExpiryBatch); ok {
		eb.SetExpiry(jobID, old, next)
	}
}

// deleteExpiry removes a stale entry of a store's retention index.
func deleteExpiry(b record.Batch, e record.RetentionEntry) {
	if eb, ok := b.(record.ExpiryBatch); ok {
		eb.DeleteExpiry(e)
	}
}

// openRecords returns the store the settings name: Settings.Records
// when set, else the job log under the data directory.
func openRecords(cfg Settings, o joblog.Options) (record.Store, error) {
	if cfg.Records != nil {
		rs, err := cfg.Records()
		if err != nil {
			return nil, fmt.Errorf("engine: records: %w", err)
		}
		return rs, nil
	}
	jl, err := joblog.Open(filepath.Join(cfg.Data, "joblog"), o)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return pebbleRecords{jl}, nil
}
