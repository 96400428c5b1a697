package joblog

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"
)

func openT(t *testing.T, dir string) *Log {
	t.Helper()
	l, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestSchemaVersion(t *testing.T) {
	marker := []byte("migrated/marker")
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string) // state before the Open under test
		opts    Options
		wantErr string
		check   func(t *testing.T, l *Log)
	}{
		{
			name: "fresh database gets the current version",
			check: func(t *testing.T, l *Log) {
				if v, err := l.SchemaVersionOf(); err != nil || v != SchemaVersion {
					t.Fatalf("version = %d, %v; want %d", v, err, SchemaVersion)
				}
			},
		},
		{
			name: "newer version is refused",
			prepare: func(t *testing.T, dir string) {
				l, err := Open(dir, Options{Version: SchemaVersion + 1, Migrations: []Migration{{From: SchemaVersion, Apply: func(*pebble.DB, *pebble.Batch) error { return nil }}}})
				if err != nil {
					t.Fatal(err)
				}
				l.Close()
			},
			wantErr: "newer than this binary supports",
		},
		{
			name: "migration runs atomically with the version bump",
			prepare: func(t *testing.T, dir string) {
				l, err := Open(dir, Options{})
				if err != nil {
					t.Fatal(err)
				}
				l.Close()
			},
			opts: Options{Version: SchemaVersion + 1, Migrations: []Migration{{From: SchemaVersion, Apply: func(_ *pebble.DB, b *pebble.Batch) error {
				return b.Set(marker, []byte("x"), nil)
			}}}},
			check: func(t *testing.T, l *Log) {
				if v, _ := l.SchemaVersionOf(); v != SchemaVersion+1 {
					t.Fatalf("version = %d", v)
				}
				if _, err := l.getRaw(marker); err != nil {
					t.Fatalf("marker: %v", err)
				}
			},
		},
		{
			name: "failed migration leaves the old version",
			prepare: func(t *testing.T, dir string) {
				l, err := Open(dir, Options{})
				if err != nil {
					t.Fatal(err)
				}
				l.Close()
			},
			opts: Options{Version: SchemaVersion + 1, Migrations: []Migration{{From: SchemaVersion, Apply: func(_ *pebble.DB, b *pebble.Batch) error {
				b.Set(marker, []byte("x"), nil)
				return errors.New("boom")
			}}}},
			wantErr: "boom",
		},
		{
			name: "missing migration is an error",
			prepare: func(t *testing.T, dir string) {
				l, err := Open(dir, Options{})
				if err != nil {
					t.Fatal(err)
				}
				l.Close()
			},
			opts:    Options{Version: SchemaVersion + 2, Migrations: []Migration{}},
			wantErr: "no migration from schema version",
		},
		{
			name: "data without a version is refused",
			prepare: func(t *testing.T, dir string) {
				db, err := pebble.Open(dir, &pebble.Options{})
				if err != nil {
					t.Fatal(err)
				}
				db.Set([]byte("job/x"), []byte("{}"), pebble.Sync)
				db.Close()
			},
			wantErr: "no schema version",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.prepare != nil {
				tc.prepare(t, dir)
			}
			l, err := Open(dir, tc.opts)
			if tc.wantErr != "" {
				if err == nil {
					l.Close()
					t.Fatalf("Open succeeded, want error containing %q", tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			tc.check(t, l)
		})
	}
}

func TestFailedMigrationKeepsVersion(t *testing.T) {
	dir := t.TempDir()
	l := openT(t, dir)
	l.Close()
	_, err := Open(dir, Options{Version: SchemaVersion + 1, Migrations: []Migration{{From: SchemaVersion, Apply: func(_ *pebble.DB, b *pebble.Batch) error {
		b.Set([]byte("migrated/marker"), nil, nil)
		return errors.New("boom")
	}}}})
	if err == nil {
		t.Fatal("want error")
	}
	l2 := openT(t, dir)
	if v, _ := l2.SchemaVersionOf(); v != SchemaVersion {
		t.Fatalf("version = %d, want %d", v, SchemaVersion)
	}
	if _, err := l2.getRaw([]byte("migrated/marker")); !IsNotFound(err) {
		t.Fatalf("partial migration visible: %v", err)
	}
}

// TestLegacyUploadSecret: Open no longer writes an upload secret into the
// job log; one that an earlier release wrote is read, then dropped from
// the key space and from every file of the store.
func TestLegacyUploadSecret(t *testing.T) {
	dir := t.TempDir()
	l := openT(t, dir)
	if _, ok, err := l.LegacyUploadSecret(); ok || err != nil {
		t.Fatalf("a fresh job log holds an upload secret (%v)", err)
	}
	old := bytes.Repeat([]byte{0x5A, 0xC3}, 16)
	if err := l.db.Set([]byte(keySecret), old, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = openT(t, dir)
	got, ok, err := l.LegacyUploadSecret()
	if err != nil || !ok || !bytes.Equal(got, old) {
		t.Fatalf("legacy secret %x %t %v", got, ok, err)
	}
	if err := l.DropLegacyUploadSecret(); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := l.LegacyUploadSecret(); ok {
		t.Fatal("still there after the drop")
	}
	l.Close()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if bytes.Contains(b, old) {
			t.Errorf("the dropped secret is still in %s", e.Name())
		}
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	l := openT(t, t.TempDir())
	now := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	hash := sha256.Sum256([]byte("rdk_secret"))
	acct := &Account{ID: "a1", Email: "x@example.com", Plan: "free", PagesQuota: 5, CreatedAt: now,
		Defaults: RedactOptions{Categories: []string{"Person"}, Included: []string{}, Excluded: []string{}}}
	key := &Key{ID: "k1", AccountID: "a1", Hash: hash[:], CreatedAt: now}
	job := &Job{ID: "j1", AccountID: "a1", Status: "analyzing", Retention: "studio", CreatedAt: now, DocIDs: []string{"d1", "d2"}, IdemNS: "create", IdemKey: "idem-1", ExpiresAt: now.Add(time.Hour)}
	d1 := &Doc{ID: "d1", JobID: "j1", AccountID: "a1", Status: "uploaded", FileName: "a.pdf", QueuedAt: 10}
	d2 := &Doc{ID: "d2", JobID: "j1", AccountID: "a1", Index: 1, Status: "uploaded", FileName: "b.pdf", QueuedAt: 20}
	b := l.NewBatch()
	b.PutAccount(acct)
	b.PutKey(key)
	b.PutJob(job)
	b.PutDoc(d1)
	b.PutDoc(d2)
	b.Enqueue(QueueEntry{At: 20, DocID: "d2", JobID: "j1", AccountID: "a1"})
	b.Enqueue(QueueEntry{At: 10, DocID: "d1", JobID: "j1", AccountID: "a1"})
	b.PutIdem("a1", "create", "idem-1", &Idem{JobID: "j1", Fingerprint: "fp", CreatedAt: now})
	b.AddEvent("j1", &Event{Seq: 1, At: now, To: "analyzing"})
	b.AddEvent("j1", &Event{Seq: 2, At: now, Doc: "d1", From: "uploaded", To: "analyzing"})
	b.SetExpiry("j1", time.Time{}, now.Add(time.Hour))
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}

	checks := []struct {
		name string
		fn   func() error
	}{
		{"account", func() error {
			a, err := l.Account("a1")
			if err != nil || a.Email != acct.Email || a.PagesQuota != 5 || !a.CreatedAt.Equal(now) || a.V != recordVersion {
				return fmt.Errorf("%+v %v", a, err)
			}
			return nil
		}},
		{"account by email", func() error {
			a, err := l.AccountByEmail("x@example.com")
			if err != nil || a.ID != "a1" {
				return fmt.Errorf("%+v %v", a, err)
			}
			return nil
		}},
		{"key by hash", func() error {
			k, err := l.KeyByHash(hash[:])
			if err != nil || k.ID != "k1" || k.AccountID != "a1" {
				return fmt.Errorf("%+v %v", k, err)
			}
			return nil
		}},
		{"unknown key hash", func() error {
			h := sha256.Sum256([]byte("other"))
			if _, err := l.KeyByHash(h[:]); !IsNotFound(err) {
				return fmt.Errorf("err = %v", err)
			}
			return nil
		}},
		{"job docs in order", func() error {
			j, err := l.Job("j1")
			if err != nil {
				return err
			}
			docs, err := l.JobDocs(j)
			if err != nil || len(docs) != 2 || docs[0].ID != "d1" || docs[1].ID != "d2" {
				return fmt.Errorf("%v %v", docs, err)
			}
			return nil
		}},
		{"job and docs from one snapshot", func() error {
			j, docs, err := l.JobAndDocs("j1")
			if err != nil || j.Status != "analyzing" || len(docs) != 2 || docs[1].FileName != "b.pdf" {
				return fmt.Errorf("%+v %v %v", j, docs, err)
			}
			if _, _, err := l.JobAndDocs("nope"); !IsNotFound(err) {
				return fmt.Errorf("missing job: %v", err)
			}
			return nil
		}},
		{"account jobs", func() error {
			ids, err := l.AccountJobs("a1")
			if err != nil || !slices.Equal(ids, []string{"j1"}) {
				return fmt.Errorf("%v %v", ids, err)
			}
			return nil
		}},
		{"queue ordered by time", func() error {
			q, err := l.Queue()
			if err != nil || len(q) != 2 || q[0].DocID != "d1" || q[1].DocID != "d2" || q[0].JobID != "j1" || q[0].AccountID != "a1" {
				return fmt.Errorf("%+v %v", q, err)
			}
			e, ok, err := l.NextQueued(func(id string) bool { return id == "d1" })
			if err != nil || !ok || e.DocID != "d2" || e.At != 20 || e.JobID != "j1" || e.AccountID != "a1" {
				return fmt.Errorf("next = %+v %v %v", e, ok, err)
			}
			return nil
		}},
		{"idempotency", func() error {
			r, err := l.Idem("a1", "create", "idem-1")
			if err != nil || r.JobID != "j1" || r.Fingerprint != "fp" {
				return fmt.Errorf("%+v %v", r, err)
			}
			if _, err := l.Idem("a1", "init", "idem-1"); !IsNotFound(err) {
				return fmt.Errorf("namespaces not separate: %v", err)
			}
			return nil
		}},
		{"events", func() error {
			ev, err := l.Events("j1")
			if err != nil || len(ev) != 2 || ev[1].Doc != "d1" || ev[0].Seq != 1 {
				return fmt.Errorf("%+v %v", ev, err)
			}
			return nil
		}},
		{"expiry", func() error {
			if e, err := l.Expired(now, 0); err != nil || len(e) != 0 {
				return fmt.Errorf("early: %v %v", e, err)
			}
			e, err := l.Expired(now.Add(time.Hour), 0)
			if err != nil || len(e) != 1 || e[0].JobID != "j1" || !e[0].At.Equal(now.Add(time.Hour)) {
				return fmt.Errorf("%+v %v", e, err)
			}
			return nil
		}},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if err := c.fn(); err != nil {
				t.Fatal(err)
			}
		})
	}

	// Purging the job leaves only account, key and meta records.
	j, _ := l.Job("j1")
	docs, _ := l.JobDocs(j)
	pb := l.NewBatch()
	pb.PurgeJob(j, docs)
	if err := pb.Commit(true); err != nil {
		t.Fatal(err)
	}
	keys, err := l.AllKeys()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		switch {
		case strings.HasPrefix(k, pAccount), strings.HasPrefix(k, pEmail), strings.HasPrefix(k, pKey),
			strings.HasPrefix(k, pKeyHash), strings.HasPrefix(k, "meta/"):
		default:
			t.Errorf("key left after purge: %q", k)
		}
	}
}

