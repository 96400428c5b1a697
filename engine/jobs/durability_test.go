package jobs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// keysOf lists the job-log keys that mention any of ids.
func (v *env) keysOf(ids ...string) []string {
	v.t.Helper()
	all, err := v.e.jl.AllKeys()
	if err != nil {
		v.t.Fatal(err)
	}
	var out []string
	for _, k := range all {
		for _, id := range ids {
			if strings.Contains(k, id) {
				out = append(out, k)
			}
		}
	}
	return out
}

func TestDeleteJob(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("del@example.com", "standard", 0)
	j, err := v.e.CreateJob(bg, a, CreateJobRequest{
		Files:          []File{pdfFile("a.pdf", 2, "block"), pdfFile("b.pdf", 1)},
		IdempotencyKey: "once",
		Retention:      Studio,
	})
	if err != nil {
		t.Fatal(err)
	}
	blocked := j.Documents[0].ID
	for id := range v.proc.started {
		if id == blocked {
			break
		}
	}
	waitFor(t, "second document", func() bool {
		j, _ := v.e.GetJob(bg, a, j.ID)
		return j.Documents[1].Status == StatusRedacted
	})
	if err := v.e.DeleteJob(bg, a, j.ID); err != nil {
		t.Fatal(err)
	}
	if n := v.proc.canceled.Load(); n != 1 {
		t.Fatalf("in-flight processing canceled %d times, want 1", n)
	}
	if _, err := os.Stat(v.e.files.jobDir(j.ID)); !os.IsNotExist(err) {
		t.Fatalf("job directory still there: %v %v", err, v.jobFiles(j.ID))
	}
	if keys := v.keysOf(j.ID, j.Documents[0].ID, j.Documents[1].ID, "once"); len(keys) != 0 {
		t.Fatalf("records left: %q", keys)
	}
	if _, err := v.e.GetJob(bg, a, j.ID); err != ErrNotFound {
		t.Fatalf("GetJob after delete: %v", err)
	}
	if _, _, err := v.e.Output(bg, a, j.Documents[1].ID); err != ErrNotFound {
		t.Fatalf("Output after delete: %v", err)
	}
	if err := v.e.DeleteJob(bg, a, j.ID); err != ErrNotFound {
		t.Fatalf("second delete: %v", err)
	}
	// The redacted document stays charged; the canceled one, charged when
	// its page count was known, is refunded.
	if used := v.pagesUsed(a); used != 1 {
		t.Fatalf("pages used = %d, want 1", used)
	}
	// The idempotency key is free again.
	j2, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("c.pdf", 1)}, IdempotencyKey: "once"})
	if err != nil || j2.ID == j.ID {
		t.Fatalf("reuse of the key: %+v %v", j2, err)
	}
	v.waitDone(a, j2.ID)
	// Nothing of the deleted job came back.
	time.Sleep(20 * time.Millisecond)
	if _, err := os.Stat(v.e.files.jobDir(j.ID)); !os.IsNotExist(err) {
		t.Fatalf("job directory resurrected")
	}
	if n, _ := v.e.jl.Count("queue"); n != 0 {
		t.Fatalf("queue entries left: %d", n)
	}
}

func TestRetention(t *testing.T) {
	tests := []struct {
		retention Retention
		keep      time.Duration // from completion
		files     []string      // per document, once done
	}{
		{Ephemeral, 24 * time.Hour, []string{".pdf", ".report.json"}},
		{Studio, 720 * time.Hour, []string{".masks.json", ".orig", ".pdf", ".report.json", ".words.json"}},
	}
	for _, tc := range tests {
		t.Run(string(tc.retention), func(t *testing.T) {
			v := newEnv(t)
			a, _ := v.account("r@example.com", "standard", 0)
			j, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 3)}, Retention: tc.retention})
			if err != nil {
				t.Fatal(err)
			}
			doc := v.waitDone(a, j.ID).Documents[0].ID
			var want []string
			for _, ext := range tc.files {
				want = append(want, doc+ext)
			}
			waitFor(t, "files", func() bool { return slices.Equal(v.jobFiles(j.ID), want) })
			if tc.retention == Studio {
				var masks []Mask
				b, err := v.readJobFile(j.ID, doc+sufMasks)
				if err != nil || json.Unmarshal(b, &masks) != nil || len(masks) != 3 || masks[2].Page != 2 {
					t.Fatalf("masks = %s, %v", b, err)
				}
			}
			v.clock.Advance(tc.keep - time.Minute)
			v.e.jan.janitorOnce(bg)
			if _, err := v.e.GetJob(bg, a, j.ID); err != nil {
				t.Fatalf("purged too early: %v", err)
			}
			if !slices.Equal(v.jobFiles(j.ID), want) {
				t.Fatalf("files changed early: %v", v.jobFiles(j.ID))
			}
			v.clock.Advance(2 * time.Minute)
			v.e.jan.janitorOnce(bg)
			if _, err := v.e.GetJob(bg, a, j.ID); err != ErrNotFound {
				t.Fatalf("after TTL: %v", err)
			}
			if _, err := os.Stat(v.e.files.jobDir(j.ID)); !os.IsNotExist(err) {
				t.Fatalf("job directory left: %v", err)
			}
			if keys := v.keysOf(j.ID, doc); len(keys) != 0 {
				t.Fatalf("records left: %q", keys)
			}
		})
	}
}

