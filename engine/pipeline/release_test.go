package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/burn"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/shareddata"
	"github.com/redactd/redactd/internal/testkit/hostile/visible"
)

// TestReleaseCorpus runs the documents of broken words
// (visible.ReleaseCorpus: a phone number drawn digit by digit, an e-mail
// address with a zero-width space, an IBAN and a phone number cut by the
// page's right edge) through the whole pipeline, NER and OCR on, reads
// each output with our recogniser and fails if any planted string is
// readable. Each page shows a sign, so its burned pixels are read by the
// release check at least once. The planted data must be readable in the
// input, or the case proves nothing.
func TestReleaseCorpus(t *testing.T) {
	cases, err := visible.ReleaseCorpus()
	if err != nil {
		t.Fatal(err)
	}
	full := sharedFullPipeline(t)
	e := full.models.OCR
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			m, err := NewMetrics(nil)
			if err != nil {
				t.Fatal(err)
			}
			r := processWith(t, full, full.deps.OCR, m, c.PDF)
			in := readPage(t, e, c.PDF, 0)
			for _, pii := range c.PII {
				if _, ok := visible.Readable(in, pii); !ok {
					t.Fatalf("%q is not readable in the input (%q): the case proves nothing", pii, in)
				}
			}
			out := readPage(t, e, r.out, 0)
			for _, pii := range c.PII {
				if l, ok := visible.Readable(out, pii); ok {
					t.Errorf("%q readable in the output: %q", pii, l)
				}
			}
			if n := releaseReadCount(m); n == 0 {
				// Words built from glyph geometry (the word builder to
				// come) may leave the layer whole: then detection on it
				// masks the data and no sign shows. The pixels decide.
				t.Logf("the burned page was not read: no sign seen")
			}
			if _, ok := r.res.Timings["release"]; !ok {
				t.Errorf("no release timing in %v", r.res.Timings)
			}
		})
	}
}

func releaseReadCount(m *Metrics) float64 {
	var n float64
	for _, res := range []string{"clean", "masked", "failed", "no_ocr"} {
		n += testutil.ToFloat64(m.releaseReads.WithLabelValues(res))
	}
	return n
}

func releaseSignCount(m *Metrics) float64 {
	var n float64
	for _, s := range signNames {
		n += testutil.ToFloat64(m.releaseSigns.WithLabelValues(s))
	}
	return n
}

// TestReleaseOrdinaryTextNotRead: ordinary text pages show no sign, so
// the release check reads nothing (the benchmark's letters: OCR reads no
// area of them at all), and the report still times the check.
func TestReleaseOrdinaryTextNotRead(t *testing.T) {
	full := sharedFullPipeline(t)
	m, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &countingOCR{OCR: full.deps.OCR}
	r := processWith(t, full, c, m, letterPDF(3))
	if n := releaseSignCount(m); n != 0 {
		t.Errorf("%v signs counted on ordinary letters", n)
	}
	if n := releaseReadCount(m); n != 0 {
		t.Errorf("%v release readings of ordinary letters", n)
	}
	if c.areas != 0 {
		t.Errorf("OCR read %d areas of ordinary letters", c.areas)
	}
	if _, ok := r.res.Timings["release"]; !ok {
		t.Errorf("no release timing in %v", r.res.Timings)
	}
}

// TestReleaseWithoutOCRFails: a page with a sign (text cut by the page's
// edge: a sign whatever words the glyphs are built into) cannot be
// checked when OCR is off, and the document fails, naming the page and
// the sign, not the text.
func TestReleaseWithoutOCRFails(t *testing.T) {
	pdf, err := visible.EdgeCut()
	if err != nil {
		t.Fatal(err)
	}
	p := newTestPipeline(t)
	_, err = process(t, p, pdf, contract.Options{Categories: page.Categories})
	if err == nil {
		t.Fatal("a page cut by its edge was released without being read")
	}
	msg := contract.UserMessage(err)
	for _, want := range []string{"page 1", "edge", "OCR is off"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "GB33") {
		t.Errorf("message %q quotes the document", msg)
	}
	if n := testutil.ToFloat64(p.metrics.releaseReads.WithLabelValues("no_ocr")); n != 1 {
		t.Errorf("no_ocr counted %v times, want 1", n)
	}
}

// stubbornOCR reads an e-mail address on every call, by base (raster
// pixels) and each time half its height lower, the first half below it:
// PII that masking never makes unreadable.
type stubbornOCR struct {
	base  page.Rect
	mu    sync.Mutex
	calls int
}

func (s *stubbornOCR) Recognize(_ context.Context, r *page.Raster, _ PixelRect, _ ReadHints) ([]page.Word, error) {
	s.mu.Lock()
	n := s.calls
	s.calls++
	s.mu.Unlock()
	b := s.base
	dy := 0.5 * float64(n+1) * (b.Y1 - b.Y0)
	b.Y0, b.Y1 = b.Y0+dy, b.Y1+dy
	return []page.Word{{Text: "jo.smith@example.com", Conf: 0.9, Quad: page.QuadFromRect(b)}}, nil
}

