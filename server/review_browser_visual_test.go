package server_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/redactd/redactd/internal/testkit/hostile/pictures"
)

// TestReviewBrowserVisual opens a scanned ID card (a photo of a person and
// a QR code holding her contact, from the pictures corpus) in the editor
// in Chromium and checks that the Face and Barcode detections are listed
// in its table and drawn on the page, with the visual categories in the
// category picker (issue 47). The screenshot it saves
// (REDACTD_REVIEW_VISUAL_SCREENSHOT names where) is the one committed as
// docs/review-editor-visual.png. It skips only when no browser is found
// and CI is unset.
func TestReviewBrowserVisual(t *testing.T) {
	browser := findBrowser()
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium found and CI is set: make test-setup (apt-get install chromium)")
		}
		t.Skip("no Chromium on PATH (apt-get install chromium, or .ci/browser-setup.sh); CI runs this test")
	}
	cases, err := pictures.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	var card []byte
	for _, c := range cases {
		if c.Name == "scan-idcard" {
			card = c.Doc
		}
	}
	if card == nil {
		t.Fatal("the pictures corpus has no scan-idcard case")
	}
	cfg := reviewConfig(t)
	cfg.OCR = "auto"
	e := start(t, cfg)
	key := e.key("visual@example.com", "standard", 0)
	jobID, docID := e.studioJob(key, "idcard.png", string(card), "studio")
	st := e.masks(key, docID)
	ids := map[string]string{}
	for _, m := range st.Masks {
		if m.Category == "Face" || m.Category == "Barcode" {
			ids[m.Category] = m.ID
		}
	}
	if ids["Face"] == "" || ids["Barcode"] == "" {
		t.Fatalf("want a Face and a Barcode detection on the card; masks: %+v", st.Masks)
	}
	link := e.link(key, jobID, `{"reviewer":"Browser Test"}`)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1500, 1000))...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			status, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('status')?.textContent || ''`))
			t.Fatalf("%s: %v (status line: %q)", what, err, status)
		}
	}
	must("redeem", chromedp.Do(bctx, chromedp.Navigate(e.url+link), chromedp.WaitVisible(`a[href="/review/docs/`+docID+`"]`)))
	must("open", chromedp.Do(bctx, chromedp.Click(`a[href="/review/docs/`+docID+`"]`), chromedp.WaitVisible(`body[data-state="ready"]`)))
	for cat, id := range ids {
		row := `#table tbody tr[data-key="` + id + `"]`
		must(cat+" row", chromedp.Do(bctx, chromedp.WaitVisible(row)))
		text, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('`+row+`').textContent`))
		must(cat+" row text", err)
		if !strings.Contains(text, cat) {
			t.Errorf("the %s row reads %q", cat, text)
		}
	}
	// The category picker offers the three visual categories.
	opts, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#sel-cat option')].map(o => o.value)`))
	must("categories", err)
	for _, want := range []string{"Face", "Signature", "Barcode"} {
		if !slices.Contains(opts, want) {
			t.Errorf("the category picker offers %v; want %s among them", opts, want)
		}
	}
	must("select face", chromedp.Do(bctx, chromedp.Click(`#table tbody tr[data-key="`+ids["Face"]+`"]`), chromedp.Sleep(500*time.Millisecond)))
	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	must("screenshot", err)
	out := os.Getenv("REDACTD_REVIEW_VISUAL_SCREENSHOT")
	if out == "" {
		out = filepath.Join(t.TempDir(), "review-editor-visual.png")
	}
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(shot))
}
