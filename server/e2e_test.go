package server_test

// End-to-end tests: a real listener on 127.0.0.1:0, the real engine on a
// temporary data directory and the real pipeline; requests go through
// net/http as a caller's would.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/internal/testkit/testlog"
	"github.com/redactd/redactd/internal/testkit/testpdf"
	"github.com/redactd/redactd/server"

	"github.com/redactd/redactd/internal/testkit"
)

// env is one running server.
type env struct {
	t   *testing.T
	url string
	// metricsURL is the metrics listener (metrics-listen).
	metricsURL string
	cfg        config.Config
	eng        *jobs.Engine
	logs       *testlog.Buffer
	hc         *http.Client
}

// testConfig is a configuration for fast tests: low dpi, no OCR models,
// small limits.
func testConfig(t *testing.T) config.Config {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.Listen = "127.0.0.1:0"
	cfg.DPI = 72
	cfg.OCR = "off"
	cfg.Workers = 2
	cfg.MaxConcurrentJobs = 2
	cfg.RateLimit = 10000
	cfg.RateBurst = 10000
	cfg.AuthFailRate = 0 // tests send wrong keys on purpose; TestE2EAuthFailures turns it on
	cfg.MaxUploadBytes = 1 << 20
	cfg.MaxRequestBytes = 4 << 20
	cfg.MaxFilesPerJob = 5
	cfg.MaxTermCount = 10
	return cfg
}

func start(t *testing.T, cfg config.Config) *env {
	t.Helper()
	logs := &testlog.Buffer{}
	return startWith(t, cfg, logs, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo})))
}

// startWith runs the real pipeline, engine and server on a loopback
// listener, logging to log (whose output lands in logs).
func startWith(t *testing.T, cfg config.Config, logs *testlog.Buffer, log *slog.Logger) *env {
	t.Helper()
	e, _ := launch(t, cfg, logs, log, false)
	return e
}

// launch starts the real pipeline, engine and server (and, with webhooks,
// the webhook dispatcher) on a loopback listener. stop shuts everything
// down once; it also runs at the test's cleanup.
func launch(t *testing.T, cfg config.Config, logs *testlog.Buffer, log *slog.Logger, webhooks bool) (e *env, stop func()) {
	t.Helper()
	reg := wire.NewRegistry()
	proc, err := pipeline.Open(wire.Pipeline(cfg), log, reg)
	testkit.SkipShortWithoutModels(t, err)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := jobs.Open(wire.Engine(cfg, reg), proc, log)
	if err != nil {
		proc.Close()
		t.Fatal(err)
	}
	closeHooks := func() {}
	if webhooks {
		hooks, err := server.StartWebhooks(wire.Webhooks(cfg, reg), eng.Webhooks(), log)
		if err != nil {
			t.Fatal(err)
		}
		closeHooks = func() { hooks.Close() }
	}
	srv, err := server.New(wire.Server(cfg, reg), eng, eng.Reviewer(), log)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	e = &env{t: t, url: "http://" + ln.Addr().String(), metricsURL: startMetrics(t, reg), cfg: cfg, eng: eng, logs: logs, hc: &http.Client{Timeout: time.Minute}}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			srv.Shutdown(ctx)
			<-done
			closeHooks()
			eng.Close()
			proc.Close()
			e.hc.CloseIdleConnections()
		})
	}
	t.Cleanup(stop)
	return e, stop
}

// key creates an account and returns its API key.
func (e *env) key(email, plan string, pages int64) string {
	e.t.Helper()
	k, _, err := e.eng.CreateKey(context.Background(), email, plan, pages)
	if err != nil {
		e.t.Fatal(err)
	}
	return k
}

// resp is a decoded response.
type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("response %d %q: %v", r.status, r.body, err)
	}
}

// errBody checks an error response against the spec's shape.
func (r resp) wantError(t *testing.T, status int, code string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	var m map[string]any
	r.json(t, &m)
	if m["code"] != code {
		t.Fatalf("code %v, want %s; body %s", m["code"], code, r.body)
	}
	if msg, _ := m["error"].(string); msg == "" {
		t.Fatalf("empty error message: %s", r.body)
	}
	if rid, _ := m["request_id"].(string); rid == "" || rid != r.header.Get("X-Request-Id") {
		t.Fatalf("request_id %q vs header %q", m["request_id"], r.header.Get("X-Request-Id"))
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error Content-Type %q", ct)
	}
	return m
}

