package jobs

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// TestListJobs pages through an account's jobs on the node's record
// store (storelog over pebble): more jobs than a page, newest first, each once, a status
// filter, another account's jobs never, bad cursors and limits refused.
func TestListJobs(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("lister@example.com", "standard", 0)
	b, _ := v.account("other@example.com", "standard", 0)
	var all, failed []string // newest first
	for i := range 11 {
		v.clock.Advance(time.Second)
		f := pdfFile("a.pdf", 1)
		if i%4 == 1 {
			f = pdfFile("bad.pdf", 1, "fail=damaged")
		}
		j := v.create(a, f)
		v.waitDone(a, j.ID)
		all = append([]string{j.ID}, all...)
		if i%4 == 1 {
			failed = append([]string{j.ID}, failed...)
		}
	}
	v.waitDone(b, v.create(b, pdfFile("b.pdf", 1)).ID)
	walk := func(limit int, status Status) (ids []string, pages int) {
		t.Helper()
		req := ListJobsRequest{Limit: limit, Status: status}
		for {
			l, err := v.e.ListJobs(context.Background(), a, req)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if len(l.Jobs) > limit {
				t.Fatalf("%d jobs on a page of %d", len(l.Jobs), limit)
			}
			for _, j := range l.Jobs {
				if status != "" && j.Status != status {
					t.Fatalf("job %s is %s under filter %s", j.ID, j.Status, status)
				}
				ids = append(ids, j.ID)
			}
			if l.NextCursor == "" {
				return ids, pages
			}
			req.Cursor = l.NextCursor
			if pages > 50 {
				t.Fatal("listing does not end")
			}
		}
	}
	if ids, pages := walk(3, ""); !slices.Equal(ids, all) || pages != 4 {
		t.Fatalf("limit 3: %d pages %v\nwant %v", pages, ids, all)
	}
	if ids, _ := walk(MaxListLimit, ""); !slices.Equal(ids, all) {
		t.Fatalf("one page: %v", ids)
	}
	if ids, _ := walk(2, StatusError); !slices.Equal(ids, failed) || len(failed) != 3 {
		t.Fatalf("errors: %v, want %v", ids, failed)
	}
	for _, req := range []ListJobsRequest{
		{Limit: 0}, {Limit: MaxListLimit + 1}, {Limit: 5, Status: "done"},
		{Limit: 5, Cursor: "NaN"}, {Limit: 5, Cursor: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
	} {
		if _, err := v.e.ListJobs(context.Background(), a, req); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v, want invalid", req, err)
		}
	}
}
