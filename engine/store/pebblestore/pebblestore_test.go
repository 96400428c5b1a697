package pebblestore_test

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/storetest"
)

func open(t *testing.T, o pebblestore.Options) *pebblestore.Store {
	t.Helper()
	s, err := pebblestore.Open(filepath.Join(t.TempDir(), "db"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

const leaseTime = time.Second

func queueFixture(t *testing.T) storetest.QueueFixture {
	s := open(t, pebblestore.Options{LeaseTime: leaseTime, MaxAttempts: 3})
	return storetest.QueueFixture{Queue: s.Queue(), LeaseTime: leaseTime, MaxAttempts: 3}
}

// The contract suite the cluster engine passes too.
func TestDocs(t *testing.T) {
	storetest.Docs(t, func(t *testing.T) store.Docs { return open(t, pebblestore.Options{}).Docs() })
}

func TestIdempotency(t *testing.T) {
	storetest.Idempotency(t, func(t *testing.T) store.Idempotency { return open(t, pebblestore.Options{}).Idempotency() })
}

func TestQueue(t *testing.T) { storetest.Queue(t, queueFixture) }

func TestLedger(t *testing.T) {
	storetest.Ledger(t, func(t *testing.T) store.Ledger { return open(t, pebblestore.Options{}).Ledger() })
}

func TestChargeOnce(t *testing.T) {
	var s *pebblestore.Store
	storetest.ChargeOnce(t, func(t *testing.T) storetest.QueueFixture {
		s = open(t, pebblestore.Options{LeaseTime: leaseTime, MaxAttempts: 3})
		return storetest.QueueFixture{Queue: s.Queue(), LeaseTime: leaseTime, MaxAttempts: 3}
	}, func(t *testing.T) store.Ledger { return s.Ledger() })
}

// TestRestart is what the contract cannot see: records, revisions,
// charges and queued items survive a close (with DeferSync too: Close
// syncs what it deferred); an item leased when the process stopped is
// handed out again at once as a later attempt.
func TestRestart(t *testing.T) {
	for _, deferSync := range []bool{false, true} {
		t.Run(fmt.Sprintf("DeferSync=%v", deferSync), func(t *testing.T) { testRestart(t, deferSync) })
	}
}

func testRestart(t *testing.T, deferSync bool) {
	dir := filepath.Join(t.TempDir(), "db")
	ctx := context.Background()
	s, err := pebblestore.Open(dir, pebblestore.Options{LeaseTime: time.Hour, DeferSync: deferSync})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := s.Docs().Create(ctx, "doc.a", []byte("v1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ledger().Charge(ctx, "acct", "doc.a", 4, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Queue().Enqueue(ctx, "cpu", "doc.a", nil); err != nil {
		t.Fatal(err)
	}
	l, err := s.Queue().Lease(ctx, "cpu")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = pebblestore.Open(dir, pebblestore.Options{LeaseTime: time.Hour, DeferSync: deferSync})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Docs().Get(ctx, "doc.a")
	if err != nil || r.Revision != rev || string(r.Value) != "v1" {
		t.Fatalf("after restart: %+v, %v", r, err)
	}
	if rev2, err := s.Docs().Update(ctx, "doc.a", []byte("v2"), rev); err != nil || rev2 <= rev {
		t.Fatalf("Update after restart: rev %d (was %d), %v", rev2, rev, err)
	}
	if used, err := s.Ledger().Used(ctx, "acct"); err != nil || used != 4 {
		t.Fatalf("Used after restart = %d, %v", used, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	again, err := s.Queue().Lease(wctx, "cpu")
	if err != nil || again.ID() != "doc.a" || again.Attempt() != l.Attempt()+1 {
		t.Fatalf("lease after restart: %v %v", again, err)
	}
}

func TestSingletons(t *testing.T) {
	storetest.Singletons(t, func(t *testing.T) store.Singletons { return open(t, pebblestore.Options{}).Singletons() })
}

// TestPrivateFiles: whatever the umask, the database's directory is 0700
// and each of its files 0600 (internal/privatefs), so a data directory
// that others may enter exposes no record.
func TestPrivateFiles(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "db")
	s, err := pebblestore.Open(dir, pebblestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Docs().Create(context.Background(), "doc.a", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", p, fi.Mode().Perm(), want)
		}
		n++
		return nil
	})
	if err != nil || n < 3 {
		t.Fatalf("walked %d entries: %v", n, err)
	}
}
