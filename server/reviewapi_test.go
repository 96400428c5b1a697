package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	ereview "github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// reviewState is GET .../masks as a client decodes it.
type reviewState struct {
	DocumentID string         `json:"document_id"`
	Version    int64          `json:"version"`
	Pages      []ereview.Page `json:"pages"`
	Masks      []ereview.Mask `json:"masks"`
}

func reviewConfig(t *testing.T) config.Config {
	cfg := testConfig(t)
	cfg.ReviewMaxMasks = 50
	return cfg
}

// studioJob creates a studio job of one file and waits for it.
func (e *env) studioJob(key, name, content, retention string) (jobID, docID string) {
	e.t.Helper()
	j := e.job(e.create(key, form{files: [][2]string{{name, content}}, fields: [][2]string{{"retention", retention}}}, nil))
	j = e.wait(key, j.JobID)
	if j.Documents[0].Status != "redacted" {
		e.t.Fatalf("document %+v", j.Documents[0])
	}
	return j.JobID, j.Documents[0].ID
}

func (e *env) masks(key, docID string) reviewState {
	e.t.Helper()
	r := e.do("GET", "/v1/documents/"+docID+"/masks", key, nil, nil)
	if r.status != 200 {
		e.t.Fatalf("GET masks: %d %s", r.status, r.body)
	}
	var st reviewState
	r.json(e.t, &st)
	if r.header.Get("ETag") != fmt.Sprintf("%q", fmt.Sprint(st.Version)) {
		e.t.Fatalf("ETag %q for version %d", r.header.Get("ETag"), st.Version)
	}
	return st
}

func (e *env) putMasks(key, docID string, version int64, masks []ereview.Mask) resp {
	e.t.Helper()
	b, _ := json.Marshal(map[string]any{"masks": masks})
	return e.do("PUT", "/v1/documents/"+docID+"/masks", key, bytes.NewReader(b),
		map[string]string{"If-Match": fmt.Sprintf("%q", fmt.Sprint(version)), "Content-Type": "application/json"})
}

