package joblog

import (
	"fmt"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/google/uuid"
)

// putJobs writes n jobs of account, one second apart from base, with a
// status cycling through statuses; it returns their ids, oldest first.
func putJobs(t *testing.T, l *Log, account string, base time.Time, n int, statuses ...string) []string {
	t.Helper()
	var ids []string
	for i := range n {
		j := &Job{ID: uuid.NewString(), AccountID: account, Status: statuses[i%len(statuses)], Retention: "ephemeral",
			CreatedAt: base.Add(time.Duration(i) * time.Second)}
		d := &Doc{ID: uuid.NewString(), JobID: j.ID, AccountID: account, Status: j.Status, FileName: fmt.Sprintf("f%d.pdf", i)}
		j.DocIDs = []string{d.ID}
		b := l.NewBatch()
		b.PutJob(j)
		b.PutDoc(d)
		if err := b.Commit(true); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	return ids
}

// listAll pages through an account's listing and returns the job ids.
func listAll(t *testing.T, l *Log, account string, limit int, status string) (ids []string, pages int) {
	t.Helper()
	var before []byte
	for {
		jobs, next, err := l.ListJobs(account, before, limit, status)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) > limit {
			t.Fatalf("page of %d jobs, limit %d", len(jobs), limit)
		}
		pages++
		for _, j := range jobs {
			if j.Job.AccountID != account || len(j.Docs) != 1 || j.Docs[0].JobID != j.Job.ID {
				t.Fatalf("listed %+v %+v", j.Job, j.Docs)
			}
			ids = append(ids, j.Job.ID)
		}
		if next == nil {
			return ids, pages
		}
		before = next
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

func TestListJobs(t *testing.T) {
	l := openT(t, t.TempDir())
	base := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	a := putJobs(t, l, "acct-a", base, 7, "redacted", "error", "analyzing")
	b := putJobs(t, l, "acct-b", base.Add(time.Millisecond), 3, "redacted")

	got, pages := listAll(t, l, "acct-a", 3, "")
	if fmt.Sprint(got) != fmt.Sprint(reversed(a)) || pages != 3 {
		t.Fatalf("account a: %v in %d pages, want %v newest first in 3", got, pages, reversed(a))
	}
	if got, _ := listAll(t, l, "acct-b", 50, ""); fmt.Sprint(got) != fmt.Sprint(reversed(b)) {
		t.Fatalf("account b: %v, want %v", got, reversed(b))
	}
	if got, _ := listAll(t, l, "acct-c", 50, ""); len(got) != 0 {
		t.Fatalf("unknown account lists %v", got)
	}
	// a[0], a[3], a[6] are redacted.
	if got, _ := listAll(t, l, "acct-a", 2, "redacted"); fmt.Sprint(got) != fmt.Sprint([]string{a[6], a[3], a[0]}) {
		t.Fatalf("redacted of a: %v", got)
	}
	// An exact page size ends with no cursor only once the index is exhausted.
	jobs, next, err := l.ListJobs("acct-a", nil, 7, "")
	if err != nil || len(jobs) != 7 || next != nil {
		t.Fatalf("limit 7 of 7: %d jobs, next %q, %v", len(jobs), next, err)
	}
	if _, _, err := l.ListJobs("acct-a", []byte("short"), 5, ""); err == nil {
		t.Fatal("a malformed position was accepted")
	}

	// Purging removes the index entry.
	j, docs, err := l.JobAndDocs(a[6])
	if err != nil {
		t.Fatal(err)
	}
	pb := l.NewBatch()
	pb.PurgeJob(j, docs)
	if err := pb.Commit(true); err != nil {
		t.Fatal(err)
	}
	if got, _ := listAll(t, l, "acct-a", 50, ""); fmt.Sprint(got) != fmt.Sprint(reversed(a[:6])) {
		t.Fatalf("after purge: %v", got)
	}
	keys, err := l.AllKeys()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if len(k) > len(pAcctTime) && k[:len(pAcctTime)] == pAcctTime && k[len(k)-36:] == a[6] {
			t.Fatalf("purge left %q", k)
		}
	}
}

// TestListJobsScanBound: a filter that matches nothing reads at most
// maxListScan entries per call and hands back a cursor to go on from.
func TestListJobsScanBound(t *testing.T) {
	l := openT(t, t.TempDir())
	b := l.NewBatch()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range maxListScan + 10 {
		j := &Job{ID: uuid.NewString(), AccountID: "a", Status: "redacted", CreatedAt: base.Add(time.Duration(i))}
		b.PutJob(j)
	}
	if err := b.Commit(false); err != nil {
		t.Fatal(err)
	}
	jobs, next, err := l.ListJobs("a", nil, 10, "error")
	if err != nil || len(jobs) != 0 || next == nil {
		t.Fatalf("first call: %d jobs, next %v, %v; want none and a cursor", len(jobs), next, err)
	}
	jobs, next, err = l.ListJobs("a", next, 10, "error")
	if err != nil || len(jobs) != 0 || next != nil {
		t.Fatalf("second call: %d jobs, next %v, %v; want none and the end", len(jobs), next, err)
	}
}

// TestMigrationBuildsListingIndex writes jobs into a version-1 log (the
// layout without acctjobt/), reopens it with the current code and lists
// them all.
func TestMigrationBuildsListingIndex(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir, Options{Version: 1, Migrations: []Migration{}})
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	a := putJobs(t, l, "acct-a", base, 4, "redacted")
	// Version 1 had no listing index: remove what PutJob wrote.
	p := []byte(pAcctTime)
	if err := l.db.DeleteRange(p, upper(p), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if jobs, _, err := l.ListJobs("acct-a", nil, 50, ""); err != nil || len(jobs) != 0 {
		t.Fatalf("version-1 log lists %d jobs (%v)", len(jobs), err)
	}
	l.Close()

	l = openT(t, dir)
	if v, err := l.SchemaVersionOf(); err != nil || v != SchemaVersion {
		t.Fatalf("version %d (%v) after migration", v, err)
	}
	if got, _ := listAll(t, l, "acct-a", 3, ""); fmt.Sprint(got) != fmt.Sprint(reversed(a)) {
		t.Fatalf("after migration: %v, want %v", got, reversed(a))
	}
}
