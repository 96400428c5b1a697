package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/shareddata"
	"github.com/redactd/redactd/internal/testkit/hostile/visible"
	"github.com/redactd/redactd/internal/testkit/testpdf"
	"github.com/redactd/redactd/models/ocr"
)

var (
	fullOnce sync.Once
	fullPipe *Pipeline
	fullErr  error
)

// sharedFullPipeline is the pipeline `redactd serve` runs (recognizers,
// NER, OCR), built once for the tests of this package that need it; it
// is skipped when the models are not installed (make setup).
func sharedFullPipeline(t *testing.T) *Pipeline {
	t.Helper()
	s := defaultSettings(t)
	fullOnce.Do(func() { fullPipe, fullErr = Open(s, nil, nil) })
	if fullErr != nil {
		t.Skipf("models not available: %v", fullErr)
	}
	return fullPipe
}

// readPage renders page i of pdf at 200 dpi and reads it with our own
// recogniser: what a reader of the file sees.
func readPage(t *testing.T, e *ocr.Engine, pdf []byte, i int) []string {
	t.Helper()
	lines, err := visible.ReadPage(context.Background(), e, pdf, i)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestVisibleCorpus runs every document of visible.Corpus through
// the whole pipeline (NER and OCR on), reads the output's pixels with our
// own recogniser and fails if any planted personal data is readable. The
// planted data must be readable in the input, or the case proves nothing.
func TestVisibleCorpus(t *testing.T) {
	cases, err := visible.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	p := sharedFullPipeline(t)
	e := p.models.OCR
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r, err := process(t, p, c.PDF, contract.Options{Categories: page.Categories})
			if err != nil {
				t.Fatal(err)
			}
			for i := range r.res.PageCount {
				in := readPage(t, e, c.PDF, i)
				out := readPage(t, e, r.out, i)
				if c.Vertical || c.Boxed {
					// One letter per line, read top to bottom, or one
					// per box, each a line to the recogniser.
					in, out = []string{strings.Join(in, "")}, []string{strings.Join(out, "")}
				}
				for _, pii := range c.PII {
					if _, ok := visible.Readable(in, pii); !ok {
						t.Fatalf("page %d: %q is not readable in the input (%q): the case proves nothing", i+1, pii, in)
					}
				}
				for _, pii := range c.PII {
					if l, ok := visible.Readable(out, pii); ok {
						t.Errorf("%s page %d: %q readable in the output: %q", c.Kind, i+1, pii, l)
					}
				}
			}
		})
	}
}

// emailPattern finds the personal data the real documents are known to
// hold: e-mail addresses in their text layer (found here independently of
// the recognizers under test).
var emailPattern = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)