func (e *env) do(method, path, key string, body io.Reader, hdr map[string]string) resp {
	e.t.Helper()
	u := path
	if !strings.HasPrefix(path, "http") {
		u = e.url + path
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := e.hc.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if res.Header.Get("X-Request-Id") == "" {
		e.t.Fatalf("%s %s: no X-Request-Id", method, path)
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

// form builds a multipart body: files as name → content, then fields.
type form struct {
	files  [][2]string
	fields [][2]string
}

func (f form) encode(t *testing.T) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, kv := range f.fields {
		w.WriteField(kv[0], kv[1])
	}
	for _, kv := range f.files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files"; filename="%s"`, kv[0]))
		h.Set("Content-Type", "application/pdf")
		pw, _ := w.CreatePart(h)
		io.WriteString(pw, kv[1])
	}
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

func (e *env) create(key string, f form, hdr map[string]string) resp {
	e.t.Helper()
	ct, body := f.encode(e.t)
	h := map[string]string{"Content-Type": ct}
	for k, v := range hdr {
		h[k] = v
	}
	return e.do("POST", "/v1/jobs", key, bytes.NewReader(body), h)
}

// jobJSON is the Job resource as a client sees it.
type jobJSON struct {
	JobID     string `json:"job_id"`
	Status    string `json:"status"`
	Retention string `json:"retention"`
	CreatedAt string `json:"created_at"`
	Documents []struct {
		ID           string  `json:"id"`
		FileName     string  `json:"file_name"`
		Status       string  `json:"status"`
		PageCount    int     `json:"page_count"`
		ErrorMessage *string `json:"error_message"`
	} `json:"documents"`
}

func (e *env) job(r resp) jobJSON {
	e.t.Helper()
	if r.status != 200 {
		e.t.Fatalf("status %d: %s", r.status, r.body)
	}
	var j jobJSON
	r.json(e.t, &j)
	// Spec shape: every field present, error_message present (null).
	var raw map[string]json.RawMessage
	r.json(e.t, &raw)
	for _, k := range []string{"job_id", "status", "retention", "created_at", "documents"} {
		if _, ok := raw[k]; !ok {
			e.t.Fatalf("job without %s: %s", k, r.body)
		}
	}
	var docs []map[string]json.RawMessage
	json.Unmarshal(raw["documents"], &docs)
	for _, d := range docs {
		for _, k := range []string{"id", "file_name", "status", "page_count", "error_message"} {
			if _, ok := d[k]; !ok {
				e.t.Fatalf("document without %s: %s", k, r.body)
			}
		}
	}
	if _, err := uuid.Parse(j.JobID); err != nil {
		e.t.Fatalf("job_id %q: %v", j.JobID, err)
	}
	if ts, err := time.Parse(time.RFC3339, j.CreatedAt); err != nil || ts.Location() != time.UTC || !strings.HasSuffix(j.CreatedAt, "Z") {
		e.t.Fatalf("created_at %q not ISO 8601 UTC: %v", j.CreatedAt, err)
	}
	for _, d := range j.Documents {
		if (d.Status == "error") != (d.ErrorMessage != nil) {
			e.t.Fatalf("document %s status %s error_message %v", d.ID, d.Status, d.ErrorMessage)
		}
	}
	return j
}

// wait polls a job until every document is terminal.
func (e *env) wait(key, id string) jobJSON {
	e.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		j := e.job(e.do("GET", "/v1/jobs/"+id, key, nil, nil))
		done := true
		for _, d := range j.Documents {
			done = done && (d.Status == "redacted" || d.Status == "error")
		}
		if done {
			return j
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("job %s not terminal: %+v", id, j)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// account reads an account's quota use through Authenticate.
func (e *env) account(key string) *jobs.Account {
	e.t.Helper()
	a, err := e.eng.Authenticate(context.Background(), key)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// samplePDF is a one-page PDF with an e-mail address and a phone number.
func samplePDF(pages int) string {
	d := testpdf.New()
	for i := 0; i < pages; i++ {
		p := d.AddPage(595, 842, 0)
		p.Text(72, 760, 12, "Invoice for Jane Doe")
		p.Text(72, 740, 12, "Contact: jane.doe@example.com")
		p.Text(72, 720, 12, fmt.Sprintf("Page %d of %d", i+1, pages))
	}
	return string(d.Bytes())
}

func verifyPDF(t *testing.T, b []byte) {
	t.Helper()
	if err := pdfout.Verify(bytes.NewReader(b), int64(len(b))); err != nil {
		t.Fatalf("output is not a valid flattened PDF: %v", err)
	}
}

func TestE2EMultipartLifecycle(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("alice@example.com", jobs.PlanStandard, 100)

	var me map[string]string
	r := e.do("GET", "/v1/me", key, nil, nil)
	if r.status != 200 {
		t.Fatalf("me: %d %s", r.status, r.body)
	}
	r.json(t, &me)
	if me["email"] != "alice@example.com" || me["user_id"] == "" || len(me) != 2 {
		t.Fatalf("me = %v", me)
	}

	pdf := samplePDF(2)
	// Tests in this package run one at a time, so the histogram's count moves
	// by this job's documents alone.
	durations := e.metric("redactd_document_duration_seconds_count", "")
	r = e.create(key, form{files: [][2]string{{"scan.pdf", pdf}}, fields: [][2]string{{"pii_categories", `["Email"]`}}}, nil)
	j := e.job(r)
	if j.Retention != "ephemeral" || len(j.Documents) != 1 || j.Documents[0].FileName != "scan.pdf" || j.Documents[0].Status != "uploaded" {
		t.Fatalf("created job = %+v", j)
	}
	j = e.wait(key, j.JobID)
	d := j.Documents[0]
	if d.Status != "redacted" || d.PageCount != 2 || j.Status != "redacted" {
		t.Fatalf("finished job = %+v", j)
	}
	if n := e.metric("redactd_document_duration_seconds_count", "") - durations; n != 1 {
		t.Fatalf("redactd_document_duration_seconds observed %v times for one redacted document, want 1", n)
	}

	h := e.do("HEAD", "/v1/documents/"+d.ID+"/output", key, nil, nil)
	r = e.do("GET", "/v1/documents/"+d.ID+"/output", key, nil, nil)
	if h.status != 200 || len(h.body) != 0 || h.header.Get("Content-Length") != r.header.Get("Content-Length") {
		t.Fatalf("HEAD output: %d %q, length %s vs %s", h.status, h.body, h.header.Get("Content-Length"), r.header.Get("Content-Length"))
	}
	if r.status != 200 || r.header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("output: %d %s", r.status, r.header.Get("Content-Type"))
	}
	if r.header.Get("Content-Length") != fmt.Sprint(len(r.body)) {
		t.Fatalf("Content-Length %s for %d bytes", r.header.Get("Content-Length"), len(r.body))
	}
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="scan-redacted.pdf"; filename*=UTF-8''scan-redacted.pdf` {
		t.Fatalf("Content-Disposition %q", cd)
	}
	verifyPDF(t, r.body)
	if bytes.Contains(r.body, []byte("jane.doe")) {
		t.Fatal("output contains the original text")
	}

	// Delete purges: 404 everywhere after, files gone.
	r = e.do("DELETE", "/v1/jobs/"+j.JobID, key, nil, nil)
	if r.status != 200 || strings.TrimSpace(string(r.body)) != `{"success":true}` {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	e.do("GET", "/v1/jobs/"+j.JobID, key, nil, nil).wantError(t, 404, "not_found")
	e.do("GET", "/v1/documents/"+d.ID+"/output", key, nil, nil).wantError(t, 404, "not_found")
	e.do("DELETE", "/v1/jobs/"+j.JobID, key, nil, nil).wantError(t, 404, "not_found")
	if _, err := os.Stat(filepath.Join(e.cfg.Data, "files", j.JobID)); !os.IsNotExist(err) {
		t.Fatalf("job files still there after delete: %v", err)
	}
	assertNoFiles(t, e.cfg.Data, d.ID)

	// Nothing sensitive in the logs.
	logs := e.logs.String()
	for _, secret := range []string{key, "scan.pdf", "jane.doe", "alice@example.com"} {
		if strings.Contains(logs, secret) {
			t.Errorf("logs contain %q", secret)
		}
	}
	if !strings.Contains(logs, `"route":"/v1/jobs/{job_id}"`) {
		t.Error("access log lacks the route pattern")
	}
}

// assertNoFiles fails when any file under data names the document.
func assertNoFiles(t *testing.T, data, docID string) {
	t.Helper()
	filepath.WalkDir(filepath.Join(data, "files"), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), docID) {
			t.Errorf("file left after purge: %s", path)
		}
		return nil
	})
}

func TestE2EErrors(t *testing.T) {
	cfg := testConfig(t)
	e := start(t, cfg)
	key := e.key("bob@example.com", jobs.PlanStandard, 100)
	pdf := samplePDF(1)
	good := form{files: [][2]string{{"a.pdf", pdf}}}

	t.Run("401", func(t *testing.T) {
		for _, k := range []string{"", "not-a-key", key + "x"} {
			for _, ep := range [][2]string{{"GET", "/v1/me"}, {"GET", "/v1/jobs/" + uuid.NewString()}, {"DELETE", "/v1/jobs/" + uuid.NewString()},
				{"POST", "/v1/jobs/" + uuid.NewString() + "/commit"}, {"GET", "/v1/documents/" + uuid.NewString() + "/output"}, {"POST", "/v1/jobs/init"}} {
				m := e.do(ep[0], ep[1], k, nil, nil).wantError(t, 401, "unauthorized")
				if m["error"] != "Unauthorized" {
					t.Fatalf("401 message %q", m["error"])
				}
			}
			ct, body := good.encode(t)
			e.do("POST", "/v1/jobs", k, bytes.NewReader(body), map[string]string{"Content-Type": ct}).wantError(t, 401, "unauthorized")
		}
	})

	t.Run("400", func(t *testing.T) {
		cases := []struct {
			name  string
			f     form
			hdr   map[string]string
			field string
		}{
			{"unknown category", form{files: good.files, fields: [][2]string{{"pii_categories", `["Person","SSN"]`}}}, nil, "pii_categories"},
			{"malformed categories", form{files: good.files, fields: [][2]string{{"pii_categories", `[Person]`}}}, nil, "pii_categories"},
			{"numeric terms", form{files: good.files, fields: [][2]string{{"pii_included_terms", `[1,2]`}}}, nil, "pii_included_terms"},
			{"non-utf8 terms", form{files: good.files, fields: [][2]string{{"pii_excluded_terms", "[\"\xff\"]"}}}, nil, "pii_excluded_terms"},
			{"too many terms", form{files: good.files, fields: [][2]string{{"pii_excluded_terms", `["1","2","3","4","5","6","7","8","9","10","11"]`}}}, nil, "pii_excluded_terms"},
			{"retention", form{files: good.files, fields: [][2]string{{"retention", "forever"}}}, nil, "retention"},
			{"empty file", form{files: [][2]string{{"a.pdf", ""}}}, nil, "files[0]"},
			{"no files", form{fields: [][2]string{{"retention", "studio"}}}, nil, "files"},
			{"unknown field", form{files: good.files, fields: [][2]string{{"pii_categoriez", "x"}}}, nil, `"pii_categoriez"`},
			{"callback_url with webhooks off", form{files: good.files, fields: [][2]string{{"callback_url", "http://127.0.0.1/x"}}}, nil, "callback_url"},
			{"long idempotency key", good, map[string]string{"X-Idempotency-Key": strings.Repeat("k", 201)}, "X-Idempotency-Key"},
			{"not a document", form{files: [][2]string{{"a.pdf", "hello, not a PDF"}}}, nil, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := e.create(key, c.f, c.hdr)
				if c.name == "not a document" && r.status == 200 {
					// The engine may accept bytes it cannot sniff and fail
					// the document instead; both are spec-conformant.
					j := e.wait(key, e.job(r).JobID)
					if j.Documents[0].Status != "error" {
						t.Fatalf("garbage redacted: %+v", j)
					}
					return
				}
				m := r.wantError(t, 400, "invalid_request")
				if !strings.HasPrefix(m["error"].(string), c.field) {
					t.Fatalf("message %q does not name %s", m["error"], c.field)
				}
			})
		}
		// Multipart without a boundary, and a JSON init body with errors.
		e.do("POST", "/v1/jobs", key, strings.NewReader("x"), map[string]string{"Content-Type": "multipart/form-data"}).wantError(t, 400, "invalid_request")
		m := e.do("POST", "/v1/jobs/init", key, strings.NewReader(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":"12"}]}`),
			map[string]string{"Content-Type": "application/json"}).wantError(t, 400, "invalid_request")
		if !strings.HasPrefix(m["error"].(string), "files[0].size_bytes") {
			t.Fatalf("init message %q", m["error"])
		}
	})

	t.Run("404", func(t *testing.T) {
		for _, p := range []string{"/v1/jobs/" + uuid.NewString(), "/v1/jobs/not-a-uuid", "/v1/documents/" + uuid.NewString() + "/output", "/v1/nothing", "/"} {
			e.do("GET", p, key, nil, nil).wantError(t, 404, "not_found")
		}
		e.do("POST", "/v1/jobs/"+uuid.NewString()+"/commit", key, nil, nil).wantError(t, 404, "not_found")
		// The output of a document that is not redacted yet is 404 too.
		res := e.init(key, [2]string{"a.pdf", pdf})
		e.do("GET", "/v1/documents/"+res.Uploads[0].DocumentID+"/output", key, nil, nil).wantError(t, 404, "not_found")
	})

	t.Run("405", func(t *testing.T) {
		r := e.do("PUT", "/v1/jobs/"+uuid.NewString(), key, nil, nil)
		r.wantError(t, 405, "method_not_allowed")
		if r.header.Get("Allow") != "DELETE, GET, HEAD" {
			t.Fatalf("Allow %q", r.header.Get("Allow"))
		}
	})

	t.Run("413", func(t *testing.T) {
		body := fmt.Sprintf(`{"files":[{"filename":"big.pdf","content_type":"application/pdf","size_bytes":%d}]}`, cfg.MaxUploadBytes+1)
		e.do("POST", "/v1/jobs/init", key, strings.NewReader(body), map[string]string{"Content-Type": "application/json"}).wantError(t, 413, "file_too_large")
		// A multipart body over max-request-bytes is refused by its
		// Content-Length once the first bytes arrived (fasthttp prefetches
		// up to 8 KiB before the handler runs), without reading the rest.
		head := strings.Repeat("x", 16<<10)
		raw := e.raw(fmt.Sprintf("POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\n\r\n%s", key, cfg.MaxRequestBytes+1, head))
		if !strings.HasPrefix(raw, "HTTP/1.1 413") || !strings.Contains(raw, `"code":"file_too_large"`) {
			t.Fatalf("oversized body: %q", raw)
		}
		// Same for an upload larger than max-upload-bytes.
		res := e.init(key, [2]string{"a.pdf", pdf})
		u := strings.TrimPrefix(res.Uploads[0].UploadURL, e.url)
		raw = e.raw(fmt.Sprintf("PUT %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\n\r\n%s", u, cfg.MaxUploadBytes+1, head))
		if !strings.HasPrefix(raw, "HTTP/1.1 413") {
			t.Fatalf("oversized upload: %q", raw)
		}
		// One file over max-upload-bytes inside an acceptable body: 400
		// naming the file.
		r := e.create(key, form{files: [][2]string{{"a.pdf", "%PDF-" + strings.Repeat("x", int(cfg.MaxUploadBytes))}}}, nil)
		m := r.wantError(t, 400, "invalid_request")
		if !strings.HasPrefix(m["error"].(string), "files[0]") {
			t.Fatal(m["error"])
		}
	})

	t.Run("402", func(t *testing.T) {
		poor := e.key("poor@example.com", jobs.PlanFree, 1)
		j := e.job(e.create(poor, good, nil))
		if j = e.wait(poor, j.JobID); j.Documents[0].Status != "redacted" {
			t.Fatalf("first job: %+v", j)
		}
		m := e.create(poor, good, nil).wantError(t, 402, "quota_exceeded")
		if m["error"] != "Insufficient quota" {
			t.Fatalf("402 message %q", m["error"])
		}
		e.do("POST", "/v1/jobs/init", poor, strings.NewReader(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":10}]}`), nil).wantError(t, 402, "quota_exceeded")
	})
}

func TestE2ERateLimit(t *testing.T) {
	cfg := testConfig(t)
	cfg.RateLimit = 0.5
	cfg.RateBurst = 3
	e := start(t, cfg)
	key := e.key("fast@example.com", jobs.PlanStandard, 10)
	other := e.key("other@example.com", jobs.PlanStandard, 10)
	for i := 0; i < 3; i++ {
		if r := e.do("GET", "/v1/me", key, nil, nil); r.status != 200 {
			t.Fatalf("request %d: %d", i, r.status)
		}
	}
	r := e.do("GET", "/v1/me", key, nil, nil)
	r.wantError(t, 429, "rate_limited")
	if ra := r.header.Get("Retry-After"); ra != "2" {
		t.Fatalf("Retry-After %q, want 2 at 0.5/s", ra)
	}
	// Per key: another key is unaffected; keyless endpoints too.
	if r := e.do("GET", "/v1/me", other, nil, nil); r.status != 200 {
		t.Fatalf("other key: %d", r.status)
	}
	if r := e.do("GET", "/healthz", "", nil, nil); r.status != 200 {
		t.Fatalf("healthz: %d", r.status)
	}
}

// TestE2EAuthFailures: a client address that keeps sending wrong keys is
// answered 429 with Retry-After once its failures exceed the burst, a
// request with no key too, while a right key from that same address is
// served (TestAuthFailuresNeverDelayValidKey has the full case); wrong
// keys may try again after the wait.
func TestE2EAuthFailures(t *testing.T) {
	cfg := testConfig(t)
	cfg.AuthFailRate = 0.5
	cfg.AuthFailBurst = 3
	e := start(t, cfg)
	key := e.key("owner@example.com", jobs.PlanStandard, 10)
	for i := 0; i < 3; i++ {
		e.do("GET", "/v1/me", "rk_live_wrong", nil, nil).wantError(t, 401, "unauthorized")
	}
	r := e.do("GET", "/v1/me", "rk_live_wrong", nil, nil)
	r.wantError(t, 429, "rate_limited")
	if ra := r.header.Get("Retry-After"); ra != "2" {
		t.Fatalf("Retry-After %q, want 2 at 0.5/s", ra)
	}
	if r := e.do("GET", "/v1/me", key, nil, nil); r.status != 200 {
		t.Fatalf("right key from a limited address: %d", r.status)
	}
	e.do("GET", "/v1/me", "", nil, nil).wantError(t, 429, "rate_limited")
	// Public endpoints need no key and stay open.
	if r := e.do("GET", "/healthz", "", nil, nil); r.status != 200 {
		t.Fatalf("healthz: %d", r.status)
	}
	time.Sleep(2100 * time.Millisecond)
	e.do("GET", "/v1/me", "rk_live_wrong", nil, nil).wantError(t, 401, "unauthorized")
}

func TestE2EIdempotencyConcurrent(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("idem@example.com", jobs.PlanStandard, 100)
	pdf := samplePDF(3)
	ct, body := form{files: [][2]string{{"a.pdf", pdf}}}.encode(t)
	ids := make([]string, 20)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", e.url+"/v1/jobs", bytes.NewReader(body))
			req.Header.Set("Content-Type", ct)
			req.Header.Set("X-API-Key", key)
			req.Header.Set("X-Idempotency-Key", "retry-42")
			res, err := e.hc.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			var j jobJSON
			if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&j) != nil {
				t.Errorf("status %d", res.StatusCode)
				return
			}
			ids[i] = j.JobID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("different jobs for one idempotency key: %v", ids)
		}
	}
	j := e.wait(key, ids[0])
	if j.Documents[0].Status != "redacted" {
		t.Fatalf("%+v", j)
	}
	if used := e.account(key).PagesUsed; used != 3 {
		t.Fatalf("pages used %d, want 3 (one charge)", used)
	}
	// A different key makes a new job.
	r := e.create(key, form{files: [][2]string{{"a.pdf", pdf}}}, map[string]string{"X-Idempotency-Key": "retry-43"})
	if j2 := e.job(r); j2.JobID == ids[0] {
		t.Fatal("new idempotency key returned the old job")
	}
}

