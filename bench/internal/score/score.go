// Package score measures redacted outputs against the corpus truth by
// looking at them, not by trusting the service: each output page is
// rendered with MuPDF and every truth word counts as masked when nearly
// all of its core is dark. From that come recall per category, the share
// of plain words masked (over-redaction), and leaks: entities whose text
// is still extractable from the output, by MuPDF (a text layer that
// should not exist) or by OCR of the rendered page.
package score

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
)

// Reader reads the text of a rendered page (OCR).
type Reader interface {
	Read(ctx context.Context, r *page.Raster) (string, error)
}

// Options tune the measurement; zero values mean the defaults.
type Options struct {
	// DPI is the resolution output pages are rendered at to measure
	// masks (default 100).
	DPI float64
	// Dark is the luminance at or below which a pixel counts as masked
	// (default 64; masks are black, text ink is thinner than a word's core).
	Dark uint8
	// MaskedFrac is the share of a word's core that must be dark for the
	// word to count as masked (default 0.85).
	MaskedFrac float64
	// OCR, when set, reads up to OCRPages pages of the corpus (the first
	// ones scored) at OCRDPI (default 150) to look for leaked entities.
	OCR      Reader
	OCRPages int
	OCRDPI   float64
}

func (o *Options) defaults() {
	if o.DPI <= 0 {
		o.DPI = 100
	}
	if o.Dark == 0 {
		o.Dark = 64
	}
	if o.MaskedFrac <= 0 {
		o.MaskedFrac = 0.85
	}
	if o.OCRDPI <= 0 {
		o.OCRDPI = 150
	}
}

// minLeakLen is the shortest normalised entity checked for leaks: shorter
// strings (initials, "Jo") turn up inside unrelated words.
const minLeakLen = 4

// Count is a number of items of which some were masked.
type Count struct{ Total, Masked int }

// Rate is Masked/Total, NaN when there is nothing to count.
func (c Count) Rate() float64 {
	if c.Total == 0 {
		return math.NaN()
	}
	return float64(c.Masked) / float64(c.Total)
}

func (c *Count) add(masked bool) {
	c.Total++
	if masked {
		c.Masked++
	}
}

// Result accumulates the scores of a corpus's outputs. It is safe for
// concurrent use by Doc.
type Result struct {
	mu sync.Mutex

	Docs, Pages int
	// Invalid lists outputs that failed checks ("name: reason").
	Invalid []string
	// Words counts PII words per category (page.IncludedTerm for the
	// included terms); Entities counts entities all of whose words are
	// masked.
	Words, Entities map[page.Category]*Count
	// Plain counts words that are not personal data: its rate is the
	// over-redaction rate.
	Plain Count
	// Unlabelled counts words of documents without labels (real ones).
	Unlabelled Count
	// TextWords is the number of words MuPDF extracts from the outputs
	// (a flattened output has none).
	TextWords int
	// LeakChecked counts entities long enough to be checked;
	// LeaksText those whose text MuPDF extracts from the output.
	LeakChecked int
	LeaksText   map[page.Category]int
	// OCRPages pages were read by OCR; OCREntities entities lay on them,
	// LeaksOCR of which OCR read back.
	OCRPages    int
	OCREntities int
	LeaksOCR    map[page.Category]int
	OCRErr      string
	// Leaked lists the leaked entities (synthetic data), for tuning: the
	// bench logs them at debug level.
	Leaked []Leak
	// Unmasked lists the labelled PII words left unmasked (synthetic
	// data), for tuning: the bench logs them at debug level.
	Unmasked []Leak
}

// Leak is one entity whose text could still be read from an output.
type Leak struct {
	Doc     string
	Cat     page.Category
	Text    string
	Channel string // "text" (MuPDF extracts it), "ocr", or "mask" (a word left unmasked)
}

// NewResult returns an empty result.
func NewResult() *Result {
	return &Result{Words: map[page.Category]*Count{}, Entities: map[page.Category]*Count{},
		LeaksText: map[page.Category]int{}, LeaksOCR: map[page.Category]int{}}
}

// Recall is the share of PII words masked across categories, the
// included terms excepted (they measure the terms feature, not detection).
func (r *Result) Recall() Count {
	var c Count
	for cat, n := range r.Words {
		if cat != page.IncludedTerm {
			c.Total += n.Total
			c.Masked += n.Masked
		}
	}
	return c
}

// Leaks is the number of entities leaked through either channel.
func (r *Result) Leaks() (text, ocr int) {
	for _, n := range r.LeaksText {
		text += n
	}
	for _, n := range r.LeaksOCR {
		ocr += n
	}
	return text, ocr
}

