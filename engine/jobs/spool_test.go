package jobs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"syscall"
	"testing"
)

// spoolTemps lists the temporary files in the files directory.
func (v *env) spoolTemps() []string {
	v.t.Helper()
	names, err := readDirNames(v.e.files.root())
	if err != nil {
		v.t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, tmpPrefix) {
			out = append(out, n)
		}
	}
	return out
}

// TestSpoolIntoJob: a spooled upload is checked like bytes in memory and
// moved, not copied, into the job it creates; what no job took is removed.
func TestSpoolIntoJob(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("a@example.com", PlanStandard, 100)
	ctx := context.Background()
	data := testPDF(2)

	sp, err := v.e.Spool(ctx, bytes.NewReader(data), v.cfg.MaxUploadBytes)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.spoolTemps(); len(got) != 1 {
		t.Fatalf("temporary files after Spool: %q", got)
	}
	f := File{Name: "a.pdf", Spool: sp}
	if f.Size() != int64(len(data)) {
		t.Fatalf("Size %d, want %d", f.Size(), len(data))
	}
	j, err := v.e.CreateJob(ctx, a, CreateJobRequest{Files: []File{f}})
	if err != nil {
		t.Fatal(err)
	}
	CreateJobRequest{Files: []File{f}}.Remove() // what a server does after CreateJob: must keep the original
	if got := v.spoolTemps(); len(got) != 0 {
		t.Fatalf("temporary files after CreateJob: %q", got)
	}
	orig, err := v.readJobFile(j.ID, j.Documents[0].ID+sufOrig)
	if err != nil || !bytes.Equal(orig, data) {
		t.Fatalf("original: %v, %d bytes, want the %d uploaded", err, len(orig), len(data))
	}
	d, err := v.e.jl.Doc(j.Documents[0].ID)
	if sum := sha256.Sum256(data); err != nil || d.SHA256 != hex.EncodeToString(sum[:]) || d.SizeBytes != int64(len(data)) {
		t.Fatalf("doc record %+v, %v", d, err)
	}
	if done := v.waitDone(a, j.ID); done.Documents[0].Status != StatusRedacted {
		t.Fatalf("job = %+v", done)
	}

	// Refused uploads leave nothing behind once removed.
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a document", []byte("hello"), "unsupported file type"},
		{"too large", append([]byte("%PDF-"), make([]byte, v.cfg.MaxUploadBytes)...), "exceeds the limit"},
	} {
		sp, err := v.e.Spool(ctx, bytes.NewReader(tc.data), v.cfg.MaxUploadBytes)
		if err != nil {
			t.Fatal(err)
		}
		if sp.size > v.cfg.MaxUploadBytes+1 {
			t.Errorf("%s: spooled %d bytes, past the limit's %d+1", tc.name, sp.size, v.cfg.MaxUploadBytes)
		}
		req := CreateJobRequest{Files: []File{{Name: "x.pdf", Spool: sp}}}
		_, err = v.e.CreateJob(ctx, a, req)
		wantErr(t, err, ErrInvalid, tc.want)
		req.Remove()
		req.Remove() // twice is harmless
		if got := v.spoolTemps(); len(got) != 0 {
			t.Fatalf("%s: temporary files left: %q", tc.name, got)
		}
	}
}

// TestSpoolStorageFull: a spool the disk cannot hold is ErrUnavailable
// and leaves no file.
func TestSpoolStorageFull(t *testing.T) {
	v := newEnvHooks(t, func(f *os.File) error {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: syscall.ENOSPC}
	})
	_, err := v.e.Spool(context.Background(), bytes.NewReader(testPDF(1)), v.cfg.MaxUploadBytes)
	wantErr(t, err, ErrUnavailable, "storage is full")
	if got := v.spoolTemps(); len(got) != 0 {
		t.Fatalf("temporary files left: %q", got)
	}
}
