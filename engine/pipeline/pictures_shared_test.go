package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/shareddata"
)

// sharedDocumentsAndImages lists the shared real documents' PDFs and
// PNG images; the test is skipped where the shared data is absent.
func sharedDocumentsAndImages(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, pat := range []string{"*.pdf", "*.png"} {
		m, _ := filepath.Glob(shareddata.Path("documents", "*", pat))
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		t.Skipf("%s not present", shareddata.Path("documents"))
	}
	return paths
}

// TestSharedDocumentsNoFalseFaces runs the visual stage (visualPage) over
// every page of the shared real documents (PDFs and images: logos,
// stamps, charts, signatures, scans), which show no photo of a person:
// every Face mask there is false. At most 2% of the pages may get one.
// It also reports how many pages had a picture or a drawing (ink no word
// explains, looked at for codes) to look at, the codes masked, and the
// stage's time.
func TestSharedDocumentsNoFalseFaces(t *testing.T) {
	paths := sharedDocumentsAndImages(t)
	p := newTestPipeline(t)
	opts := detect.Options{Categories: []page.Category{page.Face, page.Barcode, page.Person, page.Email, page.PhoneNumber, page.IBAN}}
	var pages, looked, faces, codes, drawings int
	var spent time.Duration
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src, err := p.open(writeTemp(t, data), "")
		if err != nil {
			t.Logf("%s: %v", filepath.Base(path), err)
			continue
		}
		for i := range src.NumPages() {
			pg, pix, err := p.loadAndRender(context.Background(), context.Background(), src, i)
			if err != nil {
				t.Logf("%s page %d: %v", filepath.Base(path), i+1, err)
				continue
			}
			pages++
			// The drawings no word explains, as OCR's ink analysis hands
			// them to the visual stage (drawnRegions; looked at for codes).
			var drawn []PixelRect
			if hasUsableText(pg.Words) {
				ink, _ := unexplainedInk(pg)
				drawn = drawnRegions(pg, ink)
				drawings += len(drawn)
			}
			t0 := time.Now()
			boxes, ran, err := p.visualPage(context.Background(), pg, opts, drawn)
			spent += time.Since(t0)
			p.releasePage(pg, pix)
			if err != nil {
				t.Fatal(err)
			}
			if ran {
				looked++
			}
			f, c := 0, 0
			for _, b := range boxes {
				switch b.Category {
				case page.Face:
					f++
				case page.Barcode:
					c++
				}
			}
			if f > 0 {
				faces++
				t.Logf("false Face: %s page %d (%d masks)", filepath.Base(path), i+1, f)
			}
			if c > 0 {
				codes++
				t.Logf("Barcode: %s page %d (%d masks)", filepath.Base(path), i+1, c)
			}
		}
		src.Close()
	}
	t.Logf("%d pages, %d with a picture or drawing looked at (%d drawings; %v in the visual stage), %d with a false Face mask (%.1f%%), %d with a Barcode mask",
		pages, looked, drawings, spent.Round(time.Millisecond), faces, 100*float64(faces)/float64(max(pages, 1)), codes)
	if faces*50 > pages {
		t.Errorf("%d of %d pages have a false Face mask, over 2%%", faces, pages)
	}
}
