package storelog_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
	natsstore "github.com/redactd/redactd/engine/store/nats"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
	"github.com/redactd/redactd/internal/testkit/natskit"
)

// counting is a Docs that counts what a caller reads through it: records
// (Get) and keys listed (Keys, KeysAfter).
type counting struct {
	store.Docs
	gets, listed atomic.Int64
}

func (c *counting) Get(ctx context.Context, key string) (store.Record, error) {
	c.gets.Add(1)
	return c.Docs.Get(ctx, key)
}

func (c *counting) Keys(ctx context.Context, prefix string) ([]string, error) {
	ks, err := c.Docs.Keys(ctx, prefix)
	c.listed.Add(int64(len(ks)))
	return ks, err
}

func (c *counting) KeysAfter(ctx context.Context, prefix, after string, limit int) ([]string, error) {
	ks, err := c.Docs.KeysAfter(ctx, prefix, after, limit)
	c.listed.Add(int64(len(ks)))
	return ks, err
}

func (c *counting) reset() (gets, listed int64) { return c.gets.Swap(0), c.listed.Swap(0) }

// engines are the two engines storelog runs on, each giving a fresh,
// empty store.Store per call: pebble in-process, and NATS JetStream (one
// embedded server, R1; the contract suite covers R3).
func engines(t *testing.T) map[string]func(t *testing.T) store.Store {
	var nc *natskit.Cluster
	var n atomic.Int32
	return map[string]func(t *testing.T) store.Store{
		"pebble": func(t *testing.T) store.Store {
			ps, err := pebblestore.Open(filepath.Join(t.TempDir(), "store"), pebblestore.Options{LeaseTime: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ps.Close() })
			return ps.Bundle(nil)
		},
		"nats": func(t *testing.T) store.Store {
			if nc == nil {
				nc = natskit.Start(t, 1)
			}
			st, err := natsstore.Open(context.Background(), nc.Connect(), natsstore.Options{
				Prefix: fmt.Sprintf("l%d", n.Add(1)), Replicas: 1, LeaseTime: time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			return st.Contract()
		},
	}
}

func openOn(t *testing.T, s store.Store) *storelog.Log {
	t.Helper()
	l, err := storelog.Open(context.Background(), s, storelog.Options{LeaseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// walk lists every page of account and returns the job ids in order, the
// pages, and the most records read and keys listed by one call.
func walk(t *testing.T, l *storelog.Log, c *counting, account string, limit int, status string) (ids []string, pages int, maxGets, maxListed int64) {
	t.Helper()
	var pos []byte
	c.reset()
	for {
		jobs, next, err := l.ListJobs(account, pos, limit, status)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		gets, listed := c.reset()
		maxGets, maxListed = max(maxGets, gets), max(maxListed, listed)
		if len(jobs) > limit {
			t.Fatalf("page of %d jobs, limit %d", len(jobs), limit)
		}
		for _, j := range jobs {
			if status != "" && j.Job.Status != status {
				t.Fatalf("job %s is %s, filter %s", j.Job.ID, j.Job.Status, status)
			}
			if len(j.Docs) != 1 {
				t.Fatalf("job %s with %d documents", j.Job.ID, len(j.Docs))
			}
			ids = append(ids, j.Job.ID)
		}
		if next == nil {
			return
		}
		if len(next) != record.ListCursorLen {
			t.Fatalf("position of %d bytes", len(next))
		}
		pos = next
		if pages > 100 {
			t.Fatal("listing does not end")
		}
	}
}

// TestListJobsPaged: on both engines, more jobs than a page are listed
// newest first, each once, across pages, with and without a status
// filter; another account's and purged jobs never; and one call reads
// the records of one page, not every job of the account.
func TestListJobsPaged(t *testing.T) {
	for name, open := range engines(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			c := &counting{Docs: s.Docs}
			s.Docs = c
			l := openOn(t, s)
			t0 := time.Date(2026, 3, 1, 0, 0, 0, 123, time.UTC)
			const total = 40
			var all, redacted []string // newest first
			for i := 1; i <= total; i++ {
				at := t0.Add(time.Duration(i) * time.Second)
				if i == 2 {
					at = t0.Add(3 * time.Second) // jobs 2 and 3 tie in time: by id, descending
				}
				j, _ := newJob(t, l, "acct", i, at)
				if i%3 == 0 {
					j, _ = l.Job(j.ID)
					j.Status = "redacted"
					b := l.NewBatch()
					b.PutJob(j)
					if err := b.Commit(true); err != nil {
						t.Fatal(err)
					}
				}
			}
			for i := 1; i <= 5; i++ {
				newJob(t, l, "other", 100+i, t0.Add(time.Duration(100+i)*time.Second))
			}
			// Job 7 is purged.
			j7, d7, err := l.JobAndDocs(uuid(7))
			if err != nil {
				t.Fatal(err)
			}
			b := l.NewBatch()
			b.PurgeJob(j7, d7)
			if err := b.Commit(true); err != nil {
				t.Fatal(err)
			}
			for i := total; i >= 1; i-- {
				if i == 7 {
					continue
				}
				all = append(all, uuid(i))
				if i%3 == 0 {
					redacted = append(redacted, uuid(i))
				}
			}
			const limit = 4
			ids, pages, gets, listed := walk(t, l, c, "acct", limit, "")
			if !slices.Equal(ids, all) {
				t.Fatalf("listed %v\nwant %v", ids, all)
			}
			if pages != (len(all)+limit-1)/limit {
				t.Errorf("%d pages for %d jobs at %d a page", pages, len(all), limit)
			}
			// One page: at most limit jobs and one purged entry read, and
			// limit+1 index entries (one to tell whether more remain).
			t.Logf("%d jobs, limit %d: at most %d records read and %d keys listed per call", len(all), limit, gets, listed)
			if gets > limit+1 || listed > limit+1 {
				t.Errorf("one call read %d records and listed %d keys; a page is %d", gets, listed, limit)
			}
			ids, _, _, _ = walk(t, l, c, "acct", 3, "redacted")
			if !slices.Equal(ids, redacted) {
				t.Fatalf("redacted: listed %v\nwant %v", ids, redacted)
			}
			ids, _, _, _ = walk(t, l, c, "acct", 500, "")
			if !slices.Equal(ids, all) {
				t.Fatalf("one page: listed %v", ids)
			}
			if ids, _, _, _ := walk(t, l, c, "nobody", 10, ""); len(ids) != 0 {
				t.Fatalf("an account without jobs lists %v", ids)
			}
			// A position between two jobs (not one of them) goes on from
			// the next older job.
			between := append(binaryNS(t0.Add(20*time.Second+time.Millisecond)), uuid(0)...)
			jobs, _, err := l.ListJobs("acct", between, 2, "")
			if err != nil || len(jobs) != 2 || jobs[0].Job.ID != uuid(20) || jobs[1].Job.ID != uuid(19) {
				t.Fatalf("from between 20 and 21: %v, %v", jobs, err)
			}
		})
	}
}

func binaryNS(at time.Time) []byte {
	ns := uint64(at.UnixNano())
	b := make([]byte, 8)
	for i := range 8 {
		b[7-i] = byte(ns >> (8 * i))
	}
	return b
}

// TestListingMigration: a store of layout 1 (no listing index) moves to
// layout 2 at Open and lists the jobs it held.
func TestListingMigration(t *testing.T) {
	for name, open := range engines(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			l, err := storelog.Open(context.Background(), s, storelog.Options{LeaseTime: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
			for i := 1; i <= 5; i++ {
				newJob(t, l, "acct", i, t0.Add(time.Duration(i)*time.Minute))
			}
			// Back to layout 1: no ajobt. entries, meta.schema 1.
			ctx := context.Background()
			ks, err := s.Docs.Keys(ctx, "ajobt.")
			if err != nil || len(ks) != 5 {
				t.Fatalf("index %v, %v", ks, err)
			}
			for _, k := range ks {
				r, _ := s.Docs.Get(ctx, k)
				if err := s.Docs.Delete(ctx, k, r.Revision); err != nil {
					t.Fatal(err)
				}
			}
			r, _ := s.Docs.Get(ctx, "meta.schema")
			if _, err := s.Docs.Update(ctx, "meta.schema", []byte("1"), r.Revision); err != nil {
				t.Fatal(err)
			}
			l2 := openOn(t, s)
			if v, err := l2.SchemaVersionOf(); err != nil || v != 2 {
				t.Fatalf("layout %d, %v", v, err)
			}
			jobs, next, err := l2.ListJobs("acct", nil, 10, "")
			var ids []string
			for _, j := range jobs {
				ids = append(ids, j.Job.ID)
			}
			if err != nil || next != nil || strings.Join(ids, " ") != strings.Join([]string{uuid(5), uuid(4), uuid(3), uuid(2), uuid(1)}, " ") {
				t.Fatalf("after migration: %v, %v, %v", ids, next, err)
			}
			// A future layout is refused, not migrated.
			r, _ = s.Docs.Get(ctx, "meta.schema")
			s.Docs.Update(ctx, "meta.schema", []byte("3"), r.Revision)
			if _, err := storelog.Open(ctx, s, storelog.Options{}); err == nil {
				t.Fatal("layout 3 opened")
			}
		})
	}
}