// Doc scores the output of one document.
func (r *Result) Doc(ctx context.Context, d *corpus.Doc, out []byte, opts Options) error {
	opts.defaults()
	if err := pdfout.Verify(bytes.NewReader(out), int64(len(out))); err != nil {
		r.invalid(d, err)
		return nil
	}
	doc, err := mupdf.Open(out, mupdf.Options{})
	if err != nil {
		r.invalid(d, err)
		return nil
	}
	defer doc.Close()
	if d.Pages > 0 && doc.NumPages() != d.Pages {
		r.invalid(d, fmt.Errorf("%d pages, input has %d", doc.NumPages(), d.Pages))
		return nil
	}
	ds := docScore{masked: map[int]bool{}}
	var text strings.Builder
	for i := range doc.NumPages() {
		if err := r.page(ctx, doc, i, d, opts, &ds, &text); err != nil {
			return fmt.Errorf("%s page %d: %w", d.Name, i+1, err)
		}
	}
	r.finish(d, &ds, corpus.Normalize(text.String()))
	return nil
}

// docScore is what one document's pages found.
type docScore struct {
	words     []wordScore
	masked    map[int]bool // entity -> all its words masked so far
	textWords int
	ocrText   map[int]string // page -> normalised OCR text, for pages read
}

type wordScore struct {
	w      corpus.Word
	masked bool
}

func (r *Result) page(ctx context.Context, doc *mupdf.Document, i int, d *corpus.Doc, opts Options, ds *docScore, text *strings.Builder) error {
	p, err := doc.LoadPage(ctx, i)
	if err != nil {
		return err
	}
	defer p.Close()
	for _, w := range p.Words() {
		ds.textWords++
		text.WriteString(w.Text)
		text.WriteByte(' ')
	}
	rs, err := p.Render(ctx, opts.DPI, 1<<28)
	if err != nil {
		return err
	}
	if i < len(d.Truth) {
		for _, w := range d.Truth[i] {
			m := masked(rs, w.Quad, opts.Dark) >= opts.MaskedFrac
			ds.words = append(ds.words, wordScore{w, m})
			if w.Entity >= 0 {
				prev, seen := ds.masked[w.Entity]
				ds.masked[w.Entity] = m && (prev || !seen)
			}
		}
	}
	rs.Release()
	if opts.OCR != nil && len(d.Entities) > 0 && r.takeOCRPage(opts.OCRPages) {
		rs, err := p.Render(ctx, opts.OCRDPI, 1<<28)
		if err != nil {
			return err
		}
		s, err := opts.OCR.Read(ctx, rs)
		rs.Release()
		if err != nil {
			r.mu.Lock()
			r.OCRErr = err.Error()
			r.mu.Unlock()
		} else {
			if ds.ocrText == nil {
				ds.ocrText = map[int]string{}
			}
			ds.ocrText[i] = corpus.Normalize(s)
		}
	}
	return nil
}

// takeOCRPage reserves one of the corpus's OCR pages.
func (r *Result) takeOCRPage(limit int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.OCRPages >= limit {
		return false
	}
	r.OCRPages++
	return true
}

func (r *Result) finish(d *corpus.Doc, ds *docScore, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Docs++
	r.Pages += d.Pages
	r.TextWords += ds.textWords
	for _, ws := range ds.words {
		switch {
		case !d.Labelled:
			r.Unlabelled.add(ws.masked)
		case ws.w.Ignore:
		case ws.w.Cat == "":
			r.Plain.add(ws.masked)
		default:
			r.count(r.Words, ws.w.Cat).add(ws.masked)
			if !ws.masked {
				r.Unmasked = append(r.Unmasked, Leak{Doc: d.Name, Cat: ws.w.Cat, Text: ws.w.Text, Channel: "mask"})
			}
		}
	}
	for i, e := range d.Entities {
		r.count(r.Entities, e.Cat).add(ds.masked[i])
		norm := corpus.Normalize(e.Text)
		if len(norm) < minLeakLen {
			continue
		}
		r.LeakChecked++
		if strings.Contains(text, norm) {
			r.LeaksText[e.Cat]++
			r.Leaked = append(r.Leaked, Leak{Doc: d.Name, Cat: e.Cat, Text: e.Text, Channel: "text"})
		}
		if o, ok := ds.ocrText[e.Page]; ok {
			r.OCREntities++
			if strings.Contains(o, norm) {
				r.LeaksOCR[e.Cat]++
				r.Leaked = append(r.Leaked, Leak{Doc: d.Name, Cat: e.Cat, Text: e.Text, Channel: "ocr"})
			}
		}
	}
}

func (r *Result) count(m map[page.Category]*Count, c page.Category) *Count {
	n, ok := m[c]
	if !ok {
		n = &Count{}
		m[c] = n
	}
	return n
}

func (r *Result) invalid(d *corpus.Doc, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Docs++
	r.Invalid = append(r.Invalid, fmt.Sprintf("%s: %v", d.Name, err))
}

// Invalidf records a document whose output could not be had at all
// (the service failed it, or the download failed).
func (r *Result) Invalidf(d *corpus.Doc, format string, args ...any) {
	r.invalid(d, fmt.Errorf(format, args...))
}
