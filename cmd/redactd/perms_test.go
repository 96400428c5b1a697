package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusesOpenDataDir: `serve` will not start on a data directory
// that other users may read, write or enter, and says how to fix it,
// before it opens anything in it; `doctor` fails it with the same words.
// allow-open-data-dir turns the refusal into a warning.
func TestServeRefusesOpenDataDir(t *testing.T) {
	for _, mode := range []os.FileMode{0o755, 0o750, 0o701, 0o777} {
		data := filepath.Join(t.TempDir(), "data")
		if err := os.Mkdir(data, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(data, mode); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := run([]string{"serve", "--data", data, "--listen", "127.0.0.1:0", "--metrics-listen", ""}, &out, &errb)
		if code != exitError || !strings.Contains(errb.String(), "chmod 0700 "+data) || !strings.Contains(errb.String(), "allow-open-data-dir") {
			t.Fatalf("mode %04o: exit %d, stderr %q; want a refusal naming the fix", mode, code, errb.String())
		}
		if ents, _ := os.ReadDir(data); len(ents) != 0 {
			t.Fatalf("mode %04o: serve created %d entries before refusing", mode, len(ents))
		}
		_, res := doctorOutput(t, "--data", data)
		wantCheck(t, res, "data directory", checkFail, "chmod 0700 "+data)
		_, res = doctorOutput(t, "--data", data, "--allow-open-data-dir=true")
		wantCheck(t, res, "data directory", checkWarn, "allow-open-data-dir")
	}
}

// privateDir is a temporary data directory of mode 0700 (t.TempDir makes
// them 0777 less the umask, which serve and doctor refuse).
func privateDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	if err := os.Chmod(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}
