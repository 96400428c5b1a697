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

// BenchmarkHandCost measures what the handwriting stage (hand.go) costs,
// with the same binary: a new account's defaults with Signature added
// against the defaults alone, which skip it. On a 20-page text PDF (no
// image, no drawn ink: nothing to look at) and on the 4-page scan of
// BenchmarkPipelineScan (every page one image, OCR'd whole, its print
// explained by OCR's words).
func BenchmarkHandCost(b *testing.B) {
	with := append(slices.Clone(page.DefaultCategories), page.Signature)
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
			var on, no time.Duration
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					on += run(b, d.path, with)
					no += run(b, d.path, page.DefaultCategories)
				} else {
					no += run(b, d.path, page.DefaultCategories)
					on += run(b, d.path, with)
				}
			}
			n := float64(d.pages * b.N)
			b.ReportMetric(n/on.Seconds(), "pages/s-hand")
			b.ReportMetric(n/no.Seconds(), "pages/s-off")
			b.ReportMetric(100*(on.Seconds()-no.Seconds())/no.Seconds(), "%cost")
		})
	}
}