func TestE2ECrossAccount(t *testing.T) {
	e := start(t, testConfig(t))
	a := e.key("a@example.com", jobs.PlanStandard, 100)
	b := e.key("b@example.com", jobs.PlanStandard, 100)
	j := e.wait(a, e.job(e.create(a, form{files: [][2]string{{"a.pdf", samplePDF(1)}}}, nil)).JobID)
	doc := j.Documents[0].ID
	res := e.do("POST", "/v1/jobs/init", a, strings.NewReader(`{"files":[{"filename":"r.pdf","content_type":"application/pdf","size_bytes":10}]}`), nil)
	var resv struct {
		JobID string `json:"job_id"`
	}
	res.json(t, &resv)

	for _, ep := range [][2]string{
		{"GET", "/v1/jobs/" + j.JobID}, {"DELETE", "/v1/jobs/" + j.JobID}, {"POST", "/v1/jobs/" + j.JobID + "/commit"},
		{"GET", "/v1/documents/" + doc + "/output"}, {"POST", "/v1/jobs/" + resv.JobID + "/commit"}, {"GET", "/v1/jobs/" + resv.JobID},
		{"DELETE", "/v1/jobs/" + resv.JobID},
	} {
		e.do(ep[0], ep[1], b, nil, nil).wantError(t, 404, "not_found")
	}
	// A's job survived B's DELETE attempts.
	if r := e.do("GET", "/v1/documents/"+doc+"/output", a, nil, nil); r.status != 200 {
		t.Fatalf("owner lost access: %d", r.status)
	}
}

