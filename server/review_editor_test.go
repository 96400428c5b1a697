package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	ereview "github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// browser is an HTTP client with a cookie jar, as a browser holds the
// editor's session.
type browser struct {
	t  *testing.T
	e  *env
	hc *http.Client
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: e.t, e: e, hc: &http.Client{Jar: jar, Timeout: time.Minute}}
}

func (b *browser) do(method, path string, body any, hdr map[string]string) resp {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, b.e.url+path, rd)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := b.hc.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: data}
}

// link asks for a review link with the API key and returns its path.
func (e *env) link(key, jobID, body string) string {
	e.t.Helper()
	r := e.do("POST", "/v1/jobs/"+jobID+"/review-link", key, strings.NewReader(body), nil)
	var l struct {
		URL string `json:"url"`
	}
	r.json(e.t, &l)
	if r.status != 200 {
		e.t.Fatalf("link %d %s", r.status, r.body)
	}
	return strings.TrimPrefix(l.URL, e.url)
}

// TestReviewEditor drives the editor's server side as a browser would:
// redeeming a link, the pages and their headers, previews, the module's
// API, roles, cross-origin refusal, sessions and the job-wide tools.
func TestReviewEditor(t *testing.T) {
	cfg := reviewConfig(t)
	cfg.ReviewIdle = 2 * time.Second
	e := start(t, cfg)
	key := e.key("ed@example.com", "standard", 0)
	other := e.key("ed2@example.com", "standard", 0)

	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 760, 14, "Dear Rosalind Fairweather,")
	p.Text(72, 730, 14, "Fairweather wrote to rosalind@example.com")
	jobID, docID := e.studioJob(key, "letter.pdf", string(d.Bytes()), "studio")
	_, otherDoc := e.studioJob(other, "o.pdf", string(d.Bytes()), "studio")

	b := e.browser()
	// No session yet: 401, or, for a page load arriving from another
	// site, a page that reloads the same path from this origin (so a
	// SameSite=Strict cookie goes along); never a loop.
	b.do("GET", "/review/jobs/"+jobID, nil, nil).wantStatus(t, 401)
	r := b.do("GET", "/review/jobs/"+jobID, nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
	if r.status != 200 || !strings.Contains(string(r.body), `http-equiv="refresh" content="0; url=/review/jobs/`+jobID+`"`) {
		t.Fatalf("cross-site arrival: %d %s", r.status, r.body)
	}
	b.do("GET", "/review/jobs/"+jobID, nil, map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate"}).wantStatus(t, 401)
	r = b.do("GET", e.link(key, jobID, `{"reviewer":"Ann"}`), nil, nil)
	if r.status != 200 || !strings.Contains(string(r.body), "letter.pdf") {
		t.Fatalf("after redeeming: %d %s", r.status, r.body)
	}
	for h, want := range map[string]string{
		"Content-Security-Policy": "default-src 'self'", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
	} {
		if !strings.Contains(r.header.Get(h), want) {
			t.Errorf("%s: %q", h, r.header.Get(h))
		}
	}
	if !strings.Contains(r.header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("CSP %q", r.header.Get("Content-Security-Policy"))
	}
	page := b.do("GET", "/review/docs/"+docID, nil, nil)
	if page.status != 200 || !strings.Contains(string(page.body), `src="/review/assets/editor.js"`) {
		t.Fatalf("editor page %d %s", page.status, page.body)
	}
	for _, s := range []string{key, "X-API-Key", "<script>", "onclick=", "style="} {
		if strings.Contains(string(page.body), s) {
			t.Fatalf("editor page holds %q", s)
		}
	}
	if js := b.do("GET", "/review/assets/editor.js", nil, nil); js.status != 200 || !strings.HasPrefix(js.header.Get("Content-Type"), "text/javascript") {
		t.Fatalf("module %d %s", js.status, js.header.Get("Content-Type"))
	}

	// Previews: PNG, never cached; the original only for reviewers.
	for _, layer := range []string{"original", "burned"} {
		r := b.do("GET", fmt.Sprintf("/review/api/docs/%s/pages/1/%s.png?dpi=36", docID, layer), nil, nil)
		if r.status != 200 || r.header.Get("Content-Type") != "image/png" || r.header.Get("Cache-Control") != "no-store" || !bytes.HasPrefix(r.body, []byte("\x89PNG")) {
			t.Fatalf("%s preview: %d %v", layer, r.status, r.header)
		}
	}
	b.do("GET", "/review/api/docs/"+docID+"/pages/9/burned.png", nil, nil).wantStatus(t, 404)
	b.do("GET", "/review/api/docs/"+docID+"/pages/1/burned.png?dpi=5000", nil, nil).wantStatus(t, 400)
	b.do("GET", "/review/api/docs/"+docID+"/pages/1/orig.pdf", nil, nil).wantStatus(t, 404)
	// Another account's document, through this session.
	b.do("GET", "/review/api/docs/"+otherDoc+"/state", nil, nil).wantStatus(t, 404)
	b.do("GET", "/review/api/docs/"+otherDoc+"/pages/1/original.png", nil, nil).wantStatus(t, 404)

	// State, edit, apply through the module's API.
	var st reviewState
	b.do("GET", "/review/api/docs/"+docID+"/state", nil, nil).json(t, &st)
	if len(st.Masks) == 0 {
		t.Fatal("no masks")
	}
	// Cross-origin writes are refused, by either rule.
	b.do("PUT", "/review/api/docs/"+docID+"/masks", map[string]any{"masks": st.Masks},
		map[string]string{"If-Match": "1", "Sec-Fetch-Site": "cross-site"}).wantStatus(t, 403)
	b.do("PUT", "/review/api/docs/"+docID+"/masks", map[string]any{"masks": st.Masks},
		map[string]string{"If-Match": "1", "Origin": "http://evil.example"}).wantStatus(t, 403)
	b.do("POST", "/review/api/docs/"+docID+"/apply", nil, map[string]string{"Sec-Fetch-Site": "same-site"}).wantStatus(t, 403)
	ms := append([]ereview.Mask(nil), st.Masks...)
	ms[0].Status = "rejected"
	r = b.do("PUT", "/review/api/docs/"+docID+"/masks", map[string]any{"masks": ms},
		map[string]string{"If-Match": `"1"`, "Sec-Fetch-Site": "same-origin", "Origin": e.url})
	if r.status != 200 {
		t.Fatalf("PUT %d %s", r.status, r.body)
	}
	b.do("PUT", "/review/api/docs/"+docID+"/masks", map[string]any{"masks": ms}, map[string]string{"If-Match": "1"}).wantStatus(t, 412)

	// Search and redact all across the job.
	var found struct{ Hits []map[string]any }
	b.do("GET", "/review/api/jobs/"+jobID+"/search?q=fairweather", nil, nil).json(t, &found)
	if len(found.Hits) != 2 {
		t.Fatalf("hits %+v", found.Hits)
	}
	b.do("POST", "/review/api/jobs/"+jobID+"/terms", map[string]string{"q": "Fairweather", "action": "redact", "category": "Person", "reason": "pii"}, nil)
	b.do("GET", "/review/api/docs/"+docID+"/state", nil, nil).json(t, &st)
	// The summary counts the job and warns about a term masked in one
	// place and not in another (the rejected detection).
	var sum struct {
		Counts struct {
			ByStatus map[string]int `json:"by_status"`
		}
		Warnings []struct{ Term string }
	}
	b.do("GET", "/review/api/jobs/"+jobID+"/summary", nil, nil).json(t, &sum)
	if sum.Counts.ByStatus["rejected"] != 1 || sum.Counts.ByStatus["accepted"] == 0 {
		t.Fatalf("summary %+v", sum)
	}
	r = b.do("POST", "/review/api/docs/"+docID+"/apply", nil, map[string]string{"Sec-Fetch-Site": "same-origin"})
	if r.status != 200 {
		t.Fatalf("apply %d %s", r.status, r.body)
	}
	var audit struct{ Entries []ereview.Entry }
	e.do("GET", "/v1/documents/"+docID+"/audit", key, nil, nil).json(t, &audit)
	if err := e.eng.Reviewer().VerifyAudit(audit.Entries); err != nil || audit.Entries[0].Actor != "reviewer:Ann" {
		t.Fatalf("audit %v %+v", err, audit.Entries)
	}

	// A viewer sees the burned layer only and changes nothing.
	v := e.browser()
	v.do("GET", e.link(key, jobID, `{"role":"viewer"}`), nil, nil).wantStatus(t, 200)
	vp := v.do("GET", "/review/docs/"+docID, nil, nil)
	if vp.status != 200 || strings.Contains(string(vp.body), `id="orig"`) || strings.Contains(string(vp.body), `id="apply"`) {
		t.Fatalf("viewer page %d", vp.status)
	}
	v.do("GET", "/review/api/docs/"+docID+"/pages/1/original.png", nil, nil).wantStatus(t, 403)
	v.do("GET", "/review/api/docs/"+docID+"/pages/1/burned.png", nil, nil).wantStatus(t, 200)
	v.do("PUT", "/review/api/docs/"+docID+"/masks", map[string]any{"masks": ms}, map[string]string{"If-Match": "9"}).wantStatus(t, 403)
	v.do("POST", "/review/api/docs/"+docID+"/apply", nil, nil).wantStatus(t, 403)
	// Searching the words would tell a viewer what lies under the masks.
	v.do("GET", "/review/api/jobs/"+jobID+"/search?q=fairweather", nil, nil).wantStatus(t, 403)

	// Sessions end after review-session-idle without requests.
	time.Sleep(cfg.ReviewIdle + 200*time.Millisecond)
	b.do("GET", "/review/jobs/"+jobID, nil, nil).wantStatus(t, 401)

	// Neither a link's token nor a session cookie reaches the log.
	logs := e.logs.String()
	u, _ := url.Parse(e.url)
	for _, c := range b.hc.Jar.Cookies(u) {
		if strings.Contains(logs, c.Value) {
			t.Fatal("a session cookie is in the log")
		}
	}
	if strings.Contains(logs, "/review/link/") {
		t.Fatal("a review link is in the log")
	}

	// The review files go with the job.
	if r := e.do("DELETE", "/v1/jobs/"+jobID, key, nil, nil); r.status != 200 {
		t.Fatalf("delete %d %s", r.status, r.body)
	}
	e.do("GET", "/v1/documents/"+docID+"/masks", key, nil, nil).wantError(t, 404, "not_found")
	assertNoFiles(t, e.cfg.Data, docID)
}

func (r resp) wantStatus(t *testing.T, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
}