// outputRaster downloads a document's output and renders page pg
// (1-based) at 72 dpi, so a pixel is a point.
func (e *env) outputRaster(key, docID string, pg int) (*page.Raster, []byte) {
	e.t.Helper()
	r := e.do("GET", "/v1/documents/"+docID+"/output", key, nil, nil)
	if r.status != 200 {
		e.t.Fatalf("output: %d %s", r.status, r.body)
	}
	doc, err := mupdf.Open(r.body, mupdf.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	defer doc.Close()
	p, err := doc.LoadPage(context.Background(), pg-1)
	if err != nil {
		e.t.Fatal(err)
	}
	defer p.Close()
	ras, err := p.Render(context.Background(), 72, 1<<26)
	if err != nil {
		e.t.Fatal(err)
	}
	return ras, r.body
}

// darkShare is the share of pixels darker than mid-gray inside r (points
// at 72 dpi), shrunk by a point on each side against anti-aliased edges.
func darkShare(ras *page.Raster, r page.Rect) float64 {
	x0, y0, x1, y1 := int(r.X0)+1, int(r.Y0)+1, int(r.X1)-1, int(r.Y1)-1
	dark, all := 0, 0
	for y := max(y0, 0); y < min(y1, ras.H); y++ {
		for x := max(x0, 0); x < min(x1, ras.W); x++ {
			v := ras.Pix[y*ras.Stride+x*ras.Channels]
			all++
			if v < 128 {
				dark++
			}
		}
	}
	if all == 0 {
		return 0
	}
	return float64(dark) / float64(all)
}

// overlaps reports whether m and r share any area.
func overlaps(m ereview.Mask, r page.Rect) bool {
	return !m.Rect().Intersect(r).Empty()
}

func wordBox(t *testing.T, p *testpdf.Page, text string) page.Rect {
	for _, w := range p.Words() {
		if w.Text == text {
			return w.Quad.Bounds()
		}
	}
	t.Fatalf("no word %q", text)
	return page.Rect{}
}

// TestReviewAPI walks every review endpoint and its errors: the state,
// PUT with its If-Match, validation and limits, apply (a rejected
// detection's area readable again, a manual mask black), the audit log
// (chain, no text, CSV) and review links.
func TestReviewAPI(t *testing.T) {
	e := start(t, reviewConfig(t))
	key := e.key("rev@example.com", "standard", 0)
	other := e.key("other@example.com", "standard", 0)

	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 760, 14, "Invoice number 4711")
	p.Text(72, 720, 14, "Contact: jane.doe@example.com")
	jobID, docID := e.studioJob(key, "inv.pdf", string(d.Bytes()), "studio")
	_, ephDoc := e.studioJob(key, "eph.pdf", string(d.Bytes()), "ephemeral")

	st := e.masks(key, docID)
	if st.Version != 1 || len(st.Pages) != 1 || st.Pages[0].Width != 595 || st.Pages[0].Height != 842 {
		t.Fatalf("state %+v", st)
	}
	email := wordBox(t, p, "jane.doe@example.com")
	var em *ereview.Mask
	for i, m := range st.Masks {
		if m.Status != "suggested" || m.ID == "" || m.Page != 1 {
			t.Fatalf("mask %+v", m)
		}
		if m.Category == "Email" {
			em = &st.Masks[i]
		}
	}
	if em == nil {
		t.Fatalf("no Email mask in %+v", st.Masks)
	}
	if !(em.X0 <= email.X0+1 && em.X1 >= email.X1-1 && em.Y0 <= email.Y0+1 && em.Y1 >= email.Y1-1) {
		t.Fatalf("Email mask %+v does not cover the word %+v", em, email)
	}

	// 404: ephemeral, another account, unknown.
	for _, c := range []struct{ key, doc string }{{key, ephDoc}, {other, docID}, {key, "00000000-0000-4000-8000-000000000000"}} {
		for _, m := range []string{"masks", "audit"} {
			e.do("GET", "/v1/documents/"+c.doc+"/"+m, c.key, nil, nil).wantError(t, 404, "not_found")
		}
		e.do("POST", "/v1/documents/"+c.doc+"/apply", c.key, nil, nil).wantError(t, 404, "not_found")
		e.putMasks(c.key, c.doc, 1, st.Masks).wantError(t, 404, "not_found")
	}

	// PUT errors.
	e.do("PUT", "/v1/documents/"+docID+"/masks", key, strings.NewReader(`{"masks":[]}`), nil).wantError(t, 428, "precondition_required")
	bad := func(mut func(m *ereview.Mask)) resp {
		ms := append([]ereview.Mask(nil), st.Masks...)
		mut(&ms[0])
		return e.putMasks(key, docID, st.Version, ms)
	}
	bad(func(m *ereview.Mask) { m.X1 = 600 }).wantError(t, 400, "invalid_request")
	bad(func(m *ereview.Mask) { m.Y0 = -1 }).wantError(t, 400, "invalid_request")
	bad(func(m *ereview.Mask) { m.Page = 2 }).wantError(t, 400, "invalid_request")
	bad(func(m *ereview.Mask) { m.Category = "Shoe" }).wantError(t, 400, "invalid_request")
	bad(func(m *ereview.Mask) { m.Status = "maybe" }).wantError(t, 400, "invalid_request")
	bad(func(m *ereview.Mask) { m.Reason = "because" }).wantError(t, 400, "invalid_request")
	bad(func(m *ereview.Mask) { m.ID = "m999" }).wantError(t, 400, "invalid_request")
	e.putMasks(key, docID, st.Version, nil).wantError(t, 400, "invalid_request") // detections left out
	many := append([]ereview.Mask(nil), st.Masks...)
	for len(many) <= 50 {
		many = append(many, ereview.Mask{Page: 1, X0: 1, Y0: 1, X1: 2, Y1: 2, Category: "Person", Status: "accepted"})
	}
	e.putMasks(key, docID, st.Version, many).wantError(t, 400, "invalid_request")
	e.do("PUT", "/v1/documents/"+docID+"/masks", key, strings.NewReader(`{"masks":[],"x":1}`),
		map[string]string{"If-Match": "1"}).wantError(t, 400, "invalid_request")

	// Reject the e-mail, add a manual mask over "Invoice".
	invoice := wordBox(t, p, "Invoice")
	ms := append([]ereview.Mask(nil), st.Masks...)
	for i := range ms {
		if ms[i].ID == em.ID || overlaps(ms[i], email) {
			ms[i].Status, ms[i].Reason = "rejected", "other"
		} else {
			ms[i].Status = "accepted"
		}
	}
	ms = append(ms, ereview.Mask{Page: 1, X0: invoice.X0 - 1, Y0: invoice.Y0 - 1, X1: invoice.X1 + 1, Y1: invoice.Y1 + 1,
		Category: "Organization", Status: "accepted", Reason: "pii", Source: "ner", Score: 0.99})
	r := e.putMasks(key, docID, st.Version, ms)
	if r.status != 200 {
		t.Fatalf("PUT: %d %s", r.status, r.body)
	}
	var st2 reviewState
	r.json(t, &st2)
	if st2.Version != 2 || len(st2.Masks) != len(ms) {
		t.Fatalf("after PUT: %+v", st2)
	}
	added := st2.Masks[len(st2.Masks)-1]
	if added.ID == "" || added.Source != "manual" || added.Score != 0 {
		t.Fatalf("new mask %+v: want an id, source manual, no score", added)
	}
	// The old version is stale now.
	e.putMasks(key, docID, st.Version, ms).wantError(t, 412, "precondition_failed")

	before, _ := e.outputRaster(key, docID, 1)
	if darkShare(before, email) < 0.9 {
		t.Fatalf("first output: the e-mail address is not black (%.2f)", darkShare(before, email))
	}
	if darkShare(before, invoice) > 0.5 {
		t.Fatalf("first output: Invoice already black (%.2f)", darkShare(before, invoice))
	}
	before.Release()

	r = e.do("POST", "/v1/documents/"+docID+"/apply", key, nil, nil)
	if r.status != 200 {
		t.Fatalf("apply: %d %s", r.status, r.body)
	}
	j := e.job(e.do("GET", "/v1/jobs/"+jobID, key, nil, nil))
	if j.Documents[0].Status != "redacted" || j.Status != "redacted" {
		t.Fatalf("after apply: %+v", j)
	}
	after, out := e.outputRaster(key, docID, 1)
	verifyPDF(t, out)
	if s := darkShare(after, email); s > 0.5 || s == 0 {
		t.Fatalf("after apply: the rejected e-mail area is %.2f dark; want its glyphs readable again", s)
	}
	if s := darkShare(after, invoice); s < 0.9 {
		t.Fatalf("after apply: the manual mask is %.2f dark; want black", s)
	}
	after.Release()

	// The audit log: chained, the actions, no text.
	r = e.do("GET", "/v1/documents/"+docID+"/audit", key, nil, nil)
	var audit struct{ Entries []ereview.Entry }
	r.json(t, &audit)
	if err := e.eng.Reviewer().VerifyAudit(audit.Entries); err != nil {
		t.Fatal(err)
	}
	actions := map[string]int{}
	for _, a := range audit.Entries {
		actions[a.Action]++
		if a.Actor != "api:"+e.account(key).ID {
			t.Fatalf("actor %q", a.Actor)
		}
	}
	if actions["reject"] == 0 || actions["add"] != 1 || actions["apply"] != 1 {
		t.Fatalf("audit actions %v", actions)
	}
	for _, word := range []string{"jane", "Invoice", "4711", "example.com"} {
		if bytes.Contains(bytes.ToLower(r.body), bytes.ToLower([]byte(word))) {
			t.Fatalf("audit log holds document text %q: %s", word, r.body)
		}
	}
	r = e.do("GET", "/v1/documents/"+docID+"/audit", key, nil, map[string]string{"Accept": "text/csv"})
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(string(r.body), "seq,at,actor,action,mask_id,page,category,reason,prev,hash,alg\n") ||
		strings.Count(string(r.body), "\n") != len(audit.Entries)+1 {
		t.Fatalf("CSV: %d %s %s", r.status, r.header.Get("Content-Type"), r.body)
	}

	// Review links: studio only, single use.
	e.do("POST", "/v1/jobs/"+j.JobID+"/review-link", "", nil, nil).wantError(t, 401, "unauthorized")
	eph := e.job(e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}}, nil))
	e.do("POST", "/v1/jobs/"+eph.JobID+"/review-link", key, nil, nil).wantError(t, 400, "invalid_request")
	e.do("POST", "/v1/jobs/"+jobID+"/review-link", other, nil, nil).wantError(t, 404, "not_found")
	e.do("POST", "/v1/jobs/"+jobID+"/review-link", key, strings.NewReader(`{"role":"boss"}`), nil).wantError(t, 400, "invalid_request")
	e.do("POST", "/v1/jobs/"+jobID+"/review-link", key, strings.NewReader(`{"minutes":100000}`), nil).wantError(t, 400, "invalid_request")
	r = e.do("POST", "/v1/jobs/"+jobID+"/review-link", key, strings.NewReader(`{"minutes":5,"reviewer":"Ann"}`), nil)
	var link struct {
		URL       string `json:"url"`
		ExpiresAt string `json:"expires_at"`
	}
	r.json(t, &link)
	if r.status != 200 || !strings.HasPrefix(link.URL, e.url+"/review/link/") || link.ExpiresAt == "" {
		t.Fatalf("link: %d %s", r.status, r.body)
	}
	nc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := nc.Get(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 303 || res.Header.Get("Location") != "/review/jobs/"+jobID || res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("redeem: %d %v", res.StatusCode, res.Header)
	}
	ck := res.Header.Get("Set-Cookie")
	if !strings.Contains(ck, "HttpOnly") || !strings.Contains(strings.ToLower(ck), "samesite=strict") {
		t.Fatalf("cookie %q", ck)
	}
	res, err = nc.Get(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("second redemption: %d", res.StatusCode)
	}
}