// reservation is the init response.
type reservation struct {
	JobID   string `json:"job_id"`
	Uploads []struct {
		DocumentID string `json:"document_id"`
		FileName   string `json:"filename"`
		UploadURL  string `json:"upload_url"`
	} `json:"uploads"`
}

func (e *env) init(key string, files ...[2]string) reservation {
	e.t.Helper()
	var parts []string
	for _, f := range files {
		parts = append(parts, fmt.Sprintf(`{"filename":%q,"content_type":"application/pdf","size_bytes":%d}`, f[0], len(f[1])))
	}
	r := e.do("POST", "/v1/jobs/init", key, strings.NewReader(`{"files":[`+strings.Join(parts, ",")+`],"retention":"studio"}`), map[string]string{"Content-Type": "application/json"})
	if r.status != 200 {
		e.t.Fatalf("init: %d %s", r.status, r.body)
	}
	var res reservation
	r.json(e.t, &res)
	if len(res.Uploads) != len(files) {
		e.t.Fatalf("init: %s", r.body)
	}
	for i, u := range res.Uploads {
		if !strings.HasPrefix(u.UploadURL, e.url+"/uploads/"+u.DocumentID+"?token=") || u.FileName != files[i][0] {
			e.t.Fatalf("upload %d = %+v", i, u)
		}
	}
	return res
}

