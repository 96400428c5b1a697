package server_test

// Storage failures for real: the data directory on a small tmpfs that is
// filled up (ENOSPC), and the files volume remounted read-only (EROFS).
// The service must answer 503 unavailable where it cannot store, keep
// serving what it already has, put documents it cannot finish into a
// terminal state, and work normally again once the storage is back,
// without losing anything it had acknowledged. Mounting needs root; the
// tests skip with a message elsewhere.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/jobs"
)

// mountTmpfs mounts a tmpfs of size (e.g. "24m") at dir, unmounted when
// the test ends (after the env's cleanup, which must be registered
// later). It skips the test when mounting is not possible.
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs (simulated storage failures run in engine/jobs/durability_test.go)")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s); simulated storage failures run in engine/jobs/durability_test.go", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
}

func remount(t *testing.T, dir, mode string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+mode, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s %s: %v: %s", dir, mode, err, out)
	}
}

// fill writes path until the file system is full and returns how many
// bytes it took; called again it tops up whatever was freed meanwhile.
func fill(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n int64
	for _, chunk := range []int{1 << 20, 4 << 10, 512} {
		buf := make([]byte, chunk)
		for {
			w, err := f.Write(buf)
			n += int64(w)
			if errors.Is(err, syscall.ENOSPC) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return n
}

func TestDiskFull(t *testing.T) {
	cfg := testConfig(t)
	mountTmpfs(t, cfg.Data, "32m")
	e := start(t, cfg)
	key := e.key("full@example.com", jobs.PlanStandard, 1000)

	// Acknowledged before the disk fills: a finished job with its
	// output, a job still being processed, and a direct-upload
	// reservation.
	done := e.wait(key, e.job(e.create(key, form{files: [][2]string{{"done.pdf", samplePDF(2)}}}, nil)).JobID)
	doneOut := e.do("GET", "/v1/documents/"+done.Documents[0].ID+"/output", key, nil, nil)
	verifyPDF(t, doneOut.body)
	direct := samplePDF(1)
	resv := e.init(key, [2]string{"direct.pdf", direct})
	// The disk fills right after this job is accepted: its original is
	// stored, its 40 pages cannot be written out.
	filler := filepath.Join(cfg.Data, "filler")
	flight := e.job(e.create(key, form{files: [][2]string{{"flight.pdf", samplePDF(40)}}}, nil))
	n := fill(t, filler)
	t.Logf("filled the data directory with %d MiB", n>>20)

	// New work that needs space is refused with 503, naming the cause.
	fill(t, filler)
	m := e.create(key, form{files: [][2]string{{"new.pdf", samplePDF(1)}}}, nil).wantError(t, 503, "unavailable")
	if m["error"] != "storage is full" {
		t.Errorf("503 message %q", m["error"])
	}
	fill(t, filler)
	e.put(resv.Uploads[0].UploadURL, direct).wantError(t, 503, "unavailable")
	// What is stored is still served.
	if r := e.do("GET", "/v1/documents/"+done.Documents[0].ID+"/output", key, nil, nil); r.status != 200 || !bytes.Equal(r.body, doneOut.body) {
		t.Fatalf("output while full: %d", r.status)
	}
	e.job(e.do("GET", "/v1/jobs/"+flight.JobID, key, nil, nil))
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := e.do("GET", p, "", nil, nil); r.status != 200 {
			t.Errorf("%s while full: %d %s", p, r.status, r.body)
		}
	}

	// Keep the disk full until the job in flight has run into it: its
	// processing was retried (the log says so), or it ended.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if strings.Contains(e.logs.String(), "document will be retried") {
			break
		}
		if s := e.job(e.do("GET", "/v1/jobs/"+flight.JobID, key, nil, nil)).Documents[0].Status; s == "redacted" || s == "error" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the job in flight neither failed nor was retried while the disk was full")
		}
		fill(t, filler)
	}

	// Space returns: everything works again, nothing acknowledged is lost.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	// The document that was being processed when the disk filled was
	// accepted: the disk failing is no reason to fail it. It completes
	// once there is space again.
	fj := e.wait(key, flight.JobID)
	if fd := fj.Documents[0]; fd.Status != "redacted" || fd.PageCount != 40 {
		msg := ""
		if fd.ErrorMessage != nil {
			msg = *fd.ErrorMessage
		}
		t.Errorf("document in flight while the disk was full ended %s %q; want it kept queued and redacted once space returned", fd.Status, msg)
	}
	t.Logf("document in flight: %d processing attempts hit the full disk and were retried", strings.Count(e.logs.String(), "document will be retried"))
	after := e.wait(key, e.job(e.create(key, form{files: [][2]string{{"after.pdf", samplePDF(1)}}}, nil)).JobID)
	if after.Documents[0].Status != "redacted" {
		t.Fatalf("job after the disk recovered: %+v", after)
	}
	if r := e.put(resv.Uploads[0].UploadURL, direct); r.status != 201 {
		t.Fatalf("upload after the disk recovered: %d %s", r.status, r.body)
	}
	e.job(e.do("POST", "/v1/jobs/"+resv.JobID+"/commit", key, nil, nil))
	if j := e.wait(key, resv.JobID); j.Documents[0].Status != "redacted" {
		t.Fatalf("direct upload after the disk recovered: %+v", j)
	}
	again := e.job(e.do("GET", "/v1/jobs/"+done.JobID, key, nil, nil))
	if again.Status != "redacted" {
		t.Fatalf("finished job after the episode: %+v", again)
	}
	if r := e.do("GET", "/v1/documents/"+done.Documents[0].ID+"/output", key, nil, nil); !bytes.Equal(r.body, doneOut.body) {
		t.Fatal("finished output changed")
	}
	// Each redacted document was charged once; nothing else was.
	want := int64(2 + 1 + 1)
	if fj.Documents[0].Status == "redacted" {
		want += 40
	}
	if used := e.account(key).PagesUsed; used != want {
		t.Errorf("pages used %d, want %d", used, want)
	}
}

