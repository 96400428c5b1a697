package ocreval

import (
	"context"
	"image/png"
	"os"
	"testing"

	"github.com/redactd/redactd/internal/shareddata"
)

var documents = shareddata.Path("documents")

// TestPrepare selects and renders pages of the shared documents and
// checks every page has truth lines inside its image, and its PNG the
// size recorded.
func TestPrepare(t *testing.T) {
	if _, err := os.Stat(documents); err != nil {
		t.Skipf("shared documents not available: %v", err)
	}
	out := t.TempDir()
	if d := os.Getenv("OCREVAL_KEEP"); d != "" {
		out = d
	}
	pages, err := Prepare(context.Background(), Spec{Dir: documents, Out: out, DPI: 200, Pages: 24})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no usable pages")
	}
	seen := map[string]bool{}
	for _, p := range pages {
		if seen[p.Name] {
			t.Errorf("%s chosen twice", p.Name)
		}
		seen[p.Name] = true
		if len(p.Lines) == 0 {
			t.Errorf("%s: no truth lines", p.Name)
		}
		for _, l := range p.Lines {
			if l.Box.X0 < -1 || l.Box.Y0 < -1 || l.Box.X1 > float64(p.W)+1 || l.Box.Y1 > float64(p.H)+1 {
				t.Errorf("%s: line %q box %+v outside %dx%d", p.Name, l.Text(), l.Box, p.W, p.H)
				break
			}
		}
		f, err := os.Open(p.PNG)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != p.W || cfg.Height != p.H {
			t.Errorf("%s: png %dx%d (%v), want %dx%d", p.Name, cfg.Width, cfg.Height, err, p.W, p.H)
		}
		t.Logf("%s: %dx%d, %d lines, %d chars, %d dropped", p.Name, p.W, p.H, len(p.Lines), p.Chars(), p.Dropped)
	}
}
