package jobs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/store/joblog"
	"github.com/redactd/redactd/internal/testkit"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Upgrade compatibility: engine/jobs/testdata/datadir-vN holds a data directory
// written by a release whose job log had schema version N. Every later
// release must open it (migrating when the layout changed), authenticate
// its key, show its jobs and outputs, and finish the document it left
// queued. When the layout changes, add the migration and a new datadir
// (go test ./engine/jobs -run TestUpgrade -regen, after bumping the name
// below), and keep the old directories.

var regen = flag.Bool("regen", false, "rewrite engine/jobs/testdata/"+currentDatadir+" with the current code (needs `make setup`)")

// currentDatadir is the test data this release writes with -regen.
const currentDatadir = "datadir-v2"

// fixture describes a test data directory: what was put in it.
type fixture struct {
	SchemaVersion int    `json:"schema_version"`
	Email         string `json:"email"`
	Key           string `json:"key"` // API key (test data, not a secret)
	KeyID         string `json:"key_id"`
	AccountID     string `json:"account_id"`
	FinishedJob   string `json:"finished_job"`
	FinishedDoc   string `json:"finished_doc"`
	FinishedName  string `json:"finished_name"`
	QueuedJob     string `json:"queued_job"`
	QueuedDoc     string `json:"queued_doc"`
	PagesUsed     int64  `json:"pages_used"`
}

func TestUpgrade(t *testing.T) {
	if *regen {
		regenerate(t, filepath.Join("testdata", currentDatadir))
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "datadir-v*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no testdata/datadir-v* (%v)", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { testUpgradeFrom(t, dir) })
	}
}