// raw sends a request over a fresh connection and returns everything
// the server answers until it closes the connection.
func (e *env) raw(req string) string {
	e.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.url, "http://"))
	if err != nil {
		e.t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	io.WriteString(conn, req)
	b, _ := io.ReadAll(conn)
	return string(b)
}

func (e *env) put(u, body string) resp {
	e.t.Helper()
	return e.do("PUT", u, "", strings.NewReader(body), map[string]string{"x-ms-blob-type": "BlockBlob", "Content-Type": "application/pdf"})
}

func TestE2EDirectUpload(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("big@example.com", jobs.PlanStandard, 100)
	one, two := samplePDF(1), samplePDF(2)

	t.Run("happy path", func(t *testing.T) {
		res := e.init(key, [2]string{"one.pdf", one}, [2]string{"two.pdf", two})
		if r := e.put(res.Uploads[0].UploadURL, one); r.status != 201 {
			t.Fatalf("put: %d %s", r.status, r.body)
		}
		// Another vendor's blob-type header works too.
		r := e.do("PUT", res.Uploads[1].UploadURL, "", strings.NewReader(two), map[string]string{"x-goog-blob-type": "BlockBlob", "Content-Type": "application/pdf"})
		if r.status != 201 {
			t.Fatalf("put: %d %s", r.status, r.body)
		}
		j := e.job(e.do("POST", "/v1/jobs/"+res.JobID+"/commit", key, nil, nil))
		if j.JobID != res.JobID || j.Retention != "studio" {
			t.Fatalf("commit = %+v", j)
		}
		// Commit is idempotent.
		e.job(e.do("POST", "/v1/jobs/"+res.JobID+"/commit", key, nil, nil))
		j = e.wait(key, res.JobID)
		for i, d := range j.Documents {
			if d.Status != "redacted" || d.PageCount != i+1 {
				t.Fatalf("doc %d = %+v", i, d)
			}
			out := e.do("GET", "/v1/documents/"+d.ID+"/output", key, nil, nil)
			verifyPDF(t, out.body)
		}
	})

	t.Run("forged token", func(t *testing.T) {
		res := e.init(key, [2]string{"one.pdf", one})
		u := res.Uploads[0].UploadURL
		e.put(u[:len(u)-4]+"AAAA", one).wantError(t, 401, "unauthorized")
		e.put(strings.SplitN(u, "?", 2)[0], one).wantError(t, 401, "unauthorized")
		// A token for another document does not open this one.
		other := e.init(key, [2]string{"x.pdf", one})
		tok := strings.SplitN(other.Uploads[0].UploadURL, "?", 2)[1]
		e.put(strings.SplitN(u, "?", 2)[0]+"?"+tok, one).wantError(t, 401, "unauthorized")
	})

	t.Run("size mismatch and bad headers", func(t *testing.T) {
		res := e.init(key, [2]string{"one.pdf", one})
		u := res.Uploads[0].UploadURL
		e.put(u, one+"extra").wantError(t, 400, "invalid_request")
		e.put(u, one[:len(one)-1]).wantError(t, 400, "invalid_request")
		e.do("PUT", u, "", strings.NewReader(one), map[string]string{"x-ms-blob-type": "AppendBlob"}).wantError(t, 400, "invalid_request")
		if r := e.put(u, one); r.status != 201 {
			t.Fatalf("correct retry refused: %d %s", r.status, r.body)
		}
	})

	t.Run("missed upload then fix and retry", func(t *testing.T) {
		res := e.init(key, [2]string{"one.pdf", one}, [2]string{"two.pdf", two})
		if r := e.put(res.Uploads[0].UploadURL, one); r.status != 201 {
			t.Fatal(r.status)
		}
		e.job(e.do("POST", "/v1/jobs/"+res.JobID+"/commit", key, nil, nil))
		// The missing document waits while its URL is valid; upload and
		// commit again.
		if r := e.put(res.Uploads[1].UploadURL, two); r.status != 201 {
			t.Fatalf("late put: %d %s", r.status, r.body)
		}
		e.job(e.do("POST", "/v1/jobs/"+res.JobID+"/commit", key, nil, nil))
		j := e.wait(key, res.JobID)
		for _, d := range j.Documents {
			if d.Status != "redacted" {
				t.Fatalf("%+v", j)
			}
		}
	})

	t.Run("nothing uploaded", func(t *testing.T) {
		res := e.init(key, [2]string{"one.pdf", one})
		j := e.job(e.do("POST", "/v1/jobs/"+res.JobID+"/commit", key, nil, nil))
		if j.Status != "error" || j.Documents[0].Status != "error" || j.Documents[0].ErrorMessage == nil {
			t.Fatalf("commit without uploads = %+v", j)
		}
	})
}

