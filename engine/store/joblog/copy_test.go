package joblog

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
)

// TestCopyToUse: CopyTo keeps an account's use where no document
// accounts for it (a redacted document's job deleted since) and where
// the quota was lowered below it, charges only what a document still
// holds (not a refunded charge), and copies review grants.
func TestCopyToUse(t *testing.T) {
	l := openT(t, t.TempDir())
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := &Account{ID: "a1", Email: "use@example.com", Plan: "standard", PagesQuota: 5, PagesUsed: 9, CreatedAt: now}
	j := &Job{ID: "j1", AccountID: "a1", Status: "error", CreatedAt: now, DocIDs: []string{"d1", "d2"}}
	d1 := &Doc{ID: "d1", JobID: "j1", AccountID: "a1", Status: "redacted", Charged: true, ChargedPages: 3}
	d2 := &Doc{ID: "d2", JobID: "j1", AccountID: "a1", Index: 1, Status: "error", Charged: true, ChargedPages: 4, Refunded: true}
	b := l.NewBatch()
	b.PutAccount(a)
	b.PutJob(j)
	b.PutDoc(d1)
	b.PutDoc(d2)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	g := &record.ReviewGrant{AccountID: "a1", KeyID: "k1", JobID: "j1", Role: "reviewer", Actor: "x", Created: now, Expires: now.Add(time.Hour)}
	if err := l.CreateReviewGrant(record.ReviewLink, []byte("0123456789abcdef0123456789abcdef"), g); err != nil {
		t.Fatal(err)
	}

	ps, err := pebblestore.Open(filepath.Join(t.TempDir(), "store"), pebblestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dst, err := storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{Close: ps.Close})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	n, err := l.CopyTo(dst)
	if err != nil {
		t.Fatal(err)
	}
	if n != (Copied{Accounts: 1, Jobs: 1, Docs: 2, Grants: 1}) {
		t.Fatalf("copied %+v", n)
	}
	got, err := dst.Account("a1")
	if err != nil || got.PagesUsed != 9 || got.PagesQuota != 5 {
		t.Fatalf("account %+v (%v), want 9 pages used of 5", got, err)
	}
	for doc, want := range map[string]int64{"d1": 3, "d2": 0, MigratedCharge: 6} {
		pages, ok, err := dst.Charged("a1", doc)
		if err != nil || pages != want || ok != (want > 0) {
			t.Errorf("charge of %s: %d %v (%v), want %d", doc, pages, ok, err, want)
		}
	}
	if rg, err := dst.ReviewGrant(record.ReviewLink, []byte("0123456789abcdef0123456789abcdef")); err != nil || rg.JobID != "j1" || !rg.Expires.Equal(g.Expires) {
		t.Fatalf("review grant %+v (%v)", rg, err)
	}
}
