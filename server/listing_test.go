package server_test

import (
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/jobs"
)

// jobList is the answer of GET /v1/jobs as a client sees it.
type jobList struct {
	Jobs       []json.RawMessage `json:"jobs"`
	NextCursor *string           `json:"next_cursor"`
}

// listPage gets one page and checks its shape: every job a spec Job (the
// same checks as GET /v1/jobs/{id}), next_cursor present (string or null).
func (e *env) listPage(key, query string) ([]jobJSON, *string) {
	e.t.Helper()
	r := e.do("GET", "/v1/jobs"+query, key, nil, nil)
	if r.status != 200 {
		e.t.Fatalf("GET /v1/jobs%s: %d %s", query, r.status, r.body)
	}
	var raw map[string]json.RawMessage
	r.json(e.t, &raw)
	if _, ok := raw["next_cursor"]; !ok {
		e.t.Fatalf("no next_cursor: %s", r.body)
	}
	var l jobList
	r.json(e.t, &l)
	var out []jobJSON
	for _, j := range l.Jobs {
		out = append(out, e.job(resp{status: 200, header: r.header, body: j}))
	}
	return out, l.NextCursor
}

// listAll follows next_cursor to the end and returns the job ids in order.
func (e *env) listAll(key, params string) (ids []string, pages int) {
	e.t.Helper()
	q := "?" + params
	for {
		jobs, next := e.listPage(key, q)
		pages++
		for _, j := range jobs {
			ids = append(ids, j.JobID)
		}
		if next == nil {
			return ids, pages
		}
		q = "?" + params + "&cursor=" + url.QueryEscape(*next)
		if pages > 100 {
			e.t.Fatal("listing does not end")
		}
	}
}

// TestE2EListJobs lists jobs across pages and accounts through the real
// server: newest first, only the caller's, status filter, deleted jobs
// gone, bad parameters 400 with the spec's error body.
func TestE2EListJobs(t *testing.T) {
	e := start(t, testConfig(t))
	a := e.key("list-a@example.com", jobs.PlanStandard, 100)
	b := e.key("list-b@example.com", jobs.PlanStandard, 100)
	var aJobs, bJobs []string
	for i := range 5 {
		aJobs = append(aJobs, e.job(e.create(a, form{files: [][2]string{{"a.pdf", samplePDF(1)}}}, nil)).JobID)
		if i < 2 {
			bJobs = append(bJobs, e.job(e.create(b, form{files: [][2]string{{"b.pdf", samplePDF(1)}}}, nil)).JobID)
		}
	}
	// One of A's jobs ends in error (not a PDF).
	bad := e.job(e.create(a, form{files: [][2]string{{"bad.pdf", "%PDF-1.4 not really"}}}, nil)).JobID
	aJobs = append(aJobs, bad)
	for _, id := range aJobs {
		e.wait(a, id)
	}
	for _, id := range bJobs {
		e.wait(b, id)
	}
	slices.Reverse(aJobs)
	slices.Reverse(bJobs)

	got, pages := e.listAll(a, "limit=4")
	if !slices.Equal(got, aJobs) || pages != 2 {
		t.Fatalf("A, limit 4: %v in %d pages, want %v in 2", got, pages, aJobs)
	}
	if got, pages = e.listAll(a, "limit=1"); !slices.Equal(got, aJobs) || pages != len(aJobs) {
		t.Fatalf("A, limit 1: %v in %d pages", got, pages)
	}
	if got, _ = e.listAll(b, ""); !slices.Equal(got, bJobs) {
		t.Fatalf("B: %v, want %v", got, bJobs)
	}
	// The listed job is the job GET /v1/jobs/{id} returns.
	first, next := e.listPage(a, "?limit=1")
	one := e.job(e.do("GET", "/v1/jobs/"+aJobs[0], a, nil, nil))
	if next == nil || len(first) != 1 || !reflect.DeepEqual(first[0], one) {
		t.Fatalf("listed %+v, GET %+v", first, one)
	}
	if got, _ = e.listAll(a, "status=error"); !slices.Equal(got, []string{bad}) {
		t.Fatalf("A, status=error: %v, want [%s]", got, bad)
	}
	if got, _ = e.listAll(a, "status=redacted&limit=2"); !slices.Equal(got, aJobs[1:]) {
		t.Fatalf("A, status=redacted: %v, want %v", got, aJobs[1:])
	}
	// A cursor of A's listing used by B lists B's jobs from that time on,
	// never A's (positions only ever read the caller's own index).
	_, aNext := e.listPage(a, "?limit=1")
	if bl, _ := e.listPage(b, "?cursor="+url.QueryEscape(*aNext)); len(bl) > len(bJobs) {
		t.Fatalf("B with A's cursor: %+v", bl)
	} else {
		for _, j := range bl {
			if !slices.Contains(bJobs, j.JobID) {
				t.Fatalf("B listed a job of A: %s", j.JobID)
			}
		}
	}
	// Deleted jobs leave the listing.
	if r := e.do("DELETE", "/v1/jobs/"+aJobs[2], a, nil, nil); r.status != 200 {
		t.Fatalf("delete: %d", r.status)
	}
	if got, _ = e.listAll(a, "limit=2"); !slices.Equal(got, slices.Delete(slices.Clone(aJobs), 2, 3)) {
		t.Fatalf("after delete: %v", got)
	}

	for _, q := range []string{"?limit=0", "?limit=501", "?limit=x", "?limit=", "?limit=-1", "?status=done",
		"?status=Redacted", "?cursor=", "?cursor=!!", "?cursor=" + strings.Repeat("A", 59), "?limit=5&limit=6", "?stauts=error"} {
		r := e.do("GET", "/v1/jobs"+q, a, nil, nil)
		m := r.wantError(t, 400, "invalid_request")
		t.Logf("%s: %s", q, m["error"])
	}
	e.do("GET", "/v1/jobs", "", nil, nil).wantError(t, 401, "unauthorized")
	if r := e.do("GET", "/v1/jobs?limit=500&status=uploaded", a, nil, nil); r.status != 200 || !strings.Contains(string(r.body), `"jobs":[]`) {
		t.Fatalf("limit 500, no uploaded job: %d %s", r.status, r.body)
	}
}