func testUpgradeFrom(t *testing.T, dir string) {
	var fx fixture
	readJSON(t, filepath.Join(dir, "fixture.json"), &fx)
	if fx.SchemaVersion > joblog.SchemaVersion {
		t.Fatalf("%s has schema version %d, newer than this code's %d", dir, fx.SchemaVersion, joblog.SchemaVersion)
	}
	data := t.TempDir()
	testkit.CopyTree(t, filepath.Join(dir, "data"), data)

	// The stored layout is the fixture's, before anything opens it.
	jl, err := joblog.Open(filepath.Join(data, "joblog"), joblog.Options{Version: fx.SchemaVersion, Migrations: []joblog.Migration{}})
	if err != nil {
		t.Fatalf("joblog at its own version %d: %v", fx.SchemaVersion, err)
	}
	if v, err := jl.SchemaVersionOf(); err != nil || v != fx.SchemaVersion {
		t.Fatalf("stored schema version %d (%v), fixture says %d", v, err, fx.SchemaVersion)
	}
	if err := jl.Close(); err != nil {
		t.Fatal(err)
	}

	cfg := config.Default()
	cfg.Data = data
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()

	t.Run("read", func(t *testing.T) {
		eng, err := jobs.Open(wire.Engine(cfg, nil), nil, log)
		if err != nil {
			t.Fatalf("open %s with the current engine: %v", dir, err)
		}
		defer eng.Close()
		acct, err := eng.Authenticate(ctx, fx.Key)
		if err != nil {
			t.Fatalf("the stored key no longer authenticates: %v", err)
		}
		if acct.ID != fx.AccountID || acct.Email != fx.Email || acct.PagesUsed != fx.PagesUsed || acct.Plan != jobs.PlanStandard {
			t.Fatalf("account %+v, fixture %+v", acct, fx)
		}
		if _, err := eng.Authenticate(ctx, fx.Key+"x"); err == nil {
			t.Fatal("a wrong key authenticates")
		}
		keys, err := eng.ListKeys(ctx)
		if err != nil || len(keys) != 1 || keys[0].ID != fx.KeyID || keys[0].Revoked {
			t.Fatalf("keys %+v (%v)", keys, err)
		}

		job, err := eng.GetJob(ctx, acct, fx.FinishedJob)
		if err != nil {
			t.Fatal(err)
		}
		if job.Status != jobs.StatusRedacted || job.Retention != jobs.Studio || len(job.Documents) != 1 {
			t.Fatalf("finished job %+v", job)
		}
		d := job.Documents[0]
		if d.ID != fx.FinishedDoc || d.Status != jobs.StatusRedacted || d.PageCount != 1 || d.FileName != fx.FinishedName {
			t.Fatalf("finished document %+v", d)
		}
		checkOutput(t, eng, acct, fx.FinishedDoc)
		masks := filepath.Join(data, "files", fx.FinishedJob, fx.FinishedDoc+".masks.json")
		var ms []map[string]any
		readJSON(t, masks, &ms)
		if len(ms) == 0 {
			t.Fatal("studio masks file lists no masks")
		}

		q, err := eng.GetJob(ctx, acct, fx.QueuedJob)
		if err != nil {
			t.Fatal(err)
		}
		// Listing (schema 2) shows both jobs of the older layout, newest first.
		list, err := eng.ListJobs(ctx, acct, jobs.ListJobsRequest{Limit: 1})
		if err != nil || len(list.Jobs) != 1 || list.Jobs[0].ID != fx.QueuedJob || list.NextCursor == "" {
			t.Fatalf("first page %+v (%v), want the queued job and a cursor", list, err)
		}
		list, err = eng.ListJobs(ctx, acct, jobs.ListJobsRequest{Limit: 1, Cursor: list.NextCursor})
		if err != nil || len(list.Jobs) != 1 || list.Jobs[0].ID != fx.FinishedJob || list.NextCursor != "" {
			t.Fatalf("second page %+v (%v), want the finished job and no cursor", list, err)
		}
		if q.Status.Terminal() || len(q.Documents) != 1 || q.Documents[0].ID != fx.QueuedDoc || q.Documents[0].Status != jobs.StatusUploaded {
			t.Fatalf("queued job %+v", q)
		}
	})

	t.Run("process queued", func(t *testing.T) {
		proc, err := pipeline.Open(wire.Pipeline(cfg), log, nil)
		if err != nil {
			t.Skipf("pipeline models not installed (run `make setup`): %v", err)
		}
		defer proc.Close()
		eng, err := jobs.Open(wire.Engine(cfg, nil), proc, log)
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		acct, err := eng.Authenticate(ctx, fx.Key)
		if err != nil {
			t.Fatal(err)
		}
		job := waitTerminal(t, eng, acct, fx.QueuedJob)
		if d := job.Documents[0]; d.Status != jobs.StatusRedacted || d.PageCount != 1 {
			t.Fatalf("queued document ended %+v", d)
		}
		checkOutput(t, eng, acct, fx.QueuedDoc)
		if acct, err = eng.Authenticate(ctx, fx.Key); err != nil || acct.PagesUsed != fx.PagesUsed+1 {
			t.Fatalf("pages used %d after the queued page (%v), want %d", acct.PagesUsed, err, fx.PagesUsed+1)
		}
		// The finished job is untouched by reprocessing or the janitor.
		if j, err := eng.GetJob(ctx, acct, fx.FinishedJob); err != nil || j.Status != jobs.StatusRedacted {
			t.Fatalf("finished job after restart: %+v %v", j, err)
		}
		if err := eng.Close(); err != nil {
			t.Fatal(err)
		}
		// Moved to the record store on pebble, at its current layout; the
		// job log kept beside it, unread, for a return to the release
		// before.
		if _, err := os.Stat(filepath.Join(data, "joblog")); !os.IsNotExist(err) {
			t.Fatalf("DATA/joblog after the upgrade: %v", err)
		}
		if _, err := os.Stat(filepath.Join(data, "joblog.migrated")); err != nil {
			t.Fatalf("the job log was not kept: %v", err)
		}
		sl := openPebbleRecords(t, filepath.Join(data, "store"))
		defer sl.Close()
		if _, err := sl.SchemaVersionOf(); err != nil {
			t.Fatalf("DATA/store after the upgrade: %v", err)
		}
	})
}