// TestReviewApplyGateFailureKeepsOutput: when the re-burn cannot produce
// an output that passes the gate (here: the original became unreadable),
// apply answers 422, the document is redacted again and the old output
// is served unchanged.
func TestReviewApplyGateFailureKeepsOutput(t *testing.T) {
	e := start(t, reviewConfig(t))
	key := e.key("gate@example.com", "standard", 0)
	jobID, docID := e.studioJob(key, "a.pdf", samplePDF(1), "studio")
	old := e.do("GET", "/v1/documents/"+docID+"/output", key, nil, nil).body
	if err := os.WriteFile(filepath.Join(e.cfg.Data, "files", jobID, docID+".orig"), []byte("%PDF-1.7\ngarbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.do("POST", "/v1/documents/"+docID+"/apply", key, nil, nil).wantError(t, 422, "output_rejected")
	j := e.job(e.do("GET", "/v1/jobs/"+jobID, key, nil, nil))
	if j.Documents[0].Status != "redacted" {
		t.Fatalf("after a failed apply: %+v", j)
	}
	if now := e.do("GET", "/v1/documents/"+docID+"/output", key, nil, nil).body; !bytes.Equal(now, old) {
		t.Fatal("the output changed after a failed apply")
	}
	var audit struct{ Entries []ereview.Entry }
	e.do("GET", "/v1/documents/"+docID+"/audit", key, nil, nil).json(t, &audit)
	if n := len(audit.Entries); n == 0 || audit.Entries[n-1].Action != "apply_failed" {
		t.Fatalf("audit %+v", audit.Entries)
	}
}

// TestReviewTransform checks that mask coordinates are the page as the
// output shows it, on a page rotated 90 degrees, a page with a CropBox
// inside a larger MediaBox, and an image input: a detection's mask sits
// over its word, and a manual mask drawn in those coordinates is black
// at the same place of the re-burned output.
func TestReviewTransform(t *testing.T) {
	e := start(t, reviewConfig(t))
	key := e.key("tf@example.com", "standard", 0)

	check := func(name, content string, w, h float64, word page.Rect, draw page.Rect) {
		t.Run(name, func(t *testing.T) {
			e.t = t
			_, docID := e.studioJob(key, name, content, "studio")
			st := e.masks(key, docID)
			if st.Pages[0].Width != w || st.Pages[0].Height != h {
				t.Fatalf("page %+v, want %vx%v", st.Pages[0], w, h)
			}
			if !word.Empty() {
				found := false
				for _, m := range st.Masks {
					c := page.Point{X: (word.X0 + word.X1) / 2, Y: (word.Y0 + word.Y1) / 2}
					found = found || (m.Category == "Email" && c.X > m.X0 && c.X < m.X1 && c.Y > m.Y0 && c.Y < m.Y1)
				}
				if !found {
					t.Fatalf("no Email mask over %+v: %+v", word, st.Masks)
				}
			}
			ms := append(st.Masks, ereview.Mask{Page: 1, X0: draw.X0, Y0: draw.Y0, X1: draw.X1, Y1: draw.Y1, Category: "Person", Status: "accepted"})
			if r := e.putMasks(key, docID, st.Version, ms); r.status != 200 {
				t.Fatalf("PUT %d %s", r.status, r.body)
			}
			before, _ := e.outputRaster(key, docID, 1)
			if s := darkShare(before, draw); s > 0.5 {
				t.Fatalf("the drawn area is %.2f dark before apply", s)
			}
			before.Release()
			if r := e.do("POST", "/v1/documents/"+docID+"/apply", key, nil, nil); r.status != 200 {
				t.Fatalf("apply %d %s", r.status, r.body)
			}
			after, _ := e.outputRaster(key, docID, 1)
			if math.Abs(float64(after.W)-w) > 1.5 || math.Abs(float64(after.H)-h) > 1.5 {
				t.Fatalf("output page %dx%d px at 72 dpi, want %vx%v", after.W, after.H, w, h)
			}
			if s := darkShare(after, draw); s < 0.95 {
				t.Fatalf("the drawn area is %.2f dark after apply; want black", s)
			}
			if !word.Empty() && darkShare(after, word) < 0.9 {
				t.Fatalf("the accepted e-mail mask is not black after apply")
			}
			after.Release()
		})
	}

	// Rotated 90 degrees: 600 x 400 MediaBox shown as 400 x 600.
	d := testpdf.New()
	p := d.AddPage(600, 400, 90)
	p.Text(60, 300, 14, "Write to ann.lee@example.org today")
	check("rotated.pdf", string(d.Bytes()), 400, 600, wordBox(t, p, "ann.lee@example.org"), page.Rect{X0: 300, Y0: 450, X1: 380, Y1: 500})

	// CropBox: a 300 x 200 window at (100, 150) of a 612 x 792 MediaBox.
	d = testpdf.New()
	p = d.AddPageCrop([4]float64{0, 0, 612, 792}, [4]float64{100, 150, 400, 350}, 0)
	p.Text(120, 300, 12, "Mail bo.berg@example.net now")
	check("crop.pdf", string(d.Bytes()), 300, 200, wordBox(t, p, "bo.berg@example.net"), page.Rect{X0: 200, Y0: 120, X1: 280, Y1: 180})

	// An image: 400 x 300 px at 72 dpi (no pHYs: the default), a grey
	// picture; a manual mask at (100, 50)-(200, 120) points.
	img := image.NewGray(image.Rect(0, 0, 400, 300))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.SetGray(10, 10, color.Gray{0})
	var buf bytes.Buffer
	png.Encode(&buf, img)
	iw, ih := pngPoints(t, buf.Bytes())
	check("scan.png", buf.String(), iw, ih, page.Rect{}, page.Rect{X0: iw / 4, Y0: ih / 6, X1: iw / 2, Y1: ih / 2.5})
}

// pngPoints is the page size the pipeline gives an image file, as the
// engine reports it (imagein's default dpi for files without one).
func pngPoints(t *testing.T, b []byte) (float64, float64) {
	sizes, err := pipeline.Previews{}.PageSizes(context.Background(), writeTemp(t, b))
	if err != nil {
		t.Fatal(err)
	}
	return sizes[0].Width, sizes[0].Height
}

func writeTemp(t *testing.T, b []byte) string {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReviewRescan: at apply the new output is read again with the
// appliance's own OCR and detection. A rejected e-mail comes back as an
// expected leak and the apply goes through; a detection moved off its
// word leaves the word readable, an unexpected leak that refuses the
// apply (422 output_rejected naming it, the old output kept, the leak in
// the state); with every mask burned nothing of it is found.
func TestReviewRescan(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the OCR and NER models")
	}
	cfg := reviewConfig(t)
	cfg.OCR = "auto"
	cfg.DPI = 150
	e := start(t, cfg)
	key := e.key("scan@example.com", "standard", 0)
	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 760, 14, "Quarterly note")
	p.Text(72, 700, 14, "Write to harriet.quinlan@example.org for copies")
	_, docID := e.studioJob(key, "note.pdf", string(d.Bytes()), "studio")
	email := wordBox(t, p, "harriet.quinlan@example.org")

	type applied struct {
		Rescanned bool           `json:"rescanned"`
		Leaks     []ereview.Leak `json:"leaks"`
	}
	put := func(mut func(m *ereview.Mask)) {
		t.Helper()
		st := e.masks(key, docID)
		ms := append([]ereview.Mask(nil), st.Masks...)
		for i := range ms {
			if overlaps(ms[i], email) {
				mut(&ms[i])
			}
		}
		if r := e.putMasks(key, docID, st.Version, ms); r.status != 200 {
			t.Fatalf("PUT %d %s", r.status, r.body)
		}
	}
	apply := func(mut func(m *ereview.Mask)) applied {
		t.Helper()
		put(mut)
		r := e.do("POST", "/v1/documents/"+docID+"/apply", key, nil, nil)
		var a applied
		r.json(t, &a)
		if r.status != 200 || !a.Rescanned {
			t.Fatalf("apply %d %s", r.status, r.body)
		}
		return a
	}
	emailLeak := func(a applied) *ereview.Leak {
		for i, l := range a.Leaks {
			c := page.Point{X: (email.X0 + email.X1) / 2, Y: (email.Y0 + email.Y1) / 2}
			if l.Category == "Email" && c.X > l.X0 && c.X < l.X1 && c.Y > l.Y0 && c.Y < l.Y1 {
				return &a.Leaks[i]
			}
		}
		return nil
	}
	output := func() []byte { return e.do("GET", "/v1/documents/"+docID+"/output", key, nil, nil).body }
	if l := emailLeak(apply(func(m *ereview.Mask) { m.Status = "accepted" })); l != nil {
		t.Fatalf("masked e-mail reported readable: %+v", l)
	}
	a := apply(func(m *ereview.Mask) { m.Status = "rejected" })
	if l := emailLeak(a); l == nil || !l.Expected {
		t.Fatalf("rejected e-mail: leaks %+v, want it found and expected", a.Leaks)
	}
	old := output()
	put(func(m *ereview.Mask) { // moved to an empty corner, burned
		m.Status, m.X0, m.Y0, m.X1, m.Y1 = "accepted", 400, 780, 500, 800
	})
	m := e.do("POST", "/v1/documents/"+docID+"/apply", key, nil, nil).wantError(t, 422, "output_rejected")
	if msg, _ := m["error"].(string); !strings.Contains(msg, "Email on page 1") || !strings.Contains(msg, "previous output is kept") {
		t.Fatalf("refused apply says %q, want the leak and that the old output is kept", msg)
	}
	if !bytes.Equal(output(), old) {
		t.Fatal("a refused apply replaced the output")
	}
	var st struct{ Leaks []ereview.Leak }
	e.do("GET", "/v1/documents/"+docID+"/masks", key, nil, nil).json(t, &st)
	if l := emailLeak(applied{Leaks: st.Leaks}); l == nil || l.Expected {
		t.Fatalf("moved mask: state leaks %+v, want the e-mail found and unexpected", st.Leaks)
	}
	var audit struct{ Entries []ereview.Entry }
	e.do("GET", "/v1/documents/"+docID+"/audit", key, nil, nil).json(t, &audit)
	last := audit.Entries[len(audit.Entries)-1]
	if last.Action != "apply_failed" || !strings.Contains(last.Reason, ":leaks=") {
		t.Fatalf("last audit entry %+v", last)
	}
}
