package mupdf

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHeadersMatchGoFitz holds include/mupdf to the headers of the go-fitz
// module go.mod selects, whose static libraries we link: a header that drifts
// from its library compiles and then misreads memory.
func TestHeadersMatchGoFitz(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", "github.com/gen2brain/go-fitz").Output()
	if err != nil {
		t.Fatalf("go list go-fitz: %v", err)
	}
	version, dir, ok := strings.Cut(strings.TrimSpace(string(out)), " ")
	if !ok || dir == "" {
		t.Fatalf("go list go-fitz printed %q: module not downloaded?", out)
	}
	note, err := os.ReadFile("include/VERSION")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(note, []byte("go-fitz\n"+version+" ")) && !bytes.Contains(note, []byte("go-fitz "+version)) {
		t.Errorf("include/VERSION does not name go-fitz %s, the version go.mod selects", version)
	}

	ours := "include/mupdf"
	theirs := filepath.Join(dir, "include", "mupdf")
	seen := map[string]bool{}
	err = filepath.WalkDir(theirs, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".h") {
			return err
		}
		rel, _ := filepath.Rel(theirs, path)
		seen[rel] = true
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(ours, rel))
		if err != nil {
			t.Errorf("%s: in go-fitz %s, missing here", rel, version)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from go-fitz %s's copy", rel, version)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(ours, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".h") {
			return err
		}
		if rel, _ := filepath.Rel(ours, path); !seen[rel] {
			t.Errorf("%s: here, not in go-fitz %s", rel, version)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	h, err := os.ReadFile(filepath.Join(ours, "fitz", "version.h"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`#define FZ_VERSION "([^"]+)"`).FindSubmatch(h)
	if m == nil {
		t.Fatal("fitz/version.h: no FZ_VERSION")
	}
	if first, _, _ := bytes.Cut(note, []byte("\n")); !bytes.Contains(first, []byte("MuPDF "+string(m[1])+" ")) {
		t.Errorf("include/VERSION's first line %q does not name MuPDF %s (fitz/version.h)", first, m[1])
	}
}
