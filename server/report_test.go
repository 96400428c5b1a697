package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// reportJSON is GET /v1/documents/{id}/report as a client sees it.
type reportJSON struct {
	DocumentID string `json:"document_id"`
	PageCount  int    `json:"page_count"`
	Masks      struct {
		Total      int            `json:"total"`
		ByCategory map[string]int `json:"by_category"`
		BySource   map[string]int `json:"by_source"`
	} `json:"masks"`
	Pages []struct {
		Page  int  `json:"page"`
		Masks int  `json:"masks"`
		OCR   bool `json:"ocr"`
	} `json:"pages"`
	TimingsMS map[string]int `json:"timings_ms"`
}

// scannedPage renders a one-page text PDF with MuPDF and places the
// picture, without any text layer, on a new page of d: a scan.
func scannedPage(t *testing.T, d *testpdf.Doc, lines ...string) {
	t.Helper()
	src := testpdf.New()
	p := src.AddPage(595, 842, 0)
	for i, l := range lines {
		p.Text(72, 760-float64(i)*24, 14, l)
	}
	md, err := mupdf.Open(src.Bytes(), mupdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	pg, err := md.LoadPage(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	r, err := pg.Render(context.Background(), 200, 1e8)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	img := image.NewGray(image.Rect(0, 0, r.W, r.H))
	for y := range r.H {
		for x := range r.W {
			px := r.Pix[y*r.Stride+x*r.Channels:]
			v := int(px[0])
			if r.Channels >= 3 {
				v = (int(px[0]) + int(px[1]) + int(px[2])) / 3
			}
			img.Pix[y*img.Stride+x] = uint8(v)
		}
	}
	d.AddPage(595, 842, 0).Image(0, 0, 595, 842, img)
}

// TestE2EReport redacts a studio document with a text page and a scanned
// page through the real server (OCR on) and checks its report against the
// studio masks (masks.json) of the same document: total, per category,
// per source and per page; OCR marked on the scanned page only; no text
// of the document in it; 404 for another account, an unknown id, and
// after the job is deleted.
func TestE2EReport(t *testing.T) {
	cfg := testConfig(t)
	cfg.OCR = "auto"
	e := start(t, cfg)
	key := e.key("report@example.com", jobs.PlanStandard, 100)
	other := e.key("other@example.com", jobs.PlanStandard, 100)

	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 760, 12, "Invoice for Jane Doe")
	p.Text(72, 740, 12, "Contact: jane.doe@example.com, phone +49 30 1234567")
	p.Text(72, 720, 12, "IBAN DE89 3704 0044 0532 0130 00")
	scannedPage(t, d, "Customer: Max Mustermann", "E-mail: max.mustermann@example.org")
	j := e.job(e.create(key, form{files: [][2]string{{"mixed.pdf", string(d.Bytes())}}, fields: [][2]string{{"retention", "studio"}}}, nil))
	j = e.wait(key, j.JobID)
	doc := j.Documents[0]
	if doc.Status != "redacted" || doc.PageCount != 2 {
		t.Fatalf("document %+v", doc)
	}

	r := e.do("GET", "/v1/documents/"+doc.ID+"/report", key, nil, nil)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("report: %d %s %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	t.Logf("report: %s", r.body)
	var rep reportJSON
	r.json(t, &rep)

	var masks []struct {
		Page     int    `json:"page"`
		Category string `json:"category"`
		Source   string `json:"source"`
	}
	b, err := os.ReadFile(filepath.Join(cfg.Data, "files", j.JobID, doc.ID+".masks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &masks); err != nil {
		t.Fatal(err)
	}
	byCat, bySrc, byPage := map[string]int{}, map[string]int{}, map[int]int{}
	for _, m := range masks {
		byCat[m.Category]++
		bySrc[m.Source]++
		byPage[m.Page+1]++
	}
	if rep.DocumentID != doc.ID || rep.PageCount != 2 || rep.Masks.Total != len(masks) || len(masks) == 0 {
		t.Fatalf("report %+v, %d studio masks", rep, len(masks))
	}
	if !mapsEqual(rep.Masks.ByCategory, byCat) || !mapsEqual(rep.Masks.BySource, bySrc) {
		t.Fatalf("by_category %v by_source %v; studio masks give %v %v", rep.Masks.ByCategory, rep.Masks.BySource, byCat, bySrc)
	}
	if len(rep.Pages) != 2 {
		t.Fatalf("pages %+v", rep.Pages)
	}
	for _, pg := range rep.Pages {
		if pg.Masks != byPage[pg.Page] {
			t.Fatalf("page %d: %d masks, studio masks say %d", pg.Page, pg.Masks, byPage[pg.Page])
		}
	}
	if rep.Pages[0].Page != 1 || rep.Pages[0].OCR || rep.Pages[1].Page != 2 || !rep.Pages[1].OCR {
		t.Fatalf("pages %+v: want page 1 without OCR, page 2 with", rep.Pages)
	}
	if rep.Masks.ByCategory["Email"] < 2 || rep.Masks.BySource["ocr"] == 0 || rep.Pages[1].Masks == 0 {
		t.Fatalf("the e-mail addresses of both pages, one read by OCR, should be masked: %+v", rep)
	}
	for _, k := range []string{"open", "render", "ocr", "detect", "burn_encode", "write", "total"} {
		if _, ok := rep.TimingsMS[k]; !ok {
			t.Fatalf("timings_ms lacks %s: %v", k, rep.TimingsMS)
		}
	}
	for _, s := range []string{"jane", "Jane", "Doe", "example", "Mustermann", "DE89", "1234567", "mixed.pdf"} {
		if bytes.Contains(r.body, []byte(s)) {
			t.Fatalf("report holds document text %q: %s", s, r.body)
		}
	}

	e.do("GET", "/v1/documents/"+doc.ID+"/report", other, nil, nil).wantError(t, 404, "not_found")
	e.do("GET", "/v1/documents/00000000-0000-4000-8000-000000000000/report", key, nil, nil).wantError(t, 404, "not_found")
	e.do("GET", "/v1/documents/nope/report", key, nil, nil).wantError(t, 404, "not_found")
	e.do("GET", "/v1/documents/"+doc.ID+"/report", "", nil, nil).wantError(t, 401, "unauthorized")
	if r := e.do("DELETE", "/v1/jobs/"+j.JobID, key, nil, nil); r.status != 200 {
		t.Fatalf("delete: %d", r.status)
	}
	e.do("GET", "/v1/documents/"+doc.ID+"/report", key, nil, nil).wantError(t, 404, "not_found")
}

// TestE2EReportNotReady: a failed document and an ephemeral document's
// report follow its output: none for the failure, one for the redacted.
func TestE2EReportNotReady(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("report2@example.com", jobs.PlanStandard, 100)
	j := e.wait(key, e.job(e.create(key, form{files: [][2]string{{"ok.pdf", samplePDF(2)}, {"bad.pdf", "%PDF-1.4 broken"}}}, nil)).JobID)
	ok, bad := j.Documents[0], j.Documents[1]
	if ok.Status != "redacted" || bad.Status != "error" {
		t.Fatalf("documents %+v", j.Documents)
	}
	e.do("GET", "/v1/documents/"+bad.ID+"/report", key, nil, nil).wantError(t, 404, "not_found")
	var rep reportJSON
	r := e.do("GET", "/v1/documents/"+ok.ID+"/report", key, nil, nil)
	r.json(t, &rep)
	if r.status != 200 || rep.PageCount != 2 || len(rep.Pages) != 2 || rep.Masks.Total == 0 || strings.Contains(string(r.body), "jane") {
		t.Fatalf("ephemeral report: %d %s", r.status, r.body)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
