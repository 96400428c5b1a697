package pipeline

import (
	"context"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
)

// BenchmarkVisualCost measures what the visual stage (faces and codes,
// visual.go) costs: a new account's defaults (page.DefaultCategories,
// Face and Barcode on) against the same list without Face and Barcode,
// which skips the stage.
func BenchmarkVisualCost(b *testing.B) {
	var off []page.Category
	for _, c := range page.DefaultCategories {
		if !c.Visual() {
			off = append(off, c)
		}
	}
	benchmarkCategoryCost(b, "visual", page.DefaultCategories, off)
}

// BenchmarkHandCost measures what the handwriting stage (hand.go) costs:
// the defaults with Signature added against the defaults alone, which
// skip it.
func BenchmarkHandCost(b *testing.B) {
	with := append(slices.Clone(page.DefaultCategories), page.Signature)
	benchmarkCategoryCost(b, "hand", with, page.DefaultCategories)
}

// benchmarkCategoryCost times the full pipeline with categories on and
// with off, with the same binary, on a 20-page text PDF (no image, no
// drawn ink: a stage finds nothing to look at) and on the 4-page scan of
// BenchmarkPipelineScan (every page one image, OCR'd whole). The two
// settings alternate, one document each in turn, so that the load of a
// shared machine falls on both alike; the metric %cost is on's time over
// off's.
func benchmarkCategoryCost(b *testing.B, name string, on, off []page.Category) {
	p := newFullPipeline(b)
	docs := []struct {
		name  string
		pages int
		path  string
	}{
		{"text", 20, writeTemp(b, letterPDF(20))},
		{"scan", 4, writeTemp(b, scanPDF(b, 4))},
	}
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
			var tOn, tOff time.Duration
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					tOn += run(b, d.path, on)
					tOff += run(b, d.path, off)
				} else {
					tOff += run(b, d.path, off)
					tOn += run(b, d.path, on)
				}
			}
			n := float64(d.pages * b.N)
			b.ReportMetric(n/tOn.Seconds(), "pages/s-"+name)
			b.ReportMetric(n/tOff.Seconds(), "pages/s-off")
			b.ReportMetric(100*(tOn.Seconds()-tOff.Seconds())/tOff.Seconds(), "%cost")
		})
	}
}
