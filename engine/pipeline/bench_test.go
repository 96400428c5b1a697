package pipeline

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	fitz "github.com/gen2brain/go-fitz"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/shareddata"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// letterPDF makes an n-page text document of dense business-letter pages
// with some personal data on each.
func letterPDF(n int) []byte {
	doc := testpdf.New()
	for i := 0; i < n; i++ {
		p := doc.AddPage(612, 792, 0)
		y := 740.0
		p.Text(72, y, 14, fmt.Sprintf("Account review %d", i+1))
		for l := 0; l < 44; l++ {
			y -= 15
			switch l % 11 {
			case 3:
				p.Text(72, y, 10, "Contact Maria Gonzalez at maria.gonzalez@example.com or +44 20 7946 0958 about the invoice.")
			case 7:
				p.Text(72, y, 10, "Payment to IBAN GB82 WEST 1234 5698 7654 32 was confirmed on 12 March 2024 by the bank.")
			default:
				p.Text(72, y, 10, "The quarterly results were discussed at length and the committee agreed on next steps.")
			}
		}
	}
	return doc.Bytes()
}

// newFullPipeline is the pipeline `redactd serve` runs: recognizers, the
// NER model and OCR (idle on text pages), from pipeline.Open.
func newFullPipeline(b *testing.B) *Pipeline {
	b.Helper()
	p, err := Open(defaultSettings(b), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

func writeTemp(b testing.TB, data []byte) string {
	path := filepath.Join(b.TempDir(), "in.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkPipelinePage is one text page through the whole pipeline at
// 150 dpi: open, render, words, detection, burn, encode, write.
func BenchmarkPipelinePage(b *testing.B) {
	p := newFullPipeline(b)
	path := writeTemp(b, letterPDF(1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Process(context.Background(), contract.ProcessInput{Path: path, Options: contract.Options{Categories: page.Categories}},
			io.Discard, func(contract.Progress) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipelineVsRender measures the pipeline's throughput on a
// 100-page text PDF against MuPDF rendering alone (load + render every
// page at the same dpi, on as many goroutines as the pipeline's workers),
// in the same run, and reports the ratio. Target: ratio >= 0.5.
func BenchmarkPipelineVsRender(b *testing.B) {
	const pages = 100
	data := letterPDF(pages)
	path := writeTemp(b, data)
	p := newFullPipeline(b)
	dpi := p.cfg.DPI
	workers := p.render.Cap()
	b.ResetTimer()
	var pipe, render time.Duration
	for i := 0; i < b.N; i++ {
		t := time.Now()
		if _, err := renderOnly(data, dpi, workers); err != nil {
			b.Fatal(err)
		}
		render += time.Since(t)
		t = time.Now()
		if _, err := p.Process(context.Background(), contract.ProcessInput{Path: path, Options: contract.Options{Categories: page.Categories}},
			io.Discard, func(contract.Progress) error { return nil }); err != nil {
			b.Fatal(err)
		}
		pipe += time.Since(t)
	}
	b.ReportMetric(float64(pages*b.N)/pipe.Seconds(), "pipeline-pages/s")
	b.ReportMetric(float64(pages*b.N)/render.Seconds(), "render-pages/s")
	b.ReportMetric(render.Seconds()/pipe.Seconds(), "ratio")
}

// renderOnly is the reference: MuPDF rendering alone through go-fitz (no
// annotations, no text extraction, no detection, no encoding), every page
// at dpi, on workers goroutines with one document each (go-fitz documents
// are not safe for concurrent use).
func renderOnly(data []byte, dpi float64, workers int) (int, error) {
	var wg sync.WaitGroup
	errs := make([]error, workers)
	pages := 0
	for w := 0; w < workers; w++ {
		doc, err := fitz.NewFromMemory(data)
		if err != nil {
			return 0, err
		}
		pages = doc.NumPage()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer doc.Close()
			for i := w; i < doc.NumPage(); i += workers {
				if _, err := doc.ImageDPI(i, dpi); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return pages, errors.Join(errs...)
}

// scanPDF makes an n-page scanned document: every page one 200-dpi gray
// picture of a business letter (rendered by MuPDF), no text layer.
func scanPDF(b *testing.B, n int) []byte {
	b.Helper()
	r := renderLetter(b, 200)
	img := image.NewGray(image.Rect(0, 0, r.W, r.H))
	for y := 0; y < r.H; y++ {
		for x := 0; x < r.W; x++ {
			img.Pix[y*img.Stride+x] = r.Pix[y*r.Stride+x*r.Channels]
		}
	}
	doc := testpdf.New()
	for i := 0; i < n; i++ {
		doc.AddPage(612, 792, 0).Image(0, 0, 612, 792, img)
	}
	return doc.Bytes()
}

// renderLetter renders the one-page business letter of letterPDF at dpi
// with MuPDF; the raster is released when tb ends.
func renderLetter(tb testing.TB, dpi float64) *page.Raster {
	tb.Helper()
	src, err := mupdf.Open(letterPDF(1), mupdf.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	sp, err := src.LoadPage(context.Background(), 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer sp.Close()
	r, err := sp.Render(context.Background(), dpi, 1e9)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(r.Release)
	return r
}

// BenchmarkPipelineScan is a 4-page scanned document through the whole
// pipeline (OCR of every page, NER, burn, encode).
func BenchmarkPipelineScan(b *testing.B) {
	const pages = 4
	p := newFullPipeline(b)
	path := writeTemp(b, scanPDF(b, pages))
	b.ResetTimer()
	t := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := p.Process(context.Background(), contract.ProcessInput{Path: path, Options: contract.Options{Categories: page.Categories}},
			io.Discard, func(contract.Progress) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(pages*b.N)/time.Since(t).Seconds(), "pages/s")
}

// BenchmarkPipelineRealDocs is the real PDFs of ../shared/data/documents
// of at most 10 pages (invoices, forms, public records: embedded fonts
// with ToUnicode maps, so their fonts are checked against their pixels)
// through the whole pipeline, one document after another.
func BenchmarkPipelineRealDocs(b *testing.B) {
	paths, _ := filepath.Glob(shareddata.Path("documents", "*", "*.pdf"))
	var docs []string
	pages := 0
	for _, path := range paths {
		doc, err := mupdf.OpenFile(path, mupdf.Options{})
		if err != nil {
			continue
		}
		if n := doc.NumPages(); n <= 10 {
			docs = append(docs, path)
			pages += n
		}
		doc.Close()
	}
	if len(docs) == 0 {
		b.Skipf("%s not present", shareddata.Path("documents"))
	}
	p := newFullPipeline(b)
	b.ResetTimer()
	t := time.Now()
	for i := 0; i < b.N; i++ {
		for _, path := range docs {
			if _, err := p.Process(context.Background(), contract.ProcessInput{Path: path, Options: contract.Options{Categories: page.Categories}},
				io.Discard, func(contract.Progress) error { return nil }); err != nil && contract.UserMessage(err) == "" {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(pages*b.N)/time.Since(t).Seconds(), "pages/s")
}