// TestSharedDocumentMasks redacts the real PDFs of ../shared/data/documents
// that show e-mail addresses (up to 10 pages; their first 3 pages are
// checked) through the whole pipeline, NER and OCR on, and reads each
// output page with our recogniser: an address readable in the input's
// pixels must not be readable in the output's.
func TestSharedDocumentMasks(t *testing.T) {
	paths, _ := filepath.Glob(shareddata.Path("documents", "*", "*.pdf"))
	if len(paths) == 0 {
		t.Skipf("%s not present", shareddata.Path("documents"))
	}
	p := sharedFullPipeline(t)
	e := p.models.OCR
	checked := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		known := knownEmails(data, 3, 10)
		if len(known) == 0 {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			r, err := process(t, p, data, contract.Options{Categories: page.Categories})
			if err != nil {
				t.Fatalf("%s", contract.UserMessage(err))
			}
			for i, emails := range known {
				in := readPage(t, e, data, i)
				out := readPage(t, e, r.out, i)
				for _, m := range emails {
					if _, ok := visible.Readable(in, m); !ok {
						continue // too small or faint to read at 200 dpi either way
					}
					checked++
					if l, ok := visible.Readable(out, m); ok {
						t.Errorf("page %d: %q readable in the output: %q", i+1, m, l)
					}
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no readable e-mail address in the shared documents: the test checks nothing")
	}
	t.Logf("%d e-mail addresses checked in output pixels", checked)
}

// knownEmails returns the e-mail addresses of the text layer of the first
// pages of pdf, by page, or nothing when the document has more than
// maxPages pages or does not open.
func knownEmails(pdf []byte, pages, maxPages int) map[int][]string {
	doc, err := mupdf.Open(pdf, mupdf.Options{})
	if err != nil {
		return nil
	}
	defer doc.Close()
	if doc.NumPages() > maxPages {
		return nil
	}
	out := map[int][]string{}
	for i := 0; i < min(pages, doc.NumPages()); i++ {
		pg, err := doc.LoadPage(context.Background(), i)
		if err != nil {
			continue
		}
		seen := map[string]bool{}
		for _, w := range pg.Words() {
			for _, m := range emailPattern.FindAllString(w.Text, -1) {
				if !seen[m] {
					seen[m] = true
					out[i] = append(out[i], m)
				}
			}
		}
		pg.Close()
	}
	return out
}

// countingOCR counts the areas the pipeline hands to OCR.
type countingOCR struct {
	OCR
	mu    sync.Mutex
	areas int
	boxes int // ReadBoxes calls: font checks
}

func (c *countingOCR) ReadBoxes(ctx context.Context, r *page.Raster, quads []page.Quad) (string, int, error) {
	c.mu.Lock()
	c.boxes++
	c.mu.Unlock()
	return c.OCR.ReadBoxes(ctx, r, quads)
}

func (c *countingOCR) Recognize(ctx context.Context, r *page.Raster, reg PixelRect, h ReadHints) ([]page.Word, error) {
	c.mu.Lock()
	c.areas++
	c.mu.Unlock()
	return c.OCR.Recognize(ctx, r, reg, h)
}

// processWith redacts pdf, all categories, with the detectors of full,
// ocr and metrics m, and fails the test if that fails.
func processWith(t *testing.T, full *Pipeline, ocr OCR, m *Metrics, pdf []byte) *run {
	t.Helper()
	p, err := New(defaultSettings(t), Deps{Detectors: full.deps.Detectors, OCR: ocr, Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, err := process(t, p, pdf, contract.Options{Categories: page.Categories})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// pipelineWith is a pipeline over full's detectors with settings s, the
// recogniser ocr and metrics of its own (to count what it did), closed
// when the test ends.
func pipelineWith(t *testing.T, full *Pipeline, s Settings, ocr OCR) (*Pipeline, *Metrics) {
	t.Helper()
	m, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(s, Deps{Detectors: full.deps.Detectors, OCR: ocr, Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, m
}

// TestRepeatedInkReadOnce: a letterhead drawn as outlines on every page
// is read by OCR once per document; the other pages reuse the reading,
// moved to their copy, and are masked as well (TestVisibleCorpus's
// outline-letterhead-3-pages checks their pixels).
func TestRepeatedInkReadOnce(t *testing.T) {
	full := sharedFullPipeline(t)
	areas := func(pages int) (int, *run) {
		pdf, err := visible.LetterheadPages(pages)
		if err != nil {
			t.Fatal(err)
		}
		c := &countingOCR{OCR: full.deps.OCR}
		r := processWith(t, full, c, full.metrics, pdf)
		return c.areas, r
	}
	one, r1 := areas(1)
	four, r4 := areas(4)
	if one == 0 {
		t.Fatal("the letterhead was not read at all: the case proves nothing")
	}
	if four != one {
		t.Errorf("4 pages handed %d areas to OCR, 1 page %d: the repeated letterhead was read again", four, one)
	}
	perPage := len(r1.res.Masks)
	for i := range 4 {
		n := 0
		for _, m := range r4.res.Masks {
			if m.Page == i {
				n++
			}
		}
		if n < perPage {
			t.Errorf("page %d has %d masks, the 1-page document %d", i+1, n, perPage)
		}
	}
}

// TestInvisibleStampKeepsFontTrusted: white-on-white words of a font (a
// typesetter's stamp) are left out of the font's check. Read, they are
// noise that disagrees with the layer, and the honest font's pages would
// all be read whole by OCR, as the Federal Register's were (18 s for 15
// pages instead of 1).
func TestInvisibleStampKeepsFontTrusted(t *testing.T) {
	full := sharedFullPipeline(t)
	pdf, err := visible.InvisibleStamp()
	if err != nil {
		t.Fatal(err)
	}
	c := &countingOCR{OCR: full.deps.OCR}
	processWith(t, full, c, full.metrics, pdf)
	if c.areas != 0 {
		t.Errorf("%d areas read by OCR: the stamp's font was distrusted", c.areas)
	}
	if c.boxes == 0 {
		t.Error("the font was not checked at all: the case proves nothing")
	}
}

// TestKnownLinesNotRead: layer lines caught inside an ink region (here
// by the margin of an outlined heading set between them) hold only ink
// trusted words explain, and the recogniser skips them; the
// outline lines and a line mixing a layer label with outlines are read,
// and TestVisibleCorpus checks that the same document's outlined name
// and e-mail address are masked in the output's pixels.
func TestKnownLinesNotRead(t *testing.T) {
	full := sharedFullPipeline(t)
	pdf, err := visible.OutlineBetweenLayerLines(22)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := processWith(t, full, full.deps.OCR, m, pdf)
	if n := testutil.ToFloat64(m.ocrKnownLines); n < 2 {
		t.Errorf("%v known lines skipped, want the 2 layer lines between the outline lines at least", n)
	}
	var ocrMasks int
	for _, mk := range r.res.Masks {
		if mk.Source == page.SourceOCR.String() {
			ocrMasks++
		}
	}
	if ocrMasks < 3 {
		t.Errorf("%d masks from OCR words, want the name twice and the e-mail address", ocrMasks)
	}
}

// TestNERRereadsCounted: a page in capitals is read by the NER model
// again (truecased and in lower case), and redactd_ner_windows_total
// counts the rereads apart from the windows as written.
func TestNERRereadsCounted(t *testing.T) {
	full := sharedFullPipeline(t)
	pdf := linesPDF("THE REPORT WAS WRITTEN BY MARIA GARCIA OF ACME CORPORATION", "SHE SENT IT TO JOHN SMITH IN LONDON ON MONDAY")
	reread := full.metrics.nerWindows.WithLabelValues("reread")
	written := full.metrics.nerWindows.WithLabelValues("as_written")
	r0, w0 := testutil.ToFloat64(reread), testutil.ToFloat64(written)
	m, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	processWith(t, full, full.deps.OCR, m, pdf)
	if dr, dw := testutil.ToFloat64(reread)-r0, testutil.ToFloat64(written)-w0; dr < 2 || dw < 1 {
		t.Errorf("after a page in capitals: %v windows as written and %v rereads counted, want at least 1 and 2", dw, dr)
	}
}

// linesPDF is a one-page PDF of lines of 10-point text, 15 points apart.
func linesPDF(lines ...string) []byte {
	doc := testpdf.New()
	pg := doc.AddPage(612, 792, 0)
	for i, l := range lines {
		pg.Text(72, 700-15*float64(i), 10, l)
	}
	return doc.Bytes()
}