func TestE2EUploadURLExpiry(t *testing.T) {
	cfg := testConfig(t)
	cfg.UploadURLTTL = time.Second
	e := start(t, cfg)
	key := e.key("slow@example.com", jobs.PlanStandard, 100)
	one := samplePDF(1)
	res := e.init(key, [2]string{"one.pdf", one})
	time.Sleep(1500 * time.Millisecond)
	e.put(res.Uploads[0].UploadURL, one).wantError(t, 401, "unauthorized")
	// Committing a job whose only upload never landed puts it in error.
	j := e.job(e.do("POST", "/v1/jobs/"+res.JobID+"/commit", key, nil, nil))
	if j.Documents[0].Status != "error" {
		t.Fatalf("commit after expiry: %+v", j)
	}
}

func TestE2EPublicEndpoints(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("m@example.com", jobs.PlanStandard, 10)

	r := e.do("GET", "/v1/demo", "", nil, nil)
	if r.status != 200 {
		t.Fatalf("demo: %d %s", r.status, r.body)
	}
	var demo struct {
		Status      string `json:"status"`
		Message     string `json:"message"`
		SampleInput string `json:"sample_input"`
		DetectedPII []struct {
			Category string `json:"category"`
			Example  string `json:"example"`
			Masked   bool   `json:"masked"`
		} `json:"detected_pii"`
		RedactedPDFPath string `json:"redacted_pdf_path"`
	}
	r.json(t, &demo)
	if demo.Status == "" || demo.SampleInput == "" || len(demo.DetectedPII) == 0 || demo.RedactedPDFPath != e.url+"/v1/demo/sample.pdf" {
		t.Fatalf("demo = %+v", demo)
	}
	// The sample holds one value of each of the nine categories found in
	// words (the visual ones, Face, Signature and Barcode, have none); a
	// real run of the pipeline masks every one of them.
	words := 0
	for _, c := range page.Categories {
		if !c.Visual() {
			words++
		}
	}
	if demo.Status != "completed" || len(demo.DetectedPII) != words {
		t.Fatalf("demo status %q with %d examples, want completed with %d", demo.Status, len(demo.DetectedPII), words)
	}
	for _, d := range demo.DetectedPII {
		if !d.Masked {
			t.Errorf("demo example of %s not masked", d.Category)
		}
	}
	r = e.do("GET", demo.RedactedPDFPath, "", nil, nil)
	if r.status != 200 || r.header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("sample.pdf: %d", r.status)
	}
	verifyPDF(t, r.body)

	for _, p := range []string{"/healthz", "/readyz"} {
		if r := e.do("GET", p, "", nil, nil); r.status != 200 || !strings.Contains(string(r.body), `"ok"`) {
			t.Fatalf("%s: %d %s", p, r.status, r.body)
		}
	}
	r = e.do("GET", "/v1/openapi.json", "", nil, nil)
	var doc map[string]any
	r.json(t, &doc)
	if doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi: %v", doc["openapi"])
	}

	// Request ids: a sane incoming one is kept, a hostile one replaced.
	if r := e.do("GET", "/healthz", "", nil, map[string]string{"X-Request-Id": "trace-123_x"}); r.header.Get("X-Request-Id") != "trace-123_x" {
		t.Fatalf("request id not kept: %q", r.header.Get("X-Request-Id"))
	}
	if r := e.do("GET", "/healthz", "", nil, map[string]string{"X-Request-Id": "bad id<script>"}); strings.Contains(r.header.Get("X-Request-Id"), "script") {
		t.Fatal("hostile request id echoed")
	}

	// Metrics use route patterns, never raw paths.
	e.do("GET", "/v1/jobs/"+uuid.NewString(), key, nil, nil)
	e.do("GET", "/v1/me", key, nil, nil)
	m := e.metrics()
	for _, want := range []string{`redactd_http_requests_total{code="200",route="/v1/me"}`, `redactd_http_requests_total{code="404",route="/v1/jobs/{job_id}"}`, `redactd_errors_total{code="not_found"}`, `redactd_http_request_duration_seconds_bucket{route="/v1/me"`} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	known := map[string]bool{"unmatched": true, "unparsed": true}
	srv, err := server.New(wire.Server(e.cfg, nil), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range srv.Routes() {
		known[rt.Pattern] = true
	}
	for _, m := range regexp.MustCompile(`route="([^"]*)"`).FindAllStringSubmatch(m, -1) {
		if !known[m[1]] {
			t.Errorf("metrics label route=%q is not a route pattern", m[1])
		}
	}
}

