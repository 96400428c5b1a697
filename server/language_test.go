package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestE2ELanguage checks the language hint (issue 46) through the real
// server: an unknown code is a 400 invalid_request naming the field, on
// both create paths; a known code is stored with the job and shown on
// it, through redaction; none given reads "auto".
func TestE2ELanguage(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("lang@example.com", "standard", 100)
	pdf := samplePDF(1)
	files := [][2]string{{"a.pdf", pdf}}
	lang := func(r resp) string {
		t.Helper()
		var raw map[string]json.RawMessage
		r.json(t, &raw)
		var s string
		if err := json.Unmarshal(raw["language"], &s); err != nil {
			t.Fatalf("job without a language string: %s", r.body)
		}
		return s
	}

	for _, bad := range []string{"xx", "DE", "de-DE", "", "english", "auto "} {
		m := e.create(key, form{files: files, fields: [][2]string{{"language", bad}}}, nil).wantError(t, 400, "invalid_request")
		if msg := m["error"].(string); !strings.HasPrefix(msg, "language: ") || !strings.Contains(msg, `"auto" or one of en, de, fr, es, it, nl, pt`) {
			t.Fatalf("language %q: message %q", bad, msg)
		}
	}
	for _, bad := range []string{`"xx"`, `7`, `""`, `["de"]`} {
		r := e.do("POST", "/v1/jobs/init", key, strings.NewReader(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":12}],"language":`+bad+`}`),
			map[string]string{"Content-Type": "application/json"})
		m := r.wantError(t, 400, "invalid_request")
		if !strings.HasPrefix(m["error"].(string), "language: ") {
			t.Fatalf("init language %s: message %q", bad, m["error"])
		}
	}
	// Given twice: refused as every form field is.
	e.create(key, form{files: files, fields: [][2]string{{"language", "de"}, {"language", "fr"}}}, nil).wantError(t, 400, "invalid_request")

	for _, c := range []struct{ give, want string }{{"de", "de"}, {"pt", "pt"}, {"auto", "auto"}, {"", "auto"}} {
		f := form{files: files}
		if c.give != "" {
			f.fields = [][2]string{{"language", c.give}}
		}
		r := e.create(key, f, nil)
		j := e.job(r)
		if got := lang(r); got != c.want {
			t.Fatalf("language %q: created job says %q", c.give, got)
		}
		done := e.wait(key, j.JobID)
		if done.Documents[0].Status != "redacted" {
			t.Fatalf("language %q: %+v", c.give, done)
		}
		if got := lang(e.do("GET", "/v1/jobs/"+j.JobID, key, nil, nil)); got != c.want {
			t.Fatalf("language %q: stored job says %q", c.give, got)
		}
	}
	// The direct-upload path stores it too.
	r := e.do("POST", "/v1/jobs/init", key, strings.NewReader(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":12}],"language":"it"}`),
		map[string]string{"Content-Type": "application/json"})
	var res reservation
	r.json(t, &res)
	if r.status != 200 {
		t.Fatalf("init with language: %d %s", r.status, r.body)
	}
	if got := lang(e.do("GET", "/v1/jobs/"+res.JobID, key, nil, nil)); got != "it" {
		t.Fatalf("init: job says %q", got)
	}
}