func checkOutput(t *testing.T, eng *jobs.Engine, acct *jobs.Account, docID string) {
	t.Helper()
	rc, size, err := eng.Output(context.Background(), acct, docID)
	if err != nil {
		t.Fatalf("output of %s: %v", docID, err)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || int64(len(b)) != size {
		t.Fatalf("read output: %d of %d bytes, %v", len(b), size, err)
	}
	if err := pdfout.Verify(bytes.NewReader(b), size); err != nil {
		t.Fatalf("output of %s fails verification: %v", docID, err)
	}
}

func waitTerminal(t *testing.T, eng *jobs.Engine, acct *jobs.Account, jobID string) *jobs.Job {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		j, err := eng.GetJob(context.Background(), acct, jobID)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status.Terminal() {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s not terminal: %+v", jobID, j)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// regenerate writes a fresh test data directory into dir with the current
// code and the real pipeline: one standard account with one key, one
// finished studio job (original, output, masks) and one job whose document
// is queued but never processed (written with no processor running).
// Studio jobs are kept 100 years so the data never expires under the test.
func regenerate(t *testing.T, dir string) {
	data := t.TempDir()
	cfg := config.Default()
	cfg.Data = data
	cfg.StudioTTL = 100 * 365 * 24 * time.Hour
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()

	proc, err := pipeline.Open(wire.Pipeline(cfg), log, nil)
	if err != nil {
		t.Fatalf("-regen needs the real pipeline (run `make setup`): %v", err)
	}
	eng, err := jobs.Open(wire.Engine(cfg, nil), proc, log)
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{SchemaVersion: joblog.SchemaVersion, Email: "upgrade@example.com", FinishedName: "contract.pdf"}
	key, info, err := eng.CreateKey(ctx, fx.Email, jobs.PlanStandard, 0)
	if err != nil {
		t.Fatal(err)
	}
	fx.Key, fx.KeyID, fx.AccountID = key, info.ID, info.AccountID
	acct, err := eng.Authenticate(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	job, err := eng.CreateJob(ctx, acct, jobs.CreateJobRequest{
		Files:     []jobs.File{{Name: fx.FinishedName, Data: samplePDF("Contract with Jane Doe, jane.doe@example.com, Project Falcon")}},
		Options:   jobs.Options{Included: []string{"Project Falcon"}},
		Retention: jobs.Studio,
	})
	if err != nil {
		t.Fatal(err)
	}
	fx.FinishedJob, fx.FinishedDoc = job.ID, job.Documents[0].ID
	if j := waitTerminal(t, eng, acct, job.ID); j.Documents[0].Status != jobs.StatusRedacted {
		t.Fatalf("finished job: %+v", j)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	proc.Close()

	// Admin mode: the document is queued and stays so.
	eng, err = jobs.Open(wire.Engine(cfg, nil), nil, log)
	if err != nil {
		t.Fatal(err)
	}
	if acct, err = eng.Authenticate(ctx, key); err != nil {
		t.Fatal(err)
	}
	fx.PagesUsed = acct.PagesUsed
	job, err = eng.CreateJob(ctx, acct, jobs.CreateJobRequest{
		Files:     []jobs.File{{Name: "queued.pdf", Data: samplePDF("Call +49 30 1234567 or write to max.mustermann@example.org")}},
		Retention: jobs.Studio,
	})
	if err != nil {
		t.Fatal(err)
	}
	fx.QueuedJob, fx.QueuedDoc = job.ID, job.Documents[0].ID
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}

	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	testkit.CopyTree(t, data, filepath.Join(dir, "data"))
	os.Remove(filepath.Join(dir, "data", "joblog", "LOCK"))
	b, err := json.MarshalIndent(fx, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fixture.json"), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", dir)
}

func samplePDF(line string) []byte {
	d := testpdf.New()
	p := d.AddPage(420, 200, 0)
	p.Text(30, 150, 11, line)
	return d.Bytes()
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