func (s *stubbornOCR) ReadBoxes(context.Context, *page.Raster, []page.Quad) (string, int, error) {
	return "", 0, nil
}

// TestReleaseStillReadableFails: when the burned page still reads as PII
// after the last reading, the document fails, naming the page and the
// category, not the text.
func TestReleaseStillReadableFails(t *testing.T) {
	// Plain Helvetica: no font to check, so nothing reads the page whole
	// before the release check.
	pdf, err := visible.EdgeCut()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := detect.Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	// The stub reads its address over the IBAN the page's edge cuts: at
	// the sign.
	var base page.Rect
	doc, err := mupdf.Open(pdf, mupdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := doc.LoadPage(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range lp.Words() {
		if strings.HasPrefix(w.Text, "GB33") {
			base = w.Quad.Bounds()
		}
	}
	lp.Close()
	doc.Close()
	if base.Empty() {
		t.Fatal("no IBAN at the edge")
	}
	s := defaultSettings(t)
	k := s.DPI / 72
	ocr := &stubbornOCR{base: page.Rect{X0: base.X0 * k, Y0: base.Y0 * k, X1: base.X1 * k, Y1: base.Y1 * k}}
	p, err := New(s, Deps{Detectors: rs, OCR: ocr})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = process(t, p, pdf, contract.Options{Categories: page.Categories})
	if err == nil {
		t.Fatal("released although the burned page still reads as PII")
	}
	msg := contract.UserMessage(err)
	for _, want := range []string{"page 1", "Email", "3 readings"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "jo.smith") || strings.Contains(msg, "GB33") {
		t.Errorf("message %q quotes the document", msg)
	}
	if n := testutil.ToFloat64(p.metrics.releaseReads.WithLabelValues("masked")); n != releaseReads-1 {
		t.Errorf("%v readings masked more, want %d", n, releaseReads-1)
	}
	if n := testutil.ToFloat64(p.metrics.releaseReads.WithLabelValues("failed")); n != 1 {
		t.Errorf("%v readings failed, want 1", n)
	}
}

// TestUncovered: a finding counts as masked when masks cover 90% of it,
// however they overlap; two masks over the same strip cover it once.
func TestUncovered(t *testing.T) {
	box := func(x0, y0, x1, y1 float64) burn.Box {
		return burn.Box{Rect: page.Rect{X0: x0, Y0: y0, X1: x1, Y1: y1}}
	}
	found := box(0, 0, 100, 10)
	for _, c := range []struct {
		name  string
		masks []burn.Box
		fresh bool
	}{
		{"none", nil, true},
		{"whole", []burn.Box{box(-2, -2, 102, 12)}, false},
		{"two halves", []burn.Box{box(0, 0, 50, 10), box(50, 0, 100, 10)}, false},
		{"the same half twice", []burn.Box{box(0, 0, 60, 10), box(0, 0, 60, 10)}, true},
		{"most, not enough", []burn.Box{box(0, 0, 80, 10)}, true},
	} {
		if got := len(uncovered([]burn.Box{found}, c.masks)) == 1; got != c.fresh {
			t.Errorf("%s: uncovered %v, want %v", c.name, got, c.fresh)
		}
	}
}

// TestReleaseFindings: a reading's findings at a sign are all masked;
// away from the signs only a validated recognizer's (the NER model's
// and the gazetteers' are its misreadings of labels: "Nation", "If
// zero" on the shared documents).
func TestReleaseFindings(t *testing.T) {
	at := []page.Rect{{X0: 100, Y0: 100, X1: 300, Y1: 112}}
	box := func(x0, y0 float64, rec string) burn.Box {
		return burn.Box{Rect: page.Rect{X0: x0, Y0: y0, X1: x0 + 40, Y1: y0 + 12}, Recognizer: rec, Category: page.Person}
	}
	found := []burn.Box{
		box(150, 101, "ner"),         // at the sign
		box(150, 300, "ner"),         // a label misread, elsewhere
		box(150, 400, "gazetteer"),   // the same, through a gazetteer
		box(150, 500, "iban"),        // checksummed, elsewhere
		box(400, 101, "phone"),       // a validated finding beside the sign's line
		box(150, 114, "repeat-name"), // just under the sign, within its margin
	}
	fresh, atSign := releaseFindings(found, at)
	recs := func(bs []burn.Box) (out []string) {
		for _, b := range bs {
			out = append(out, fmt.Sprintf("%s@%g", b.Recognizer, b.Rect.Y0))
		}
		return out
	}
	if got, want := recs(fresh), []string{"ner@101", "iban@500", "phone@101", "repeat-name@114"}; !slices.Equal(got, want) {
		t.Errorf("masked %v, want %v", got, want)
	}
	if got, want := recs(atSign), []string{"ner@101", "repeat-name@114"}; !slices.Equal(got, want) {
		t.Errorf("at a sign %v, want %v", got, want)
	}
}

// TestReleaseKeepsTheRequestsCategories: the burned page's reading goes
// through the request's categories, so an IBAN and a phone number cut by
// the page's edge, on a request for e-mail addresses only, are neither
// masked nor a reason to fail.
func TestReleaseKeepsTheRequestsCategories(t *testing.T) {
	pdf, err := visible.EdgeCut()
	if err != nil {
		t.Fatal(err)
	}
	full := sharedFullPipeline(t)
	p, m := pipelineWith(t, full, defaultSettings(t), full.deps.OCR)
	r, err := process(t, p, pdf, contract.Options{Categories: []page.Category{page.Email}})
	if err != nil {
		t.Fatalf("%s", contract.UserMessage(err))
	}
	for _, mk := range r.res.Masks {
		t.Errorf("masked %s: the request asked for e-mail addresses only", mk.Category)
	}
	if n := testutil.ToFloat64(m.releaseReads.WithLabelValues("clean")); n != 1 {
		t.Errorf("%v clean readings, want 1", n)
	}
}

// TestLeaking: at the last reading, PII at a sign is still readable when
// a validated recognizer finds it, or where an earlier reading found PII
// and burned it; the NER model's finding on other words there is not.
func TestLeaking(t *testing.T) {
	at := func(rec string, x0 float64) burn.Box {
		return burn.Box{Rect: page.Rect{X0: x0, Y0: 0, X1: x0 + 50, Y1: 10}, Recognizer: rec, Category: page.Person}
	}
	checked := []burn.Box{at("ner", 0)}
	for _, c := range []struct {
		name string
		box  burn.Box
		leak bool
	}{
		{"validated", at("email", 200), true},
		{"edge-cut", at("edge-cut", 200), true},
		{"ner elsewhere at the sign", at("ner", 200), false},
		{"ner where a mask did not take", at("ner", 20), true},
	} {
		if got := len(leaking([]burn.Box{c.box}, checked)) == 1; got != c.leak {
			t.Errorf("%s: leaking %v, want %v", c.name, got, c.leak)
		}
	}
}

// TestReleaseSharedDocuments: the real documents of shared/data whose
// pages show a sign (a combed form, an XFA form drawn out of order, an
// invoice touching the page's edge, a table of single digits) are read
// again and released, not failed: the recogniser's misreadings of their
// labels, which the NER model takes for names, are no PII still
// readable.
func TestReleaseSharedDocuments(t *testing.T) {
	paths, _ := filepath.Glob(shareddata.Path("documents", "*", "*.pdf"))
	if len(paths) == 0 {
		t.Skipf("%s not present", shareddata.Path("documents"))
	}
	full := sharedFullPipeline(t)
	checked := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := mupdf.Open(data, mupdf.Options{})
		if err != nil {
			continue
		}
		signed := false
		for i := 0; i < doc.NumPages() && !signed; i++ {
			signed = mupdfSigns(t, doc, i) != 0
		}
		doc.Close()
		if !signed {
			continue
		}
		checked++
		t.Run(filepath.Base(path), func(t *testing.T) {
			p, m := pipelineWith(t, full, defaultSettings(t), full.deps.OCR)
			if _, err := process(t, p, data, contract.Options{Categories: page.Categories}); err != nil {
				t.Errorf("%s", contract.UserMessage(err))
			}
			if releaseReadCount(m) == 0 {
				t.Error("no page read by the release check")
			}
		})
	}
	if checked == 0 {
		t.Skip("no shared document shows a sign")
	}
}

// TestReleaseSkipsPagesReadBlind: a page OCR read whole, nothing known
// of it (here ocr=always), had every glyph read from its pixels and
// detected: its layer hid nothing, and the release check reads it no
// second time. The IBAN cut by the page's edge is masked all the same.
func TestReleaseSkipsPagesReadBlind(t *testing.T) {
	pdf, err := visible.EdgeCut()
	if err != nil {
		t.Fatal(err)
	}
	full := sharedFullPipeline(t)
	s := defaultSettings(t)
	s.OCR = "always"
	p, m := pipelineWith(t, full, s, full.deps.OCR)
	r, err := process(t, p, pdf, contract.Options{Categories: page.Categories})
	if err != nil {
		t.Fatalf("%s", contract.UserMessage(err))
	}
	if n := releaseReadCount(m); n != 0 {
		t.Errorf("%v release readings of a page read whole", n)
	}
	if n := releaseSignCount(m); n == 0 {
		t.Error("no sign counted: the case proves nothing")
	}
	if l, ok := visible.Readable(readPage(t, full.models.OCR, r.out, 0), "GB33BUKB20201"); ok {
		t.Errorf("the IBAN is readable in the output: %q", l)
	}
}
