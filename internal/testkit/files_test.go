package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCopyTree(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "a", "b", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "a", "link")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	CopyTree(t, src, dst)

	b, err := os.ReadFile(filepath.Join(dst, "a", "b", "f"))
	if err != nil || string(b) != "x" {
		t.Fatalf("copied file: %q, %v", b, err)
	}
	for path, want := range map[string]os.FileMode{
		dst:                               0o700,
		filepath.Join(dst, "a", "b"):      0o700,
		filepath.Join(dst, "a", "b", "f"): 0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", path, got, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(dst, "a", "link")); !os.IsNotExist(err) {
		t.Errorf("a link was copied: %v", err)
	}
}
