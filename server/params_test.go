package server_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/jobs"
)

// paramValues are what a query parameter may be given that strconv would
// read as NaN, an infinity or a number out of any bound, or nothing.
var paramValues = []string{"NaN", "+Inf", "-Inf", "1e309", "-1", "99999999999999999999999", ""}

// TestQueryParamNumbers sends every query parameter of the API and the
// editor each hostile value: a numeric parameter gets 400 with the error
// body (the API's spec body, the editor's {"error"}), naming the
// parameter in the one wording of its rule; no answer is a 5xx and
// nothing is logged at ERROR. Valid values keep working.
func TestQueryParamNumbers(t *testing.T) {
	e := start(t, reviewConfig(t))
	key := e.key("params@example.com", jobs.PlanStandard, 0)
	jobID, docID := e.studioJob(key, "p.pdf", samplePDF(1), "studio")
	b := e.browser()
	if r := b.do("GET", e.link(key, jobID, `{"reviewer":"Ann"}`), nil, nil); r.status != 200 {
		t.Fatalf("redeem: %d %s", r.status, r.body)
	}
	upload := e.init(key, [2]string{"u.pdf", samplePDF(1)}).Uploads[0]
	uploadPath := "/uploads/" + upload.DocumentID

	type param struct {
		name string
		// get answers the request with the parameter set to v.
		get func(v string) resp
		// want is the status for v; rule, when set, the message of a 400.
		want func(v string) int
		rule string
		// editor: the body is the editor's {"error": ...}.
		editor bool
	}
	q := func(name, v string) string { return name + "=" + url.QueryEscape(v) }
	always := func(s int) func(string) int { return func(string) int { return s } }
	params := []param{
		{name: "limit", get: func(v string) resp { return e.do("GET", "/v1/jobs?"+q("limit", v), key, nil, nil) },
			want: always(400), rule: "limit: must be an integer between 1 and 500"},
		{name: "cursor", get: func(v string) resp { return e.do("GET", "/v1/jobs?"+q("cursor", v), key, nil, nil) },
			want: always(400)},
		{name: "status", get: func(v string) resp { return e.do("GET", "/v1/jobs?"+q("status", v), key, nil, nil) },
			want: always(400)},
		{name: "token", get: func(v string) resp { return e.put(uploadPath+"?"+q("token", v), samplePDF(1)) },
			want: always(401)},
		{name: "dpi", editor: true, get: func(v string) resp {
			return b.do("GET", "/review/api/docs/"+docID+"/pages/1/burned.png?"+q("dpi", v), nil, nil)
		}, want: always(400), rule: "dpi: must be a number between 9 and 300"},
		{name: "q", editor: true, get: func(v string) resp {
			return b.do("GET", "/review/api/jobs/"+jobID+"/search?"+q("q", v), nil, nil)
		}, want: func(v string) int {
			if v == "" {
				return 400
			}
			return 200 // a search for the text "NaN" is a search
		}},
	}
	for _, p := range params {
		for _, v := range paramValues {
			r := p.get(v)
			want := p.want(v)
			if r.status != want {
				t.Errorf("%s=%q: status %d, want %d: %.200q", p.name, v, r.status, want, r.body)
				continue
			}
			if want != 400 {
				continue
			}
			var msg string
			if p.editor {
				var body map[string]string
				if err := json.Unmarshal(r.body, &body); err != nil || len(body) != 1 {
					t.Errorf("%s=%q: editor body %s", p.name, v, r.body)
				}
				msg = body["error"]
			} else {
				msg, _ = r.wantError(t, 400, "invalid_request")["error"].(string)
			}
			if !strings.HasPrefix(msg, p.name+": ") || p.rule != "" && msg != p.rule {
				t.Errorf("%s=%q: message %q, want %q", p.name, v, msg, p.rule)
			}
		}
	}
	// Valid values keep working.
	if jobs, _ := e.listPage(key, "?limit=1"); len(jobs) != 1 {
		t.Errorf("limit=1: %d jobs", len(jobs))
	}
	e.listPage(key, "?limit=500&status=redacted")
	for _, v := range []string{"9", "36", "72.5", "300"} {
		if r := b.do("GET", "/review/api/docs/"+docID+"/pages/1/burned.png?dpi="+v, nil, nil); r.status != 200 {
			t.Errorf("dpi=%s: %d %s", v, r.status, r.body)
		}
	}
	if r := b.do("GET", "/review/api/docs/"+docID+"/pages/1/burned.png", nil, nil); r.status != 200 {
		t.Errorf("no dpi: %d %s", r.status, r.body)
	}
	for _, line := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			t.Errorf("logged at ERROR: %s", line)
		}
	}
}
