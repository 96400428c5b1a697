package score

import (
	"bytes"
	"context"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline/mupdf"

	"github.com/redactd/redactd/internal/shareddata"
)

var presidio = shareddata.Path("pii", "presidio_research", "generated_large.json")

func loadDocs(t *testing.T) (text, scans []*corpus.Doc) {
	t.Helper()
	if _, err := os.Stat(presidio); err != nil {
		t.Skipf("presidio data not available: %v", err)
	}
	recs, err := corpus.LoadPresidio(presidio)
	if err != nil {
		t.Fatal(err)
	}
	text = corpus.TextDocs(recs, corpus.TextSpec{Prefix: "t", Docs: 2, MinPages: 1, MaxPages: 2, Terms: []string{"Kestrelvane"}, Seed: 1})
	scans, err = corpus.Scans(context.Background(), text, 1)
	if err != nil {
		t.Fatal(err)
	}
	return text, scans
}

// flatten renders d at 150 dpi and writes it with pdfout, painting black
// the truth words for which paint says so: a stand-in redactor whose
// masks are known exactly.
func flatten(t *testing.T, d *corpus.Doc, paint func(corpus.Word) bool) []byte {
	t.Helper()
	ctx := context.Background()
	doc, err := mupdf.Open(d.Data, mupdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var buf bytes.Buffer
	w, err := pdfout.NewWriter(&buf, pdfout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range doc.NumPages() {
		p, err := doc.LoadPage(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Render(ctx, 150, 1<<28)
		if err != nil {
			t.Fatal(err)
		}
		for _, wd := range d.Truth[i] {
			if paint(wd) {
				fillQuad(r, wd.Quad)
			}
		}
		if _, err := w.AddPage(r, p.Width(), p.Height()); err != nil {
			t.Fatal(err)
		}
		r.Release()
		p.Close()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fillQuad paints the bounding box of q (plus a pixel) black.
func fillQuad(r *page.Raster, q corpus.Quad) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		x0, y0 = min(x0, p.X*float64(r.W)), min(y0, p.Y*float64(r.H))
		x1, y1 = max(x1, p.X*float64(r.W)), max(y1, p.Y*float64(r.H))
	}
	for y := max(int(y0)-1, 0); y < min(int(y1)+2, r.H); y++ {
		for x := max(int(x0)-1, 0); x < min(int(x1)+2, r.W); x++ {
			i := y*r.Stride + x*r.Channels
			for c := range r.Channels {
				r.Pix[i+c] = 0
			}
		}
	}
}

func TestScorePerfectAndNoRedaction(t *testing.T) {
	text, scans := loadDocs(t)
	isPII := func(w corpus.Word) bool { return w.Cat != "" }
	for _, tc := range []struct {
		name   string
		docs   []*corpus.Doc
		paint  func(corpus.Word) bool
		recall float64
	}{
		{"text perfect", text, isPII, 1},
		{"scan perfect", scans, isPII, 1},
		{"text none", text, func(corpus.Word) bool { return false }, 0},
		{"scan none", scans, func(corpus.Word) bool { return false }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := NewResult()
			for _, d := range tc.docs {
				if err := res.Doc(context.Background(), d, flatten(t, d, tc.paint), Options{}); err != nil {
					t.Fatal(err)
				}
			}
			if len(res.Invalid) > 0 {
				t.Fatalf("invalid outputs: %v", res.Invalid)
			}
			rc := res.Recall()
			if rc.Total == 0 || rc.Rate() != tc.recall {
				t.Errorf("recall %d/%d, want %v", rc.Masked, rc.Total, tc.recall)
			}
			if inc := res.Words[page.IncludedTerm]; inc == nil || inc.Rate() != tc.recall {
				t.Errorf("included terms %+v, want rate %v", inc, tc.recall)
			}
			if res.Plain.Total == 0 || res.Plain.Masked != 0 {
				t.Errorf("plain words %+v, want none masked", res.Plain)
			}
			if res.TextWords != 0 {
				t.Errorf("%d words extractable from a flattened output", res.TextWords)
			}
		})
	}
}

// TestTruthLiesOnInk checks the truth boxes against the pixels: on the
// unredacted render nearly every word core holds ink, which fails if the
// layout or the scan's rotation put boxes beside the text.
func TestTruthLiesOnInk(t *testing.T) {
	text, scans := loadDocs(t)
	for _, docs := range [][]*corpus.Doc{text, scans} {
		for _, d := range docs {
			out := flatten(t, d, func(corpus.Word) bool { return false })
			doc, err := mupdf.Open(out, mupdf.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var words, inked int
			for i := range doc.NumPages() {
				p, _ := doc.LoadPage(context.Background(), i)
				r, err := p.Render(context.Background(), 100, 1<<28)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range d.Truth[i] {
					words++
					if masked(r, w.Quad, 140) >= 0.08 {
						inked++
					}
				}
				r.Release()
				p.Close()
			}
			doc.Close()
			if words == 0 || float64(inked) < 0.97*float64(words) {
				t.Errorf("%s: %d of %d word cores hold ink", d.Name, inked, words)
			}
		}
	}
}

// TestLeaksListed: an entity whose text is still extractable, or read
// back by OCR, is counted and listed once per channel; one that is not,
// or too short to check, is not.
func TestLeaksListed(t *testing.T) {
	d := &corpus.Doc{Name: "a.pdf", Pages: 1, Labelled: true, Entities: []corpus.Entity{
		{Text: "Jane Doe", Cat: page.Person, Page: 0},
		{Text: "Acme Corp", Cat: page.Organization, Page: 0},
		{Text: "Al", Cat: page.Person, Page: 0},
	}}
	res := NewResult()
	res.finish(d, &docScore{masked: map[int]bool{}, ocrText: map[int]string{0: corpus.Normalize("Dear Jane Doe and Al")}},
		corpus.Normalize("Acme Corp invoice, Al"))
	want := []Leak{{"a.pdf", page.Person, "Jane Doe", "ocr"}, {"a.pdf", page.Organization, "Acme Corp", "text"}}
	if !slices.Equal(res.Leaked, want) {
		t.Errorf("leaked %+v, want %+v", res.Leaked, want)
	}
	if res.LeakChecked != 2 || res.LeaksText[page.Organization] != 1 || res.LeaksOCR[page.Person] != 1 {
		t.Errorf("counted %d checked, text %v, OCR %v", res.LeakChecked, res.LeaksText, res.LeaksOCR)
	}
}