func TestE2EMalformedHTTP(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("m@example.com", jobs.PlanStandard, 10)
	addr := strings.TrimPrefix(e.url, "http://")
	// Thousands of tiny parts (a hundred times the limit of 50 files and
	// 8 fields), a missing boundary and a torn body over a raw
	// connection: each gets an answer and the server stays up. The parts
	// (325 KB) are more than the server drains after an early answer
	// (drainLimit): it answers and closes while the client may still be
	// writing, and the client must read the answer, not a reset
	// (lingerConn; TestE2EEarlyAnswerToLargeUpload).
	var parts strings.Builder
	for i := 0; i < 5000; i++ {
		parts.WriteString("--b\r\nContent-Disposition: form-data; name=\"retention\"\r\n\r\nstudio\r\n")
	}
	parts.WriteString("--b--\r\n")
	r := e.do("POST", "/v1/jobs", key, strings.NewReader(parts.String()), map[string]string{"Content-Type": "multipart/form-data; boundary=b"})
	r.wantError(t, 400, "invalid_request")

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.pdf\"\r\n\r\n%%PDF", key)
	conn.(*net.TCPConn).CloseWrite()
	io.ReadAll(conn)
	conn.Close()

	if r := e.do("GET", "/healthz", "", nil, nil); r.status != 200 {
		t.Fatalf("server unhealthy after malformed input: %d", r.status)
	}
	// A file name with traversal and control characters is sanitised.
	j := e.job(e.create(key, form{files: [][2]string{{"../../etc/pass\twd\u202e.pdf", samplePDF(1)}}}, nil))
	if n := j.Documents[0].FileName; n != "passwd.pdf" {
		t.Fatalf("file name %q", n)
	}
}

