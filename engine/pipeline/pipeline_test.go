package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// defaultSettings are the pipeline's settings at the Config's defaults,
// selected as cmd/redactd/wire does.
func defaultSettings(t testing.TB) Settings {
	t.Helper()
	var s Settings
	if err := config.Select(config.Default(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// newTestPipeline builds a pipeline with the real recognizers (no models:
// those have their own tests and join in the end-to-end suite).
func newTestPipeline(t testing.TB) *Pipeline {
	t.Helper()
	rs, err := detect.Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(defaultSettings(t), Deps{Detectors: rs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

type run struct {
	out       []byte
	res       *contract.ProcessResult
	statuses  []contract.Status // each change, in order
	pagesDone []int             // every PagesDone reported
}

func process(t testing.TB, p *Pipeline, pdf []byte, opts contract.Options) (*run, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r := &run{}
	res, err := p.Process(context.Background(), contract.ProcessInput{DocID: "d", Path: path, Options: opts}, &out,
		func(pr contract.Progress) error {
			if len(r.statuses) == 0 || r.statuses[len(r.statuses)-1] != pr.Status {
				r.statuses = append(r.statuses, pr.Status)
			}
			if pr.PagesDone > 0 {
				r.pagesDone = append(r.pagesDone, pr.PagesDone)
			}
			return nil
		})
	r.out, r.res = out.Bytes(), res
	return r, err
}

// outputPage opens page i of an output PDF with MuPDF and renders it.
func outputPage(t *testing.T, pdf []byte, i int, dpi float64) (*mupdf.Document, *mupdf.Page, *page.Raster) {
	t.Helper()
	doc, err := mupdf.Open(pdf, mupdf.Options{})
	if err != nil {
		t.Fatalf("output does not open: %v", err)
	}
	t.Cleanup(func() { doc.Close() })
	pg, err := doc.LoadPage(context.Background(), i)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Close)
	r, err := pg.Render(context.Background(), dpi, 1e9)
	if err != nil {
		t.Fatal(err)
	}
	return doc, pg, r
}

// darkFraction is the share of pixels in rect (points) darker than 64.
func darkFraction(r *page.Raster, dpi float64, rect page.Rect) float64 {
	x0, y0, x1, y1 := page.PixelRect(rect, dpi, r.W, r.H)
	dark, n := 0, 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			o := y*r.Stride + x*r.Channels
			n++
			if int(r.Pix[o])+int(r.Pix[o+r.Channels-1]) < 128 {
				dark++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(dark) / float64(n)
}

func wordBox(t *testing.T, p *testpdf.Page, text string) page.Rect {
	t.Helper()
	for _, w := range p.Words() {
		if w.Text == text {
			return w.Quad.Bounds()
		}
	}
	t.Fatalf("word %q not on the test page", text)
	return page.Rect{}
}

func TestRedactTextPDF(t *testing.T) {
	p := newTestPipeline(t)
	doc := testpdf.New()
	pg := doc.AddPage(612, 792, 0)
	pg.Text(72, 700, 12, "Project codename Bluebird is confidential.")
	pg.Text(72, 680, 12, "Reach the team at team.lead@example.org today.")
	pg.Text(72, 660, 12, "The Acme budget stays visible here.")
	pg2 := doc.AddPage(595, 842, 0)
	pg2.Text(72, 700, 12, "Second page mentions Bluebird again.")
	in := doc.Bytes()

	r, err := process(t, p, in, contract.Options{
		Categories: page.Categories,
		Included:   []string{"bluebird"},
		Excluded:   []string{"team.lead@example.org"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.res.PageCount != 2 {
		t.Fatalf("page count %d, want 2", r.res.PageCount)
	}
	if got := strings.Join(statusStrings(r.statuses), ","); got != "analyzing,redacting" {
		t.Errorf("progress %s, want analyzing,redacting", got)
	}
	if fmt.Sprint(r.pagesDone) != "[1 2]" {
		t.Errorf("pages done reported %v, want [1 2]", r.pagesDone)
	}
	if err := pdfout.Verify(bytes.NewReader(r.out), int64(len(r.out))); err != nil {
		t.Fatalf("output fails verification: %v", err)
	}
	if bytes.Contains(r.out, []byte("/Info")) || bytes.Contains(r.out, []byte("/Metadata")) {
		t.Error("output has an Info dictionary or metadata stream")
	}

	const dpi = 150
	out, op, raster := outputPage(t, r.out, 0, dpi)
	if out.NumPages() != 2 {
		t.Fatalf("output has %d pages", out.NumPages())
	}
	if op.Width() != 612 || op.Height() != 792 {
		t.Errorf("output page 1 is %gx%g, want 612x792", op.Width(), op.Height())
	}
	if n := len(op.Words()); n != 0 {
		t.Errorf("MuPDF extracts %d words from the output, want 0", n)
	}
	if f := darkFraction(raster, dpi, wordBox(t, pg, "Bluebird")); f < 0.99 {
		t.Errorf("included term only %.2f black", f)
	}
	for _, w := range []string{"codename", "confidential.", "team.lead@example.org", "Acme"} {
		if f := darkFraction(raster, dpi, wordBox(t, pg, w)); f > 0.5 {
			t.Errorf("%q is %.2f black; it must stay visible", w, f)
		}
	}
	_, op2, raster2 := outputPage(t, r.out, 1, dpi)
	if op2.Width() != 595 || op2.Height() != 842 {
		t.Errorf("output page 2 is %gx%g, want 595x842", op2.Width(), op2.Height())
	}
	if f := darkFraction(raster2, dpi, wordBox(t, pg2, "Bluebird")); f < 0.99 {
		t.Errorf("included term on page 2 only %.2f black", f)
	}
}

func TestRecognizersMaskEmail(t *testing.T) {
	p := newTestPipeline(t)
	doc := testpdf.New()
	pg := doc.AddPage(612, 792, 0)
	pg.Text(72, 700, 12, "Write to jane.roe@example.com for details.")
	r, err := process(t, p, doc.Bytes(), contract.Options{Categories: page.Categories})
	if err != nil {
		t.Fatal(err)
	}
	_, _, raster := outputPage(t, r.out, 0, 150)
	if f := darkFraction(raster, 150, wordBox(t, pg, "jane.roe@example.com")); f < 0.99 {
		t.Errorf("e-mail only %.2f black", f)
	}
	if f := darkFraction(raster, 150, wordBox(t, pg, "details.")); f > 0.5 {
		t.Errorf("neighbour is %.2f black", f)
	}
	// With Email filtered out, the address stays.
	r, err = process(t, p, doc.Bytes(), contract.Options{Categories: []page.Category{page.Person}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, raster = outputPage(t, r.out, 0, 150)
	if f := darkFraction(raster, 150, wordBox(t, pg, "jane.roe@example.com")); f > 0.5 {
		t.Errorf("e-mail masked (%.2f) although Email is not among the categories", f)
	}
}

func TestFormFieldsAndAnnotationsMasked(t *testing.T) {
	p := newTestPipeline(t)
	doc := testpdf.New()
	pg := doc.AddPage(612, 792, 0)
	pg.Text(72, 700, 12, "Applicant")
	pg.TextField("email", [4]float64{72, 640, 300, 660}, "applicant@example.net")
	pg.TextFieldNoAppearance("code", [4]float64{72, 600, 300, 620}, "Zebracode")
	pg.FreeTextAnnot([4]float64{72, 540, 400, 570}, "Reviewer note: Quokkaname")
	r, err := process(t, p, doc.Bytes(), contract.Options{Categories: page.Categories, Included: []string{"zebracode", "quokkaname"}})
	if err != nil {
		t.Fatal(err)
	}
	var sources = map[string]bool{}
	for _, m := range r.res.Masks {
		sources[m.Source] = true
	}
	for _, s := range []string{"form", "annotation"} {
		if !sources[s] {
			t.Errorf("no mask from source %q; masks: %+v", s, r.res.Masks)
		}
	}
	// Every mask region is black in the output.
	_, _, raster := outputPage(t, r.out, 0, 150)
	for _, m := range r.res.Masks {
		inner := page.Rect{X0: m.Box.X0 + 1, Y0: m.Box.Y0 + 1, X1: m.Box.X1 - 1, Y1: m.Box.Y1 - 1}
		if f := darkFraction(raster, 150, inner); f < 0.99 {
			t.Errorf("mask %+v only %.2f black", m, f)
		}
	}
	if len(r.res.Masks) < 3 {
		t.Errorf("got %d masks, want at least 3 (e-mail field, code field, annotation)", len(r.res.Masks))
	}
}

func TestBadInputsEndInDocErrors(t *testing.T) {
	p := newTestPipeline(t)
	good := testpdf.New()
	good.AddPage(612, 792, 0).Text(72, 700, 12, "hello")
	enc := testpdf.New()
	enc.AddPage(612, 792, 0).Text(72, 700, 12, "secret")
	enc.Encrypt("user", "owner")
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", []byte{}, "unsupported file type"},
		{"text", []byte("just some text, not a document"), "unsupported file type"},
		{"truncated", good.Bytes()[:40], "damaged"},
		{"encrypted", enc.Bytes(), "password"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := process(t, p, c.data, contract.Options{})
			if err == nil {
				t.Fatal("no error")
			}
			if msg := contract.UserMessage(err); !strings.Contains(msg, c.want) {
				t.Errorf("message %q, want it to mention %q", msg, c.want)
			}
		})
	}
}

func statusStrings(ss []contract.Status) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return out
}
