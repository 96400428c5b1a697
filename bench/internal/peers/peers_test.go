package peers

import (
	"context"
	"os"
	"testing"

	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// TestPeersRun runs each installed peer on a two-page PDF and checks it
// reports both pages; peers not installed must say so instead.
func TestPeersRun(t *testing.T) {
	d := testpdf.New()
	for _, s := range []string{"Invoice for Jane Smith", "Paid by card 4556 3257 4080 8259"} {
		d.AddPage(612, 792, 0).Text(72, 700, 14, s)
	}
	path := t.TempDir() + "/two.pdf"
	if err := os.WriteFile(path, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []corpus.File{{Path: path, Pages: 2}}
	ctx := context.Background()
	for _, r := range []Result{
		Mutool(ctx, files, 72, t.TempDir()),
		Tesseract(ctx, files, 72, 2, t.TempDir()),
		OCRmyPDF(ctx, files, 2, t.TempDir()),
	} {
		switch {
		case r.Missing != "":
			t.Logf("%s: %s", r.Name, r.Missing)
		case r.Err != "":
			t.Errorf("%s: %s", r.Name, r.Err)
		case r.Pages != 2 || r.PagesPerSecond() <= 0:
			t.Errorf("%s: %d pages at %.2f pages/s, want 2 pages", r.Name, r.Pages, r.PagesPerSecond())
		default:
			t.Logf("%s (%s): %.1f pages/s", r.Name, r.Version, r.PagesPerSecond())
		}
	}
}
