package engine_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/joblog"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/record"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/storelog"
)

// TestCopyToStorelog: the data directories of earlier releases
// (testdata/datadir-vN, see TestUpgrade) copied by joblog.CopyTo into
// the cluster's record store on pebble (storelog over pebblestore) serve
// the same: the key authenticates, the account's use, the keys, the
// finished job with its output, the listing in order, and the queued
// document on the new store's queue with its account, which a pipeline
// then redacts and charges once.
func TestCopyToStorelog(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "datadir-v*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no testdata/datadir-v* (%v)", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { testCopyFrom(t, dir) })
	}
}

func openPebbleRecords(t *testing.T, dir string) *storelog.Log {
	t.Helper()
	ps, err := pebblestore.Open(dir, pebblestore.Options{LeaseTime: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sl, err := storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{LeaseTime: 3 * time.Second, Close: ps.Close})
	if err != nil {
		ps.Close()
		t.Fatal(err)
	}
	return sl
}

func testCopyFrom(t *testing.T, dir string) {
	var fx fixture
	readJSON(t, filepath.Join(dir, "fixture.json"), &fx)
	data := t.TempDir()
	copyTree(t, filepath.Join(dir, "data"), data)
	storeDir := filepath.Join(data, "store")

	jl, err := joblog.Open(filepath.Join(data, "joblog"), joblog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dst := openPebbleRecords(t, storeDir)
	n, err := jl.CopyTo(dst)
	if err != nil {
		t.Fatal(err)
	}
	jl.Close()
	dst.Close()
	if n.Accounts != 1 || n.Keys != 1 || n.Jobs != 2 || n.Docs != 2 || n.Queued != 1 {
		t.Fatalf("copied %+v, want 1 account, 1 key, 2 jobs, 2 documents, 1 queued", n)
	}

	cfg := config.Default()
	cfg.Data = data
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	settings := func() engine.Settings {
		s := wire.Engine(cfg, nil)
		s.Records = func() (record.Store, error) { return openPebbleRecords(t, storeDir), nil }
		return s
	}

	eng, err := engine.Open(settings(), nil, log)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := eng.Authenticate(ctx, fx.Key)
	if err != nil {
		t.Fatalf("the copied key does not authenticate: %v", err)
	}
	if acct.ID != fx.AccountID || acct.Email != fx.Email || acct.PagesUsed != fx.PagesUsed || acct.Plan != engine.PlanStandard {
		t.Fatalf("account %+v, fixture %+v", acct, fx)
	}
	keys, err := eng.ListKeys(ctx)
	if err != nil || len(keys) != 1 || keys[0].ID != fx.KeyID || keys[0].Revoked {
		t.Fatalf("keys %+v (%v)", keys, err)
	}
	job, err := eng.GetJob(ctx, acct, fx.FinishedJob)
	if err != nil {
		t.Fatal(err)
	}
	if d := job.Documents[0]; job.Status != engine.StatusRedacted || job.Retention != engine.Studio || d.ID != fx.FinishedDoc || d.Status != engine.StatusRedacted || d.PageCount != 1 || d.FileName != fx.FinishedName {
		t.Fatalf("finished job %+v", job)
	}
	checkOutput(t, eng, acct, fx.FinishedDoc)
	list, err := eng.ListJobs(ctx, acct, engine.ListJobsRequest{Limit: 1})
	if err != nil || len(list.Jobs) != 1 || list.Jobs[0].ID != fx.QueuedJob || list.NextCursor == "" {
		t.Fatalf("first page %+v (%v), want the queued job and a cursor", list, err)
	}
	list, err = eng.ListJobs(ctx, acct, engine.ListJobsRequest{Limit: 1, Cursor: list.NextCursor})
	if err != nil || len(list.Jobs) != 1 || list.Jobs[0].ID != fx.FinishedJob || list.NextCursor != "" {
		t.Fatalf("second page %+v (%v), want the finished job and no cursor", list, err)
	}
	q, err := eng.GetJob(ctx, acct, fx.QueuedJob)
	if err != nil || q.Status.Terminal() || q.Documents[0].ID != fx.QueuedDoc || q.Documents[0].Status != engine.StatusUploaded {
		t.Fatalf("queued job %+v (%v)", q, err)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}

	sl := openPebbleRecords(t, storeDir)
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	l, err := sl.Lease(lctx)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if e := l.Entry(); e.DocID != fx.QueuedDoc || e.JobID != fx.QueuedJob || e.AccountID != fx.AccountID {
		t.Fatalf("queue entry %+v, want document %s of job %s, account %s", e, fx.QueuedDoc, fx.QueuedJob, fx.AccountID)
	}
	if err := l.Nack(ctx, 0); err != nil {
		t.Fatal(err)
	}
	sl.Close()

	proc, err := pipeline.Open(wire.Pipeline(cfg), log, nil)
	if err != nil {
		t.Skipf("pipeline models not installed (run `make setup`): %v", err)
	}
	defer proc.Close()
	eng, err = engine.Open(settings(), proc, log)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	job = waitTerminal(t, eng, acct, fx.QueuedJob)
	if d := job.Documents[0]; d.Status != engine.StatusRedacted || d.PageCount != 1 {
		t.Fatalf("queued document ended %+v", d)
	}
	checkOutput(t, eng, acct, fx.QueuedDoc)
	if acct, err = eng.Authenticate(ctx, fx.Key); err != nil || acct.PagesUsed != fx.PagesUsed+1 {
		t.Fatalf("pages used %d after the queued page (%v), want %d", acct.PagesUsed, err, fx.PagesUsed+1)
	}
}
