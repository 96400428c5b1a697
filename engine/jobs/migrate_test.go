package jobs_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/store/joblog"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
	"github.com/redactd/redactd/internal/testkit"
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
	testkit.CopyTree(t, filepath.Join(dir, "data"), data)
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
	checkStorelog(t, fx, data, storeDir)
}

// checkStorelog checks a copy of fixture fx's records in the record
// store at storeDir, with the engine on it and the data directory's
// files: what TestUpgrade checks on the job log.
func checkStorelog(t *testing.T, fx fixture, data, storeDir string) {
	t.Helper()

	cfg := config.Default()
	cfg.Data = data
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	settings := func() jobs.Settings {
		s := wire.Engine(cfg, nil)
		s.Records = func() (record.Store, error) { return openPebbleRecords(t, storeDir), nil }
		return s
	}

	eng, err := jobs.Open(settings(), nil, log)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := eng.Authenticate(ctx, fx.Key)
	if err != nil {
		t.Fatalf("the copied key does not authenticate: %v", err)
	}
	if acct.ID != fx.AccountID || acct.Email != fx.Email || acct.PagesUsed != fx.PagesUsed || acct.Plan != jobs.PlanStandard {
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
	if d := job.Documents[0]; job.Status != jobs.StatusRedacted || job.Retention != jobs.Studio || d.ID != fx.FinishedDoc || d.Status != jobs.StatusRedacted || d.PageCount != 1 || d.FileName != fx.FinishedName {
		t.Fatalf("finished job %+v", job)
	}
	checkOutput(t, eng, acct, fx.FinishedDoc)
	list, err := eng.ListJobs(ctx, acct, jobs.ListJobsRequest{Limit: 1})
	if err != nil || len(list.Jobs) != 1 || list.Jobs[0].ID != fx.QueuedJob || list.NextCursor == "" {
		t.Fatalf("first page %+v (%v), want the queued job and a cursor", list, err)
	}
	list, err = eng.ListJobs(ctx, acct, jobs.ListJobsRequest{Limit: 1, Cursor: list.NextCursor})
	if err != nil || len(list.Jobs) != 1 || list.Jobs[0].ID != fx.FinishedJob || list.NextCursor != "" {
		t.Fatalf("second page %+v (%v), want the finished job and no cursor", list, err)
	}
	q, err := eng.GetJob(ctx, acct, fx.QueuedJob)
	if err != nil || q.Status.Terminal() || q.Documents[0].ID != fx.QueuedDoc || q.Documents[0].Status != jobs.StatusUploaded {
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
	eng, err = jobs.Open(settings(), proc, log)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	job = waitTerminal(t, eng, acct, fx.QueuedJob)
	if d := job.Documents[0]; d.Status != jobs.StatusRedacted || d.PageCount != 1 {
		t.Fatalf("queued document ended %+v", d)
	}
	checkOutput(t, eng, acct, fx.QueuedDoc)
	if acct, err = eng.Authenticate(ctx, fx.Key); err != nil || acct.PagesUsed != fx.PagesUsed+1 {
		t.Fatalf("pages used %d after the queued page (%v), want %d", acct.PagesUsed, err, fx.PagesUsed+1)
	}
}

// TestMigrateJobLog: a data directory of an earlier release moves to
// the record store on pebble once: a partial copy that a crash left is
// made again, the copy serves what the job log held (checkStorelog), the
// job log is kept aside, a second start moves nothing, and a crash
// after the copy's rename only puts the job log aside.
func TestMigrateJobLog(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "datadir-v*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no testdata/datadir-v* (%v)", err)
	}
	log := slog.New(slog.DiscardHandler)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var fx fixture
			readJSON(t, filepath.Join(dir, "fixture.json"), &fx)
			data := t.TempDir()
			testkit.CopyTree(t, filepath.Join(dir, "data"), data)
			at := func(name string) string { return filepath.Join(data, name) }
			exists := func(name string) bool { _, err := os.Stat(at(name)); return err == nil }
			// A crash half-way through an earlier copy.
			if err := os.MkdirAll(at("store.tmp"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(at("store.tmp"), "CURRENT"), []byte("partial"), 0o600); err != nil {
				t.Fatal(err)
			}
			moved, err := jobs.MigrateJobLog(data, log)
			if err != nil || !moved {
				t.Fatalf("migrate = %v, %v; want true", moved, err)
			}
			if !exists("store") || exists("store.tmp") || exists("joblog") || !exists("joblog.migrated") {
				t.Fatalf("after the move: store %v, store.tmp %v, joblog %v, joblog.migrated %v; want only store and joblog.migrated",
					exists("store"), exists("store.tmp"), exists("joblog"), exists("joblog.migrated"))
			}
			if moved, err := jobs.MigrateJobLog(data, log); err != nil || moved {
				t.Fatalf("second start: migrate = %v, %v; want false", moved, err)
			}
			// A crash after the rename of the copy, before the job log's.
			if err := os.Rename(at("joblog.migrated"), at("joblog")); err != nil {
				t.Fatal(err)
			}
			if moved, err := jobs.MigrateJobLog(data, log); err != nil || moved || exists("joblog") || !exists("joblog.migrated") {
				t.Fatalf("after a crash past the copy: migrate = %v, %v, joblog %v; want false, the job log aside", moved, err, exists("joblog"))
			}
			checkStorelog(t, fx, data, at("store"))
			// The upload secret an earlier release kept in its job log is
			// the file's now, so its upload URLs still verify.
			jl, err := joblog.Open(at("joblog.migrated"), joblog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			legacy, ok, err := jl.LegacyUploadSecret()
			jl.Close()
			if err != nil {
				t.Fatal(err)
			}
			if file, ferr := os.ReadFile(at("upload-secret")); ok && (ferr != nil || !bytes.Equal(file, legacy)) {
				t.Fatalf("upload secret file %x (%v), the job log held %x", file, ferr, legacy)
			}
			t.Logf("job log held an upload secret: %v", ok)
		})
	}
	t.Run("new data directory", func(t *testing.T) {
		data := t.TempDir()
		if moved, err := jobs.MigrateJobLog(data, log); err != nil || moved {
			t.Fatalf("migrate = %v, %v; want false", moved, err)
		}
		if ents, _ := os.ReadDir(data); len(ents) != 0 {
			t.Fatalf("a new data directory got %d entries", len(ents))
		}
	})
}
