package pipeline

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
)

// BenchmarkVisualCost measures what the visual stage (faces and codes,
// visual.go) costs, with the same binary: a new account's defaults
// (page.DefaultCategories, Face and Barcode on) against the same list
// without Face and Barcode, which skips the stage. On a 20-page text PDF
// (no image: the stage only finds nothing to look at) and on the 4-page
// scan of BenchmarkPipelineScan (every page one image, OCR'd whole).
func BenchmarkVisualCost(b *testing.B) {
	var off []page.Category
	for _, c := range page.DefaultCategories {
		if !c.Visual() {
			off = append(off, c)
		}
	}
	p := newFullPipeline(b)
	docs := []struct {
		name  string
		pages int
		path  string
	}{
		{"text", 20, writeTemp(b, letterPDF(20))},
		{"scan", 4, writeTemp(b, scanPDF(b, 4))},
	}
	// The two settings alternate, one document each in turn, so that the
	// load of a shared machine falls on both alike.
	run := func(b *testing.B, path string, cats []page.Category) time.Duration {
		t := time.Now()
		if _, err := p.Process(context.Background(), contract.ProcessInput{Path: path, Options: contract.Options{Categories: cats}},
			io.Discard, func(contract.Progress) error { return nil }); err != nil {
			b.Fatal(err)
		}
		return time.Since(t)
	}
	for _, d := range docs {
		b.Run(d.name, func(b *testing.B) {
			var on, no time.Duration
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					on += run(b, d.path, page.DefaultCategories)
					no += run(b, d.path, off)
				} else {
					no += run(b, d.path, off)
					on += run(b, d.path, page.DefaultCategories)
				}
			}
			n := float64(d.pages * b.N)
			b.ReportMetric(n/on.Seconds(), "pages/s-visual")
			b.ReportMetric(n/no.Seconds(), "pages/s-off")
			b.ReportMetric(100*(on.Seconds()-no.Seconds())/no.Seconds(), "%cost")
		})
	}
}
