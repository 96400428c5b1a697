package dirblob_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store/dirblob"
	"github.com/redactd/redactd/engine/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Blobs(t, func(t *testing.T) storetest.BlobsFixture {
		d, err := dirblob.Open(filepath.Join(t.TempDir(), "blobs"))
		if err != nil {
			t.Fatal(err)
		}
		f := storetest.BlobsFixture{Blobs: d}
		if !testing.Short() {
			f.Large = 65 << 20 // past one 64 MiB segment of the NATS engine
		}
		return f
	})
}

// TestSweepAndPrivacy checks what the contract cannot see: the files are
// private to the owner, a failed Put leaves no temporary file, and Sweep
// removes a crash's leftovers only once they are old.
func TestSweepAndPrivacy(t *testing.T) {
	root := t.TempDir()
	d, err := dirblob.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Put(t.Context(), "job/doc.orig", bytes.NewReader([]byte("x"))); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"job", "job/doc.orig"} {
		fi, err := os.Stat(filepath.Join(root, p))
		if err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Fatalf("%s: mode %v, %v; want no group or other access", p, fi.Mode(), err)
		}
	}
	leftover := filepath.Join(root, "job", ".tmp-crashed")
	if err := os.WriteFile(leftover, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Sweep(time.Hour); err != nil || n != 0 {
		t.Fatalf("Sweep of a fresh temp file: %d, %v", n, err)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(leftover, old, old)
	if n, err := d.Sweep(time.Hour); err != nil || n != 1 {
		t.Fatalf("Sweep of an old temp file: %d, %v", n, err)
	}
	if err := d.Delete(t.Context(), "job/doc.orig"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "job")); !os.IsNotExist(err) {
		t.Fatalf("job directory after its last blob went: %v", err)
	}
}
