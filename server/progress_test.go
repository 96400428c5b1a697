package server_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/jobs"
)

// TestE2EPagesDone polls a 40-page document through the real pipeline:
// every Document carries pages_done beside the spec's fields, it never
// moves backwards nor past page_count, and a redacted document shows
// pages_done = page_count.
func TestE2EPagesDone(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("progress@example.com", jobs.PlanStandard, 1000)
	j := e.job(e.create(key, form{files: [][2]string{{"long.pdf", samplePDF(40)}}}, nil))
	prev, seen := 0, map[int]bool{}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		r := e.do("GET", "/v1/jobs/"+j.JobID, key, nil, nil)
		var raw struct {
			Documents []map[string]json.RawMessage `json:"documents"`
		}
		r.json(t, &raw)
		if _, ok := raw.Documents[0]["pages_done"]; !ok {
			t.Fatalf("document without pages_done: %s", r.body)
		}
		var d struct {
			Status    string `json:"status"`
			PageCount int    `json:"page_count"`
			PagesDone int    `json:"pages_done"`
		}
		b, _ := json.Marshal(raw.Documents[0])
		json.Unmarshal(b, &d)
		if d.PagesDone < prev || d.PagesDone < 0 || (d.PageCount > 0 && d.PagesDone > d.PageCount) || (d.PageCount == 0 && d.PagesDone != 0) {
			t.Fatalf("pages_done %d after %d (page_count %d, %s)", d.PagesDone, prev, d.PageCount, d.Status)
		}
		prev = d.PagesDone
		seen[d.PagesDone] = true
		if d.Status == "redacted" || d.Status == "error" {
			if d.Status != "redacted" || d.PageCount != 40 || d.PagesDone != 40 {
				t.Fatalf("finished %+v, want redacted with 40 of 40 pages", d)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not finished: %+v", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("pages_done values seen while polling: %v", seen)
}
