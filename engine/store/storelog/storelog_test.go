package storelog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
)

// The job service's whole test suite runs on this package too (engine:
// a node's store is storelog over pebble); these tests pin what only a shared
// store does: lost races, claims, the ledger, listing positions.

func open(t *testing.T) *storelog.Log {
	t.Helper()
	ps, err := pebblestore.Open(filepath.Join(t.TempDir(), "store"), pebblestore.Options{LeaseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	l, err := storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{LeaseTime: time.Second, Close: ps.Close})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func uuid(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// newJob commits a job of account with one document.
func newJob(t *testing.T, l *storelog.Log, account string, n int, created time.Time) (*record.Job, *record.Doc) {
	t.Helper()
	j := &record.Job{ID: uuid(n), AccountID: account, Status: "uploaded", CreatedAt: created, DocIDs: []string{uuid(1000 + n)}}
	d := &record.Doc{ID: uuid(1000 + n), JobID: j.ID, AccountID: account, Status: "uploaded"}
	b := l.NewBatch()
	b.PutJob(j)
	b.PutDoc(d)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	return j, d
}

func TestStaleWriteIsAConflict(t *testing.T) {
	l := open(t)
	newJob(t, l, "acct", 1, time.Now())
	// Two nodes read the document at the same revision.
	a, err := l.Doc(uuid(1001))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := l.Doc(uuid(1001))
	a.Status = "analyzing"
	ba := l.NewBatch()
	ba.PutDoc(a)
	if err := ba.Commit(true); err != nil {
		t.Fatal(err)
	}
	b.Status = "error"
	bb := l.NewBatch()
	bb.PutDoc(b)
	if err := bb.Commit(true); !record.IsConflict(err) {
		t.Fatalf("stale write: %v, want a conflict", err)
	}
	if d, _ := l.Doc(uuid(1001)); d.Status != "analyzing" {
		t.Fatalf("stale write landed: %s", d.Status)
	}
	// Read again, the write goes through.
	b, _ = l.Doc(uuid(1001))
	b.Status = "redacting"
	bb = l.NewBatch()
	bb.PutDoc(b)
	if err := bb.Commit(true); err != nil {
		t.Fatal(err)
	}
}

func TestIdempotencyKeyFirstJobWins(t *testing.T) {
	l := open(t)
	create := func(n int) error {
		j := &record.Job{ID: uuid(n), AccountID: "acct", CreatedAt: time.Now(), DocIDs: []string{uuid(1000 + n)}, IdemNS: "jobs", IdemKey: "retry-1"}
		b := l.NewBatch()
		b.PutJob(j)
		b.PutDoc(&record.Doc{ID: uuid(1000 + n), JobID: j.ID, AccountID: "acct"})
		b.PutIdem("acct", "jobs", "retry-1", &record.Idem{JobID: j.ID, Fingerprint: "f"})
		return b.Commit(true)
	}
	if err := create(1); err != nil {
		t.Fatal(err)
	}
	if err := create(2); !record.IsConflict(err) {
		t.Fatalf("second job for the same key: %v, want a conflict", err)
	}
	// The loser's records are gone; the key names the winner.
	if _, err := l.Job(uuid(2)); !record.IsNotFound(err) {
		t.Fatalf("loser's job: %v", err)
	}
	if _, err := l.Doc(uuid(1002)); !record.IsNotFound(err) {
		t.Fatalf("loser's document: %v", err)
	}
	if r, err := l.Idem("acct", "jobs", "retry-1"); err != nil || r.JobID != uuid(1) {
		t.Fatalf("key names %+v, %v", r, err)
	}
	if ids, _ := l.AccountJobs("acct"); len(ids) != 1 {
		t.Fatalf("account lists %v", ids)
	}
}

func TestQuotaOnTheLedger(t *testing.T) {
	l := open(t)
	a := &record.Account{ID: "acct", Email: "a@example.com", PagesQuota: 10}
	b := l.NewBatch()
	b.PutAccount(a)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	a, _ = l.Account("acct")
	b = l.NewBatch()
	b.Charge(a, uuid(1001), 4)
	b.Charge(a, uuid(1002), 5)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.Account("acct"); got.PagesUsed != 9 {
		t.Fatalf("used %d, want 9", got.PagesUsed)
	}
	if pages, ok, err := l.Charged("acct", uuid(1001)); err != nil || !ok || pages != 4 {
		t.Fatalf("Charged = %d, %v, %v", pages, ok, err)
	}
	// Past the quota: the ledger refuses, the batch is a conflict (the
	// retry reads the use that makes it a denial), nothing is charged.
	a, _ = l.Account("acct")
	b = l.NewBatch()
	b.Charge(a, uuid(1003), 2)
	if err := b.Commit(true); !record.IsConflict(err) {
		t.Fatalf("charge past the quota: %v", err)
	}
	a, _ = l.Account("acct")
	b = l.NewBatch()
	b.Refund(a, uuid(1001), 4)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.Account("acct"); got.PagesUsed != 5 {
		t.Fatalf("used %d after the refund, want 5", got.PagesUsed)
	}
	if got, err := l.AccountByEmail("a@example.com"); err != nil || got.ID != "acct" {
		t.Fatalf("by e-mail: %+v, %v", got, err)
	}
}

func TestListJobsNewestFirst(t *testing.T) {
	l := open(t)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= 5; i++ {
		newJob(t, l, "acct", i, t0.Add(time.Duration(i)*time.Minute))
	}
	newJob(t, l, "other", 9, t0)
	var got []string
	var pos []byte
	for {
		jobs, next, err := l.ListJobs("acct", pos, 2, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range jobs {
			got = append(got, j.Job.ID)
		}
		if next == nil {
			break
		}
		pos = next
	}
	want := []string{uuid(5), uuid(4), uuid(3), uuid(2), uuid(1)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("listed %v, want %v", got, want)
	}
	if _, _, err := l.ListJobs("acct", []byte("short"), 2, ""); err == nil {
		t.Fatal("a malformed position was accepted")
	}
}

func TestClosed(t *testing.T) {
	l := open(t)
	l.Close()
	if _, err := l.Job(uuid(1)); !errors.Is(err, record.ErrClosed) {
		t.Fatalf("read after Close: %v", err)
	}
	if err := l.NewBatch().Commit(true); !errors.Is(err, record.ErrClosed) {
		t.Fatalf("commit after Close: %v", err)
	}
}

// lostAcks is a Docs whose next n updates land in the store but answer
// with an error, as a write does whose answer a leader election lost;
// the election then fails the next deafReads reads as well.
type lostAcks struct {
	store.Docs
	n         int
	deafAfter int // reads that fail after each lost answer
	deafReads int
}

func (d *lostAcks) Get(ctx context.Context, key string) (store.Record, error) {
	if d.deafReads > 0 {
		d.deafReads--
		return store.Record{}, errors.New("nats: no responders available for request")
	}
	return d.Docs.Get(ctx, key)
}

func (d *lostAcks) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	n, err := d.Docs.Update(ctx, key, value, rev)
	if err == nil && d.n > 0 {
		d.n--
		d.deafReads = d.deafAfter
		return 0, errors.New("nats: timeout")
	}
	return n, err
}

// TestLostAnswerKeepsTheCharge: a batch that charges a document and
// writes its record, whose write lands but answers with an error, must
// not refund the charge: the stored record says the document is charged,
// so a refund would leave its pages unpaid for good. The commit must say
// so even when the store fails the first reads after the lost answer:
// reported as failed, the transition would be retried, find its own
// write, and skip its effects.
func TestLostAnswerKeepsTheCharge(t *testing.T) {
	for _, deaf := range []int{0, 3} {
		t.Run(fmt.Sprintf("deafReads=%d", deaf), func(t *testing.T) { lostAnswer(t, deaf) })
	}
}

// accountStore opens a log on a fresh pebble store, its engine first
// passed to wrap (nil: as it is) to inject faults, with account "acct"
// (quota 10) in it. It returns the log and the unwrapped engine.
func accountStore(t *testing.T, wrap func(*store.Store)) (*storelog.Log, store.Store) {
	t.Helper()
	ps, err := pebblestore.Open(filepath.Join(t.TempDir(), "store"), pebblestore.Options{LeaseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := ps.Bundle(nil)
	w := s
	if wrap != nil {
		wrap(&w)
	}
	l, err := storelog.Open(context.Background(), w, storelog.Options{LeaseTime: time.Second, Close: ps.Close})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	b := l.NewBatch()
	b.PutAccount(&record.Account{ID: "acct", Email: "a@example.com", PagesQuota: 10})
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	return l, s
}

func lostAnswer(t *testing.T, deafReads int) {
	docs := &lostAcks{}
	l, _ := accountStore(t, func(s *store.Store) { docs.Docs, s.Docs = s.Docs, docs })
	_, d := newJob(t, l, "acct", 1, time.Now())
	a, _ := l.Account("acct")
	d.Charged, d.Status = true, "redacted"
	docs.n, docs.deafAfter = 1, deafReads
	b := l.NewBatch()
	b.Charge(a, d.ID, 4)
	b.PutDoc(d)
	if err := b.Commit(true); err != nil {
		t.Fatalf("a write that landed: %v", err)
	}
	if got, _ := l.Account("acct"); got.PagesUsed != 4 {
		t.Fatalf("used %d after a write whose answer was lost, want 4", got.PagesUsed)
	}
	if got, err := l.Doc(d.ID); err != nil || !got.Charged {
		t.Fatalf("doc %+v, %v", got, err)
	}
}

// deadDeletes fails every deletion: the store became unreachable (or
// the process died) just before a job's record was deleted.
type deadDeletes struct{ store.Docs }

func (d deadDeletes) Delete(ctx context.Context, key string, rev uint64) error {
	return errors.New("nats: no responders available for request")
}

// TestDeletedJobRefundedFirst: the refund of a deleted job's unfinished
// document is made before the job's record goes. After it, a failure
// between the two would leave the document's pages charged with no
// record left to say they are owed (for a record that stays, marked
// refunded, the job service settles the ledger: engine/jobs).
func TestDeletedJobRefundedFirst(t *testing.T) {
	l, s := accountStore(t, nil)
	j, d := newJob(t, l, "acct", 1, time.Now())
	a, _ := l.Account("acct")
	d.Charged, d.ChargedPages, d.Status = true, 4, "processing"
	b := l.NewBatch()
	b.Charge(a, d.ID, 4)
	b.PutDoc(d)
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}

	s.Docs = deadDeletes{s.Docs}
	dead, err := storelog.Open(context.Background(), s, storelog.Options{LeaseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	j, _ = dead.Job(j.ID)
	a, _ = dead.Account("acct")
	b = dead.NewBatch()
	b.Refund(a, d.ID, 4)
	b.PurgeJob(j, []*record.Doc{d})
	if err := b.Commit(true); err == nil {
		t.Fatal("a deletion the store refused committed")
	}
	if _, charged, err := l.Charged("acct", d.ID); err != nil || charged {
		t.Fatalf("charged = %v, %v after the failed deletion; want the refund made first", charged, err)
	}
	if _, err := l.Job(j.ID); err != nil {
		t.Fatalf("the job's record: %v", err)
	}
}

// TestQueueEntryCarriesAccount: an entry enqueued by a batch carries the
// document's account to the lease; an item enqueued before items
// carried it (payload without "account") still leases, with no account,
// which the engine then reads from the document.
func TestQueueEntryCarriesAccount(t *testing.T) {
	ps, err := pebblestore.Open(filepath.Join(t.TempDir(), "store"), pebblestore.Options{LeaseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := ps.Bundle(nil)
	l, err := storelog.Open(context.Background(), s, storelog.Options{LeaseTime: time.Second, Close: ps.Close})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ctx := context.Background()
	if err := s.Queue.Enqueue(ctx, storelog.Pool, uuid(1000), []byte(`{"at":5,"job":"`+uuid(1)+`"}`)); err != nil {
		t.Fatal(err)
	}
	_, d := newJob(t, l, "acct", 2, time.Now())
	b := l.NewBatch()
	b.Enqueue(record.QueueEntry{At: 6, DocID: d.ID, JobID: d.JobID, AccountID: d.AccountID})
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	want := []record.QueueEntry{
		{At: 5, DocID: uuid(1000), JobID: uuid(1)},
		{At: 6, DocID: d.ID, JobID: d.JobID, AccountID: "acct"},
	}
	for _, w := range want {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ls, err := l.Lease(lctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if got := ls.Entry(); got != w {
			t.Fatalf("leased %+v, want %+v", got, w)
		}
		if err := ls.Ack(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNoLegacyMethods: what only the one-node job log keeps (a layout's
// old upload secret, a local queue's entries, a retention index) is not
// part of this store, not even as no-ops: the service asks for each.
func TestNoLegacyMethods(t *testing.T) {
	l := open(t)
	if _, ok := any(l).(record.LegacySecrets); ok {
		t.Error("storelog offers record.LegacySecrets")
	}
	if _, ok := any(l).(record.LocalQueue); ok {
		t.Error("storelog offers record.LocalQueue")
	}
	b := l.NewBatch()
	defer b.Discard()
	if _, ok := b.(record.QueueBatch); ok {
		t.Error("storelog's batch offers record.QueueBatch")
	}
	if _, ok := b.(record.ExpiryBatch); ok {
		t.Error("storelog's batch offers record.ExpiryBatch")
	}
}

// TestPartialReads: Job and Doc decode only their part of a job's
// record (reads.go), and give what the whole record says: each of a
// job's documents, whatever its place, with the record's revision; the
// job with it; a document never stored, not found.
func TestPartialReads(t *testing.T) {
	l := open(t)
	j := &record.Job{ID: uuid(1), AccountID: "acct", Status: "uploaded", CreatedAt: time.Now()}
	b := l.NewBatch()
	b.PutJob(j)
	for i := range 4 {
		d := &record.Doc{ID: uuid(1000 + i), JobID: j.ID, AccountID: "acct", Status: "uploaded", Index: i, FileName: fmt.Sprintf("f%d.pdf", i)}
		j.DocIDs = append(j.DocIDs, d.ID)
		b.PutDoc(d)
		b.AddEvent(j.ID, &record.Event{Doc: d.ID, To: "uploaded"})
	}
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	whole, docs, err := l.JobAndDocs(j.ID)
	if err != nil || len(docs) != 4 {
		t.Fatalf("JobAndDocs: %d docs, %v", len(docs), err)
	}
	got, err := l.Job(j.ID)
	if err != nil || got.Rev != whole.Rev || got.ID != j.ID || len(got.DocIDs) != 4 || got.AccountID != "acct" {
		t.Fatalf("Job = %+v, %v; want %+v", got, err, whole)
	}
	for i, want := range docs {
		d, err := l.Doc(want.ID)
		if err != nil || d.ID != want.ID || d.Index != i || d.FileName != want.FileName || d.Rev != whole.Rev {
			t.Fatalf("Doc %d = %+v, %v; want %+v", i, d, err, want)
		}
	}
	if _, err := l.Doc(uuid(1999)); !record.IsNotFound(err) {
		t.Fatalf("a document never stored: %v", err)
	}
}

// laggingReads answers "not found" to the next misses reads of key, as a
// replica that has not yet applied another node's create would.
type laggingReads struct {
	store.Docs
	key    string
	misses int
}

func (d *laggingReads) Get(ctx context.Context, key string) (store.Record, error) {
	if key == d.key && d.misses > 0 {
		d.misses--
		return store.Record{}, &store.NotFoundError{Key: key}
	}
	return d.Docs.Get(ctx, key)
}

// TestSharedSecretReadAgain: a node that loses the create of the shared
// upload secret and then reads nothing for a moment reads again and
// gets the secret the winner stored, not an error and not its own.
func TestSharedSecretReadAgain(t *testing.T) {
	docs := &laggingReads{key: "meta.upload-secret"}
	l, _ := accountStore(t, func(s *store.Store) { docs.Docs, s.Docs = s.Docs, docs })
	first := bytes.Repeat([]byte{1}, 32)
	if got, err := l.SharedSecret(first); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("first node: %x, %v", got, err)
	}
	docs.misses = 3
	got, err := l.SharedSecret(bytes.Repeat([]byte{2}, 32))
	if err != nil || !bytes.Equal(got, first) {
		t.Fatalf("node that lost the create, its reads lagging: %x, %v; want %x", got, err, first)
	}
	if docs.misses != 0 {
		t.Fatalf("%d lagging reads left", docs.misses)
	}
}

// TestOpenReadsTheLayoutAgain: a node whose create of the layout record
// lost to another node's, and whose first reads find nothing, opens.
func TestOpenReadsTheLayoutAgain(t *testing.T) {
	ps, err := pebblestore.Open(filepath.Join(t.TempDir(), "store"), pebblestore.Options{LeaseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := ps.Bundle(nil)
	if _, err := s.Docs.Create(context.Background(), "meta.schema", []byte(fmt.Sprint(storelog.SchemaVersion))); err != nil {
		t.Fatal(err)
	}
	docs := &laggingReads{Docs: s.Docs, key: "meta.schema", misses: 2}
	s.Docs = docs
	l, err := storelog.Open(context.Background(), s, storelog.Options{LeaseTime: time.Second, Close: ps.Close})
	if err != nil {
		t.Fatalf("open with lagging reads: %v", err)
	}
	defer l.Close()
	if docs.misses != 0 {
		t.Fatalf("%d lagging reads left", docs.misses)
	}
}