// TestE2EMultipartSpool: multipart files go to disk as they stream in and
// nothing of them stays behind, whether the job is created, refused after
// its files arrived, or replayed by an idempotency key.
func TestE2EMultipartSpool(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("spool@example.com", jobs.PlanStandard, 100)
	temps := func(when string) {
		t.Helper()
		ents, err := os.ReadDir(filepath.Join(e.cfg.Data, "files"))
		if err != nil {
			t.Fatal(err)
		}
		for _, ent := range ents {
			if strings.HasPrefix(ent.Name(), ".tmp-") {
				t.Errorf("%s: temporary file %s left", when, ent.Name())
			}
		}
	}
	pdf := samplePDF(1)
	ok := form{files: [][2]string{{"a.pdf", pdf}, {"b.pdf", pdf}}}
	j := e.job(e.create(key, ok, map[string]string{"X-Idempotency-Key": "spool-1"}))
	temps("after a job was created")
	if again := e.job(e.create(key, ok, map[string]string{"X-Idempotency-Key": "spool-1"})); again.JobID != j.JobID {
		t.Fatalf("replay gave job %s, want %s", again.JobID, j.JobID)
	}
	temps("after a replay")

	// A field the server refuses, after the files were spooled.
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	pw, _ := w.CreateFormFile("files", "a.pdf")
	io.WriteString(pw, pdf)
	w.WriteField("pii_categorys", `["Email"]`)
	w.Close()
	e.do("POST", "/v1/jobs", key, &buf, map[string]string{"Content-Type": w.FormDataContentType()}).wantError(t, 400, "invalid_request")
	temps("after a refused field")

	// Files past the limit, and a second file of an unsupported type.
	big := "%PDF-" + strings.Repeat("x", int(e.cfg.MaxUploadBytes))
	e.create(key, form{files: [][2]string{{"a.pdf", pdf}, {"big.pdf", big}}}, nil).wantError(t, 400, "invalid_request")
	e.create(key, form{files: [][2]string{{"a.pdf", pdf}, {"x.pdf", "hello"}}}, nil).wantError(t, 400, "invalid_request")
	temps("after refused files")

	if done := e.wait(key, j.JobID); done.Status != "redacted" || len(done.Documents) != 2 {
		t.Fatalf("job = %+v", done)
	}
}
