package server_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	ereview "github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// TestReviewTimed20Pages is the timed review of a 20-page studio document
// (docs/behaviour.md: The review editor, "Timed review"): first redaction, preview
// latency of both layers through an editor session (p50, p95), and apply
// with and without the re-scan, against the first redaction. It asserts
// only that each step works; the figures are logged (timing targets stay
// out of assertions). Run it with REDACTD_REVIEW_TIMING=1.
func TestReviewTimed20Pages(t *testing.T) {
	if os.Getenv("REDACTD_REVIEW_TIMING") == "" {
		t.Skip("set REDACTD_REVIEW_TIMING=1 to run the timed review")
	}
	cfg := reviewConfig(t)
	cfg.OCR, cfg.DPI = "auto", 150
	cfg.Workers, cfg.MaxConcurrentJobs = 0, 4
	cfg.MaxUploadBytes, cfg.MaxRequestBytes = 16<<20, 32<<20
	cfg.ReviewMaxMasks = 20000
	e := start(t, cfg)
	key := e.key("timed@example.com", "standard", 0)

	d := testpdf.New()
	names := []string{"Ingrid Solberg", "Tomasz Wieczorek", "Aiyana Redcloud", "Mehmet Karaca", "Lucia Ferreira"}
	for i := 0; i < 20; i++ {
		p := d.AddPage(612, 792, 0)
		p.Text(72, 740, 16, fmt.Sprintf("Case file 2026-%03d, page %d", i+7, i+1))
		y := 700.0
		for k := 0; k < 12; k++ {
			n := names[(i+k)%len(names)]
			email := strings.ToLower(strings.ReplaceAll(n, " ", ".")) + "@example.org"
			p.Text(72, y, 11, fmt.Sprintf("%s wrote on 12 March 2026 from %s, phone +44 20 7946 %04d.", n, email, 100+i*12+k))
			y -= 24
			p.Text(72, y, 11, "The request concerns the records held by the department for the period under review.")
			y -= 28
		}
	}
	start := time.Now()
	jobID, docID := e.studioJob(key, "case.pdf", string(d.Bytes()), "studio")
	first := time.Since(start)

	b := e.browser()
	b.do("GET", e.link(key, jobID, `{"reviewer":"Timer"}`), nil, nil).wantStatus(t, 200)
	var lat []time.Duration
	for _, layer := range []string{"original", "burned"} {
		for pg := 1; pg <= 20; pg++ {
			t0 := time.Now()
			r := b.do("GET", fmt.Sprintf("/review/api/docs/%s/pages/%d/%s.png?dpi=90", docID, pg, layer), nil, nil)
			lat = append(lat, time.Since(t0))
			r.wantStatus(t, 200)
		}
	}
	slices.Sort(lat)
	p50, p95 := lat[len(lat)/2], lat[len(lat)*95/100]

	var st reviewState
	b.do("GET", "/review/api/docs/"+docID+"/state", nil, nil).json(t, &st)
	ms := append([]ereview.Mask(nil), st.Masks...)
	for i := range ms {
		ms[i].Status = "accepted"
		if i%7 == 0 {
			ms[i].Status = "rejected"
		}
	}
	ms = append(ms, ereview.Mask{Page: 3, X0: 72, Y0: 40, X1: 300, Y1: 60, Category: "Organization", Status: "accepted"})
	b.do("PUT", "/review/api/docs/"+docID+"/masks", map[string]any{"masks": ms}, map[string]string{"If-Match": fmt.Sprint(st.Version)}).wantStatus(t, 200)
	t0 := time.Now()
	r := b.do("POST", "/review/api/docs/"+docID+"/apply", nil, nil)
	withScan := time.Since(t0)
	r.wantStatus(t, 200)
	var ap struct {
		Rescanned bool
		Leaks     []ereview.Leak
		Timings   map[string]int64 `json:"timings_ms"`
	}
	r.json(t, &ap)
	if !ap.Rescanned {
		t.Fatal("no re-scan")
	}
	reburn := time.Duration(ap.Timings["reburn"]) * time.Millisecond
	rescan := time.Duration(ap.Timings["rescan"]) * time.Millisecond
	// A second apply of the same state (nothing to save first).
	t0 = time.Now()
	b.do("POST", "/review/api/docs/"+docID+"/apply", nil, nil).wantStatus(t, 200)
	again := time.Since(t0)

	t.Logf("20-page studio document, %d masks (%d rejected), dpi %v, ocr %s", len(ms), len(ms)/7+1, cfg.DPI, cfg.OCR)
	t.Logf("first redaction: %v", first.Round(time.Millisecond))
	t.Logf("preview latency over %d requests (both layers, 90 dpi): p50 %v, p95 %v", len(lat), p50.Round(time.Millisecond), p95.Round(time.Millisecond))
	t.Logf("apply with re-scan: %v (%.2f x first redaction; %d leaks, %d unexpected)", withScan.Round(time.Millisecond),
		withScan.Seconds()/first.Seconds(), len(ap.Leaks), countUnexpected(ap.Leaks))
	t.Logf("  of which re-burn %v (%.2f x first redaction), re-scan %v (%.2f x)", reburn, reburn.Seconds()/first.Seconds(), rescan, rescan.Seconds()/first.Seconds())
	t.Logf("second apply: %v (%.2f x first redaction)", again.Round(time.Millisecond), again.Seconds()/first.Seconds())
}

func countUnexpected(ls []ereview.Leak) int {
	n := 0
	for _, l := range ls {
		if !l.Expected {
			n++
		}
	}
	return n
}