func TestReadOnlyFiles(t *testing.T) {
	cfg := testConfig(t)
	// The files volume on its own mount (the job log stays writable):
	// a tmpfs cannot be remounted read-only while pebble holds files open
	// for writing on it.
	files := filepath.Join(cfg.Data, "files")
	if err := os.MkdirAll(files, 0o700); err != nil {
		t.Fatal(err)
	}
	mountTmpfs(t, files, "32m")
	e := start(t, cfg)
	key := e.key("ro@example.com", jobs.PlanStandard, 1000)
	done := e.wait(key, e.job(e.create(key, form{files: [][2]string{{"done.pdf", samplePDF(2)}}}, nil)).JobID)
	doneOut := e.do("GET", "/v1/documents/"+done.Documents[0].ID+"/output", key, nil, nil)
	direct := samplePDF(1)
	resv := e.init(key, [2]string{"direct.pdf", direct})

	remount(t, files, "ro")
	m := e.create(key, form{files: [][2]string{{"new.pdf", samplePDF(1)}}}, nil).wantError(t, 503, "unavailable")
	if m["error"] != "storage is read-only" {
		t.Errorf("503 message %q", m["error"])
	}
	e.put(resv.Uploads[0].UploadURL, direct).wantError(t, 503, "unavailable")
	if r := e.do("GET", "/v1/documents/"+done.Documents[0].ID+"/output", key, nil, nil); r.status != 200 || !bytes.Equal(r.body, doneOut.body) {
		t.Fatalf("output while read-only: %d", r.status)
	}
	// A reservation creates the job's directory: refused the same way
	// (or, should it ever need no files, accepted).
	resvs := []reservation{resv}
	r := e.do("POST", "/v1/jobs/init", key, strings.NewReader(`{"files":[{"filename":"later.pdf","content_type":"application/pdf","size_bytes":`+strconv.Itoa(len(direct))+`}]}`), nil)
	if r.status == 200 {
		var resv2 reservation
		r.json(t, &resv2)
		resvs = append(resvs, resv2)
	} else {
		r.wantError(t, 503, "unavailable")
	}

	remount(t, files, "rw")
	if j := e.wait(key, e.job(e.create(key, form{files: [][2]string{{"after.pdf", samplePDF(1)}}}, nil)).JobID); j.Documents[0].Status != "redacted" {
		t.Fatalf("after remount rw: %+v", j)
	}
	for _, r := range resvs {
		if p := e.put(r.Uploads[0].UploadURL, direct); p.status != 201 {
			t.Fatalf("upload after remount rw: %d %s", p.status, p.body)
		}
		e.job(e.do("POST", "/v1/jobs/"+r.JobID+"/commit", key, nil, nil))
		if j := e.wait(key, r.JobID); j.Documents[0].Status != "redacted" {
			t.Fatalf("direct upload after remount rw: %+v", j)
		}
	}
	if r := e.do("GET", "/v1/documents/"+done.Documents[0].ID+"/output", key, nil, nil); !bytes.Equal(r.body, doneOut.body) {
		t.Fatal("finished output changed")
	}
	if used, want := e.account(key).PagesUsed, int64(2+1+len(resvs)); used != want {
		t.Errorf("pages used %d, want %d", used, want)
	}
}
