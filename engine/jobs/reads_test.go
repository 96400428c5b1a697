package jobs

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
)

// readCounter counts the reads of job and document records by the id
// they name, per read method.
type readCounter struct {
	mu sync.Mutex
	n  map[string]map[string]int // id → method → reads
}

func (c *readCounter) note(method, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]map[string]int{}
	}
	if c.n[id] == nil {
		c.n[id] = map[string]int{}
	}
	c.n[id][method]++
}

// forget drops what was counted for ids.
func (c *readCounter) forget(ids ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		delete(c.n, id)
	}
}

// of returns the reads that named any of ids, in all and by method.
func (c *readCounter) of(ids ...string) (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	by := map[string]int{}
	total := 0
	for _, id := range ids {
		for m, k := range c.n[id] {
			by[m] += k
			total += k
		}
	}
	var parts []string
	for m, k := range by {
		parts = append(parts, fmt.Sprintf("%s %d", m, k))
	}
	sort.Strings(parts)
	return total, strings.Join(parts, ", ")
}

// countedShared is the cluster's record store (engine/store/storelog over the
// real pebble engine) with its job and document reads counted; its
// leased queue, roles, ledger and keepers are its own.
type countedShared struct {
	*storelog.Log
	c *readCounter
}

func (s countedShared) Job(id string) (*record.Job, error) {
	s.c.note("Job", id)
	return s.Log.Job(id)
}

func (s countedShared) Doc(id string) (*record.Doc, error) {
	s.c.note("Doc", id)
	return s.Log.Doc(id)
}

func (s countedShared) JobDocs(j *record.Job) ([]*record.Doc, error) {
	s.c.note("JobDocs", j.ID)
	return s.Log.JobDocs(j)
}

func (s countedShared) JobAndDocs(id string) (*record.Job, []*record.Doc, error) {
	s.c.note("JobAndDocs", id)
	return s.Log.JobAndDocs(id)
}

// onePageProc reports progress as engine/pipeline does for a document of
// one page (the count with analyzing, the page written, redacting) and
// writes a valid one-page PDF. Its first document waits for hold.
type onePageProc struct {
	calls   atomic.Int32
	started chan struct{}
	hold    chan struct{}
}

func (p *onePageProc) Process(ctx context.Context, in ProcessInput, out io.Writer, progress func(Progress) error) (*ProcessResult, error) {
	if p.calls.Add(1) == 1 {
		close(p.started)
		<-p.hold
	}
	for _, pr := range []Progress{
		{Status: StatusAnalyzing, PageCount: 1},
		{Status: StatusAnalyzing, PageCount: 1, PagesDone: 1},
		{Status: StatusRedacting, PageCount: 1},
	} {
		if err := progress(pr); err != nil {
			return nil, err
		}
	}
	n, err := out.Write(minimalPDF(1))
	if err != nil {
		return nil, err
	}
	return &ProcessResult{PageCount: 1, OutputBytes: int64(n), Pages: []PageInfo{{Width: 612, Height: 792}}}, nil
}

// maxDocReads is how often processing a document may read its record:
// once per transition (start, the page count with its charge, redacting,
// the end), under the account's lock.
const maxDocReads = 4

// stageReads is the one read more where a document's files are blobs
// (a cluster): before its output is uploaded, outside any lock, staging
// checks that the attempt is still the document's (attempt.go, stage),
// so a node that lost its lease uploads nothing over the newer attempt.
const stageReads = 1

// TestRecordReadsPerDocument: processing a document reads its job's and
// its own records at most once per transition, on the real store the
// tests run on (the job log, or storelog over pebble): the queue entry
// carries the account, so no transition reads the record before its
// lock only to learn which account to lock.
func TestRecordReadsPerDocument(t *testing.T) {
	c := &readCounter{}
	cfg := testConfig(t)
	{
		dir := filepath.Join(cfg.Data, "store")
		cfg.Records = func() (record.Store, error) {
			ps, err := pebblestore.Open(dir, pebblestore.Options{LeaseTime: 3 * time.Second, DeferSync: true})
			if err != nil {
				return nil, err
			}
			sl, err := storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{LeaseTime: 3 * time.Second, Close: ps.Close, Sync: ps.Sync})
			if err != nil {
				ps.Close()
				return nil, err
			}
			return countedShared{sl, c}, nil
		}
	}
	v := &env{t: t, cfg: cfg, clock: &fakeClock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}}
	cfg.MaxConcurrentJobs = 1
	proc := &onePageProc{started: make(chan struct{}), hold: make(chan struct{})}
	e, err := open(cfg, proc, slog.New(slog.NewTextHandler(io.Discard, nil)), hooks{now: v.clock.Now, verify: verifyTestPDF})
	if err != nil {
		t.Fatal(err)
	}
	v.e = e
	t.Cleanup(func() { e.Close() })

	a, _ := v.account("reads@example.com", PlanStandard, 0)
	// The first document holds the one worker slot while the second is
	// created, so what is counted for the second is its processing only
	// (and the janitor, which reads jobs too, waits meanwhile).
	first := v.create(a, pdfFile("first.pdf", 1))
	<-proc.started
	e.jan.mu.Lock()
	j := v.create(a, pdfFile("a.pdf", 1))
	c.forget(j.ID, j.Documents[0].ID)
	close(proc.hold)
	waitFor(t, "the document processed", func() bool {
		return proc.calls.Load() == 2 && e.sched.inflightCount() == 0
	})
	e.jan.mu.Unlock()
	n, by := c.of(j.ID, j.Documents[0].ID)
	v.waitDone(a, first.ID)
	t.Logf("reads of the job's and the document's records while it was processed: %d (%s)", n, by)
	got, err := e.GetJob(context.Background(), a, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := got.Documents[0]; d.Status != StatusRedacted {
		t.Fatalf("document %s (%s), want redacted", d.Status, d.ErrorMessage)
	}
	limit := maxDocReads
	if cfg.Blobs != nil {
		limit += stageReads
	}
	if n > limit {
		t.Fatalf("processing one document read its records %d times (%s), want at most %d", n, by, limit)
	}
}