func TestRecovery(t *testing.T) {
	v := newEnv(t, func(c *Settings) { c.MaxConcurrentJobs = 2 })
	a, _ := v.account("rec@example.com", "standard", 0)
	// First life: every document blocks once it has reported its page
	// count (so it is charged), and only two run at a time.
	v.reopen(blockingProc())
	var jobs []*Job
	total := 0
	for i := range 3 {
		p1, p2 := 2*i+1, 2*i+2
		total += p1 + p2
		jobs = append(jobs, v.create(a, pdfFile("a.pdf", p1), pdfFile("b.pdf", p2)))
	}
	<-v.proc.started
	<-v.proc.started
	if used := v.pagesUsed(a); used == 0 {
		t.Fatalf("nothing charged before the stop")
	}
	// Leftovers of an unclean stop: a temporary file in a live job
	// directory, a directory of a job that was never recorded, a stray
	// temporary file.
	if err := os.WriteFile(filepath.Join(v.e.files.jobDir(jobs[0].ID), tmpPrefix+"crash"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	orphan := v.e.files.jobDir(newID())
	os.Mkdir(orphan, 0o700)
	os.WriteFile(filepath.Join(orphan, "x.orig"), []byte("x"), 0o600)

	// Second life.
	p2 := newTestProc()
	v.reopen(p2)
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("orphan directory survived recovery")
	}
	for _, j := range jobs {
		done := v.waitDone(a, j.ID)
		if done.Status != StatusRedacted {
			t.Fatalf("job after recovery = %+v", done)
		}
		for _, d := range done.Documents {
			if d.Status != StatusRedacted {
				t.Fatalf("doc = %+v", d)
			}
			if n := p2.callCount(d.ID); n != 1 {
				t.Fatalf("doc processed %d times after restart", n)
			}
		}
	}
	if used := v.pagesUsed(a); used != int64(total) {
		t.Fatalf("pages used = %d, want %d (each document charged once)", used, total)
	}
	if ids, _ := v.e.jl.AccountJobs(a.ID); len(ids) != 3 {
		t.Fatalf("jobs = %d", len(ids))
	}
	if n, _ := v.e.jl.Count("queue"); n != 0 {
		t.Fatalf("queue = %d", n)
	}
	for _, f := range v.jobFiles(jobs[0].ID) {
		if strings.HasPrefix(f, tmpPrefix) {
			t.Fatalf("temporary file survived: %s", f)
		}
	}
	// A third life finds nothing to do.
	p3 := newTestProc()
	v.reopen(p3)
	time.Sleep(50 * time.Millisecond)
	if n := p3.totalCalls(); n != 0 {
		t.Fatalf("finished documents processed again: %d calls", n)
	}
}

func TestAttemptsLimit(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("att@example.com", "standard", 0)
	v.reopen(blockingProc())
	j := v.create(a, pdfFile("a.pdf", 2))
	<-v.proc.started
	if err := v.e.Close(); err != nil {
		t.Fatal(err)
	}
	// Simulate a document that killed the process maxAttempts times.
	jl, err := openNodeStore(filepath.Join(v.cfg.Data, storeDir))
	if err != nil {
		t.Fatal(err)
	}
	d, err := jl.Doc(j.Documents[0].ID)
	if err != nil || d.Attempts != 0 || !d.Charged {
		t.Fatalf("doc after clean stop = %+v, %v", d, err)
	}
	d.Attempts = maxAttempts
	b := jl.NewBatch()
	b.PutDoc(d)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	jl.Close()

	p := newTestProc()
	v.open(p)
	done := v.waitDone(a, j.ID)
	if done.Documents[0].ErrorMessage != "processing failed repeatedly" || p.callCount(d.ID) != 0 {
		t.Fatalf("doc = %+v, calls %d", done.Documents[0], p.callCount(d.ID))
	}
	// The ledger's refund is written after the job's record in the same
	// commit (storelog's Batch.Commit), so a reader can see the document
	// failed a moment before the refund, as files_test.go's does.
	waitFor(t, "the refund", func() bool { return v.pagesUsed(a) == 0 })
}

// TestRefundSettledAfterCrash: a failed document's record, marked
// refunded, is written before the ledger's refund (storelog's commit
// order), so a crash between the two leaves its pages charged. The
// store is left in exactly that state (the record written as the commit
// writes it, the ledger untouched); a node alone on its store settles
// the refund when it opens, a cluster node in its janitor's pass, and
// only once.
func TestRefundSettledAfterCrash(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mods    []func(*Settings)
		storeAt func(data string) string
	}{
		{"node", nil, func(data string) string { return filepath.Join(data, storeDir) }},
		{"cluster", []func(*Settings){clusterStore}, func(data string) string { return filepath.Join(data, "cluster-store") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newEnv(t, tc.mods...)
			a, _ := v.account("crash@example.com", "standard", 0)
			v.reopen(blockingProc())
			j := v.create(a, pdfFile("a.pdf", 2))
			<-v.proc.started
			if err := v.e.Close(); err != nil {
				t.Fatal(err)
			}
			jl, err := openNodeStore(tc.storeAt(v.cfg.Data))
			if err != nil {
				t.Fatal(err)
			}
			d, err := jl.Doc(j.Documents[0].ID)
			if err != nil || !d.Charged || d.Refunded {
				t.Fatalf("doc after clean stop = %+v, %v", d, err)
			}
			d.Status, d.ErrorMessage, d.Refunded = string(StatusError), "processing failed", true
			b := jl.NewBatch()
			b.PutDoc(d)
			if err := b.Commit(true); err != nil {
				t.Fatal(err)
			}
			if used, _ := jl.Account(a.ID); used.PagesUsed != 2 {
				t.Fatalf("pages used after the crash = %d, want the 2 still charged", used.PagesUsed)
			}
			jl.Close()

			v.open(newTestProc())
			v.e.jan.janitorOnce(bg)
			if n := v.pagesUsed(a); n != 0 {
				t.Fatalf("pages used = %d after recovery, want the refund settled", n)
			}
			v.reopen(newTestProc())
			v.e.jan.janitorOnce(bg)
			if n := v.pagesUsed(a); n != 0 {
				t.Fatalf("pages used = %d after a second recovery", n)
			}
		})
	}
}

func TestDiskFullOnCreate(t *testing.T) {
	var full atomic.Bool
	v := newEnvHooks(t, func(f *os.File) error {
		if full.Load() {
			return &os.PathError{Op: "sync", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return f.Sync()
	})
	a, _ := v.account("full@example.com", "standard", 0)
	full.Store(true)
	_, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 1), pdfFile("b.pdf", 1)}})
	wantErr(t, err, ErrUnavailable, "storage is full")
	if strings.Contains(err.Error(), v.cfg.Data) {
		t.Fatalf("error leaks a path: %v", err)
	}
	if ids, _ := v.e.jl.AccountJobs(a.ID); len(ids) != 0 {
		t.Fatalf("half-written job recorded: %v", ids)
	}
	if names, _ := readDirNames(v.filesRoot()); len(names) != 0 {
		t.Fatalf("files left: %v", names)
	}
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", testPDF(1))}})
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, v.put(r.Uploads[0], testPDF(1)), ErrUnavailable, "storage is full")
	full.Store(false)
	j := v.waitDone(a, v.create(a, pdfFile("a.pdf", 1)).ID)
	if j.Status != StatusRedacted {
		t.Fatalf("after the disk recovered: %+v", j)
	}
}