// TestQueueEntryWithoutAccount: a queue entry written before entries
// carried the account (its value the job id alone) still reads, with no
// account, which the engine then reads from the document.
func TestQueueEntryWithoutAccount(t *testing.T) {
	l := openT(t, t.TempDir())
	if err := l.db.Set(timeKey(pQueue, 5, "d0"), []byte("j0"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	b := l.NewBatch()
	b.Enqueue(QueueEntry{At: 6, DocID: "d1", JobID: "j1", AccountID: "a1"})
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	want := []QueueEntry{{At: 5, DocID: "d0", JobID: "j0"}, {At: 6, DocID: "d1", JobID: "j1", AccountID: "a1"}}
	q, err := l.Queue()
	if err != nil || !slices.Equal(q, want) {
		t.Fatalf("queue = %+v %v, want %+v", q, err, want)
	}
	e, ok, err := l.NextQueued(nil)
	if err != nil || !ok || e != want[0] {
		t.Fatalf("next = %+v %v %v, want %+v", e, ok, err, want[0])
	}
}

func TestNewerRecordRefused(t *testing.T) {
	l := openT(t, t.TempDir())
	if err := l.db.Set([]byte(pJob+"j9"), []byte(`{"v":99,"id":"j9"}`), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Job("j9"); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("err = %v", err)
	}
}

func TestExpiredOrderAndLimit(t *testing.T) {
	l := openT(t, t.TempDir())
	base := time.Unix(1_700_000_000, 0)
	b := l.NewBatch()
	for i, id := range []string{"c", "a", "b"} {
		b.SetExpiry(id, time.Time{}, base.Add(time.Duration(i)*time.Minute))
	}
	// Moving an entry deletes the old one.
	b.SetExpiry("c", base, base.Add(10*time.Minute))
	if err := b.Commit(false); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		now   time.Time
		limit int
		want  []string
	}{
		{base.Add(-time.Second), 0, nil},
		{base.Add(time.Minute), 0, []string{"a"}},
		{base.Add(time.Hour), 0, []string{"a", "b", "c"}},
		{base.Add(time.Hour), 2, []string{"a", "b"}},
	}
	for _, tc := range tests {
		got, err := l.Expired(tc.now, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range got {
			ids = append(ids, e.JobID)
		}
		if !slices.Equal(ids, tc.want) {
			t.Errorf("Expired(%v, %d) = %v, want %v", tc.now.Sub(base), tc.limit, ids, tc.want)
		}
	}
}

func TestClosed(t *testing.T) {
	l := openT(t, t.TempDir())
	b := l.NewBatch()
	b.PutDoc(&Doc{ID: "d"})
	l.Close()
	if err := b.Commit(true); !errors.Is(err, ErrClosed) {
		t.Fatalf("commit after close: %v", err)
	}
	if _, err := l.Doc("d"); !errors.Is(err, ErrClosed) {
		t.Fatalf("read after close: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
}

func TestDurableAcrossReopen(t *testing.T) {
	dir := t.TempDir()
	l := openT(t, dir)
	b := l.NewBatch()
	b.PutDoc(&Doc{ID: "d1", Status: "redacted", PageCount: 3})
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l2 := openT(t, dir)
	d, err := l2.Doc("d1")
	if err != nil || d.Status != "redacted" || d.PageCount != 3 {
		t.Fatalf("%+v %v", d, err)
	}
}
