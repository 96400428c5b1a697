package engine

import (
	"fmt"
	"path/filepath"

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
	_ record.Store      = pebbleRecords{}
	_ record.LocalQueue = pebbleRecords{}
)

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
