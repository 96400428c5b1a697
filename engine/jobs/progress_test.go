package jobs

import (
	"context"
	"testing"
	"time"
)

// TestProgressPagesDone: pages_done reports are stored at most once per
// progressInterval (by the engine's clock) unless the status or page count
// changes with them, never move backwards or past the page count, and end
// at the page count when the document is redacted.
func TestProgressPagesDone(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("p@example.com", PlanStandard, 100)
	j := v.create(a, pdfFile("p.pdf", 10, "block"))
	doc := j.Documents[0].ID
	select {
	case <-v.proc.started:
	case <-time.After(20 * time.Second):
		t.Fatal("document not started")
	}
	stored := func() int {
		t.Helper()
		d, err := v.e.jl.Doc(doc)
		if err != nil {
			t.Fatal(err)
		}
		return d.PagesDone
	}
	d, err := v.e.jl.Doc(doc)
	if err != nil {
		t.Fatal(err)
	}
	report := v.e.disp.progressFunc(context.Background(), d)
	send := func(p Progress) {
		t.Helper()
		if err := report(p); err != nil {
			t.Fatal(err)
		}
	}
	send(Progress{Status: StatusAnalyzing, PageCount: 10, PagesDone: 1})
	if got := stored(); got != 1 {
		t.Fatalf("first report: pages_done %d, want 1", got)
	}
	for n := 2; n <= 5; n++ {
		send(Progress{Status: StatusAnalyzing, PageCount: 10, PagesDone: n})
	}
	if got := stored(); got != 1 {
		t.Fatalf("reports within the interval stored: pages_done %d, want 1", got)
	}
	// A status change is stored at once, with the pages it carries.
	send(Progress{Status: StatusRedacting, PageCount: 10, PagesDone: 6})
	if got := stored(); got != 6 {
		t.Fatalf("with a status change: pages_done %d, want 6", got)
	}
	v.clock.Advance(progressInterval)
	send(Progress{Status: StatusRedacting, PageCount: 10, PagesDone: 7})
	if got := stored(); got != 7 {
		t.Fatalf("after the interval: pages_done %d, want 7", got)
	}
	v.clock.Advance(progressInterval)
	send(Progress{Status: StatusRedacting, PageCount: 10, PagesDone: 3}) // backwards
	send(Progress{Status: StatusRedacting, PageCount: 10, PagesDone: 11})
	if got := stored(); got != 7 {
		t.Fatalf("backwards or past the page count: pages_done %d, want 7", got)
	}
	if view, err := v.e.GetJob(context.Background(), a, j.ID); err != nil || view.Documents[0].PagesDone != 7 {
		t.Fatalf("job view %+v (%v)", view, err)
	}

	close(v.proc.release)
	done := v.waitDone(a, j.ID)
	if d := done.Documents[0]; d.Status != StatusRedacted || d.PagesDone != 10 || d.PageCount != 10 {
		t.Fatalf("finished document %+v, want redacted with pages_done 10", d)
	}
}
