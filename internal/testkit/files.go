package testkit

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// CopyTree copies the directories and regular files under src into dst
// (created), privately: directories 0700, files 0600, as the daemon makes
// its data directory. Links and other special files are skipped. Tests use
// it to start from a copy of a data directory kept in testdata, which the
// test may then change.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o600)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}
