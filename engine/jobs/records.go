package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/redactd/redactd/engine/store/joblog"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
)

// The record store.
//
// The job service keeps its records in a record.Store: engine/store/storelog
// on an engine/store engine. A one-node install runs it over pebble at
// DATA/store (engine/store/pebblestore, openRecords below), moved there
// once from the job log of earlier releases (migrate.go); a cluster node
// is given it on the shared engine (Settings.Records: NATS JetStream).
// The service code is the same on both: every state change is a
// transition (transition.go) whose batch the store commits, the ready
// queue is the store's leases (dispatch.go), and a lost race is a
// record.ConflictError, which change retries. What a node that has its
// store to itself does beyond a cluster node (alone) is recover at once
// from what a crash left (janitor.go: recover) and keep its upload
// secret and audit key in files of its own (nodeRecords).

// pebbleRecords is the job log as a record.Store: the store of releases
// before the move, which tests still open to build their data
// directories.
type pebbleRecords struct{ *joblog.Log }

func (p pebbleRecords) NewBatch() record.Batch { return p.Log.NewBatch() }

var (
	_ record.Store         = pebbleRecords{}
	_ record.LocalQueue    = pebbleRecords{}
	_ record.LegacySecrets = pebbleRecords{}
	_ record.QueueBatch    = (*joblog.Batch)(nil)
	_ record.ExpiryBatch   = (*joblog.Batch)(nil)
)

// nodeRecords is a single node's store: storelog's records, queue,
// roles, ledger and review grants, but not its shared upload secret and
// audit key (record.SecretKeeper, record.AuditKeyKeeper). A node keeps
// those in DATA/upload-secret and DATA/audit-key, as before the move, so
// upload links issued before an upgrade keep working and review audit
// logs written before it still verify.
type nodeRecords struct {
	record.Store
	record.LeasedQueue
	record.Roles
	record.ChargeReader
	record.ReviewStore
}

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
// when set, else the node's own store at DATA/store, moved from the job
// log first where an earlier release left one (exposed: whether that
// job log was readable by others, for its legacy upload secret). alone
// reports the node's own store.
func openRecords(cfg Settings, log *slog.Logger, exposed bool) (rs record.Store, alone bool, err error) {
	if cfg.Records != nil {
		rs, err := cfg.Records()
		if err != nil {
			return nil, false, fmt.Errorf("engine: records: %w", err)
		}
		return rs, false, nil
	}
	if _, err := migrateJobLog(cfg.Data, log, exposed); err != nil {
		return nil, false, fmt.Errorf("engine: moving the job log to %s: %w", storeDir, err)
	}
	sl, err := openNodeStore(filepath.Join(cfg.Data, storeDir))
	if err != nil {
		return nil, false, fmt.Errorf("engine: %w", err)
	}
	return nodeRecords{Store: sl, LeasedQueue: sl, Roles: sl, ChargeReader: sl, ReviewStore: sl}, true, nil
}

// openNodeStore opens storelog over pebble in dir, one log sync per
// commit (pebblestore.Options.DeferSync, storelog.Options.Sync).
func openNodeStore(dir string) (*storelog.Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	ps, err := pebblestore.Open(dir, pebblestore.Options{DeferSync: true})
	if err != nil {
		return nil, err
	}
	sl, err := storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{Close: ps.Close, Sync: ps.Sync})
	if err != nil {
		ps.Close()
		return nil, err
	}
	return sl, nil
}
