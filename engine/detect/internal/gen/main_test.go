package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/redactd/redactd/internal/shareddata"
)

// TestGeneratedUpToDate regenerates the gazetteers from the shared data
// and compares them with the committed files, so a change to a source, a
// hand-written list or the generator cannot go unnoticed.
func TestGeneratedUpToDate(t *testing.T) {
	src := shareddata.Dir()
	if _, err := os.Stat(filepath.Join(src, "gazetteers")); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	out := t.TempDir()
	g := &gen{src: src, out: out, manual: "manual", committed: filepath.Join("..", "..", "gazetteer", "data")}
	for _, step := range g.steps() {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	files, err := filepath.Glob(filepath.Join(out, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("nothing generated: %v", err)
	}
	committed, _ := filepath.Glob(filepath.Join("..", "..", "gazetteer", "data", "*.txt"))
	if len(committed) != len(files)+len(g.skipped) {
		t.Errorf("%d committed files, %d generated, %d skipped", len(committed), len(files), len(g.skipped))
	}
	for f, why := range g.skipped {
		t.Logf("%s not compared: %s", f, why)
	}
	for _, f := range files {
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "gazetteer", "data", filepath.Base(f)))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./engine/detect", filepath.Base(f))
		}
	}
}
