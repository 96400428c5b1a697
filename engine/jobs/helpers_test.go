package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/dirblob"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
	"github.com/redactd/redactd/internal/testkit/testlog"
)

// testProc is a test double of the document pipeline, for unit-testing
// the engine's state machine without models: it reads its instructions
// from the input ("%redactd-test pages=N [fail=MSG] [internal] [panic]
// [block] [nocount] [badoutput]"), reports progress like the pipeline and
// writes a minimal, valid PDF with N pages. Real-pipeline end-to-end tests
// live with the server.
type testProc struct {
	mu       sync.Mutex
	calls    map[string]int
	inputs   map[string]ProcessInput
	started  chan string   // doc ids, as processing passes the page count
	release  chan struct{} // closed: blocked documents continue
	blockAll bool
	canceled atomic.Int32
}

func newTestProc() *testProc {
	return &testProc{
		calls:   map[string]int{},
		inputs:  map[string]ProcessInput{},
		started: make(chan string, 100),
		release: make(chan struct{}),
	}
}

type docSpec struct {
	pages                                       int
	fail                                        string
	internal, panics, block, nocount, badoutput bool
}

func parseSpec(data []byte) (docSpec, error) {
	i := bytes.Index(data, []byte("%redactd-test "))
	if i < 0 {
		return docSpec{}, DocErrorf("not a test document")
	}
	line := string(data[i+len("%redactd-test "):])
	line, _, _ = strings.Cut(line, "\n")
	s := docSpec{pages: 1}
	for _, f := range strings.Fields(line) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "pages":
			n, err := strconv.Atoi(v)
			if err != nil {
				return s, err
			}
			s.pages = n
		case "fail":
			s.fail = strings.ReplaceAll(v, "_", " ")
		case "internal":
			s.internal = true
		case "panic":
			s.panics = true
		case "block":
			s.block = true
		case "nocount":
			s.nocount = true
		case "badoutput":
			s.badoutput = true
		}
	}
	return s, nil
}

func (p *testProc) Process(ctx context.Context, in ProcessInput, out io.Writer, progress func(Progress) error) (*ProcessResult, error) {
	p.mu.Lock()
	p.calls[in.DocID]++
	p.inputs[in.DocID] = in
	p.mu.Unlock()
	data, err := os.ReadFile(in.Path)
	if err != nil {
		return nil, err
	}
	s, err := parseSpec(data)
	if err != nil {
		return nil, err
	}
	if err := progress(Progress{Status: StatusAnalyzing}); err != nil {
		return nil, err
	}
	if !s.nocount {
		if err := progress(Progress{Status: StatusAnalyzing, PageCount: s.pages}); err != nil {
			return nil, err
		}
	}
	select {
	case p.started <- in.DocID:
	default:
	}
	if s.block || p.blockAll {
		select {
		case <-ctx.Done():
			p.canceled.Add(1)
			return nil, ctx.Err()
		case <-p.release:
		}
	}
	if err := progress(Progress{Status: StatusRedacting}); err != nil {
		return nil, err
	}
	switch {
	case s.fail != "":
		return nil, DocErrorf(s.fail)
	case s.internal:
		return nil, errors.New("decoder failed at /some/internal/path")
	case s.panics:
		panic("test processor panic")
	}
	pdf := minimalPDF(s.pages)
	if s.badoutput {
		pdf = []byte("not a pdf")
	}
	n, err := out.Write(pdf)
	if err != nil {
		return nil, err
	}
	masks := make([]Mask, s.pages)
	for i := range masks {
		masks[i] = Mask{Page: i, Box: page.Rect{X0: 10, Y0: 10, X1: 100, Y1: 20}, Category: page.Person, Source: "test", Recognizer: "test", Score: 1}
	}
	pages := make([]PageInfo, s.pages)
	for i := range pages {
		pages[i] = PageInfo{Width: 612, Height: 792}
	}
	if in.Fixed {
		masks = in.Masks
	}
	return &ProcessResult{PageCount: s.pages, OutputBytes: int64(n), Masks: masks, Pages: pages}, nil
}

// verifyTestPDF stands in for pdfout's verifier on the test processor's
// outputs (which are not flattened pages): header and trailer.
func verifyTestPDF(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.HasSuffix(b, []byte("%%EOF\n")) {
		return errors.New("not a PDF")
	}
	return nil
}

func (p *testProc) callCount(docID string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[docID]
}

func (p *testProc) totalCalls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.calls {
		n += c
	}
	return n
}

// blockingProc is a testProc whose documents all block after reporting
// their page count, until canceled.
func blockingProc() *testProc {
	p := newTestProc()
	p.blockAll = true
	return p
}

func (p *testProc) input(docID string) ProcessInput {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inputs[docID]
}

// minimalPDF is a valid PDF with n empty US Letter pages.
func minimalPDF(n int) []byte {
	var buf bytes.Buffer
	var offs []int
	buf.WriteString("%PDF-1.7\n")
	obj := func(s string) {
		offs = append(offs, buf.Len())
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", len(offs), s)
	}
	var kids []string
	for i := range n {
		kids = append(kids, fmt.Sprintf("%d 0 R", 3+i))
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	for range n {
		obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&buf, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return buf.Bytes()
}

// testPDF is an input document for testProc.
func testPDF(pages int, directives ...string) []byte {
	return fmt.Appendf(nil, "%%PDF-1.7\n%%redactd-test pages=%d %s\n%%%%EOF\n", pages, strings.Join(directives, " "))
}

func pdfFile(name string, pages int, directives ...string) File {
	return File{Name: name, Data: testPDF(pages, directives...)}
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type env struct {
	t     *testing.T
	cfg   Settings
	clock *fakeClock
	proc  *testProc
	logs  *testlog.Buffer
	h     hooks
	e     *Engine
}

func testConfig(t *testing.T) Settings {
	var cfg Settings
	cfg.Data = t.TempDir()
	cfg.MaxConcurrentJobs = 4
	cfg.JanitorInterval = time.Hour // tests run the janitor themselves
	cfg.MaxUploadBytes = 1 << 20
	cfg.MaxFilesPerJob = 5
	cfg.MaxTermCount = 3
	cfg.MaxPagesPerDoc = 100
	cfg.FreePages = 5
	cfg.StandardPages = 1000
	cfg.UploadURLTTL = 15 * time.Minute
	cfg.OutputTTL = 24 * time.Hour
	cfg.StudioTTL = 720 * time.Hour
	return cfg
}

// clusterStore sets cfg up as a cluster node's: its records given
// (storelog over pebble, as over NATS: not the node's own store, so it
// recovers as a cluster node does) and its files as blobs in a
// engine/store/dirblob directory, the cluster's shared-directory
// backend. The tests of what only a cluster node does use it; the NATS
// engine itself is held to the same contract by engine/store/storetest.
func clusterStore(cfg *Settings) {
	dir := filepath.Join(cfg.Data, "cluster-store")
	cfg.Records = func() (record.Store, error) {
		ps, err := pebblestore.Open(dir, pebblestore.Options{LeaseTime: 3 * time.Second})
		if err != nil {
			return nil, err
		}
		return storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{LeaseTime: 3 * time.Second, Close: ps.Close})
	}
	blobs := blobsDir(cfg.Data)
	cfg.Blobs = func() (store.Blobs, error) { return dirblob.Open(blobs) }
}

// blobsDir is where a cluster node's job files live (clusterStore).
func blobsDir(data string) string { return filepath.Join(data, "blobs") }

// filesRoot is the directory the job files live under: the files
// directory on one node, the blob directory on a cluster node (where
// the files directory is only the node's scratch).
func (v *env) filesRoot() string {
	if v.cfg.Blobs != nil {
		return blobsDir(v.cfg.Data)
	}
	return v.e.files.root()
}

// readJobFile reads one of a job's files, wherever they live.
func (v *env) readJobFile(jobID, name string) ([]byte, error) {
	return v.e.files.read(context.Background(), jobID, name)
}

func newEnv(t *testing.T, mods ...func(*Settings)) *env {
	t.Helper()
	cfg := testConfig(t)
	for _, m := range mods {
		m(&cfg)
	}
	v := &env{t: t, cfg: cfg, clock: &fakeClock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}, logs: &testlog.Buffer{}}
	v.h = hooks{now: v.clock.Now, verify: verifyTestPDF}
	v.open(newTestProc())
	t.Cleanup(func() { v.e.Close() })
	return v
}

// newEnvHooks is newEnv with a storage fault injector.
func newEnvHooks(t *testing.T, syncFile func(*os.File) error) *env {
	t.Helper()
	v := &env{t: t, cfg: testConfig(t), clock: &fakeClock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}, logs: &testlog.Buffer{}}
	v.h = hooks{now: v.clock.Now, syncFile: syncFile, verify: verifyTestPDF}
	v.open(newTestProc())
	t.Cleanup(func() { v.e.Close() })
	return v
}

func (v *env) open(p *testProc) {
	v.t.Helper()
	v.proc = p
	log := slog.New(slog.NewTextHandler(v.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e, err := open(v.cfg, p, log, v.h)
	if err != nil {
		v.t.Fatal(err)
	}
	v.e = e
}

func (v *env) reopen(p *testProc) {
	v.t.Helper()
	if err := v.e.Close(); err != nil {
		v.t.Fatal(err)
	}
	v.open(p)
}

func (v *env) account(email, plan string, pages int64) (*Account, string) {
	v.t.Helper()
	key, _, err := v.e.CreateKey(context.Background(), email, plan, pages)
	if err != nil {
		v.t.Fatal(err)
	}
	a, err := v.e.Authenticate(context.Background(), key)
	if err != nil {
		v.t.Fatal(err)
	}
	return a, key
}

func (v *env) create(a *Account, files ...File) *Job {
	v.t.Helper()
	j, err := v.e.CreateJob(context.Background(), a, CreateJobRequest{Files: files})
	if err != nil {
		v.t.Fatal(err)
	}
	return j
}

// waitDone polls until every document of the job is terminal.
func (v *env) waitDone(a *Account, jobID string) *Job {
	v.t.Helper()
	return v.waitDoneWithin(a, jobID, 20)
}

// waitDoneWithin is waitDone with a limit of secs seconds.
func (v *env) waitDoneWithin(a *Account, jobID string, secs int) *Job {
	v.t.Helper()
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	for {
		j, err := v.e.GetJob(context.Background(), a, jobID)
		if err != nil {
			v.t.Fatal(err)
		}
		done := true
		for _, d := range j.Documents {
			done = done && d.Status.Terminal()
		}
		if done {
			return j
		}
		if time.Now().After(deadline) {
			v.t.Fatalf("job %s not done: %+v", jobID, j)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (v *env) pagesUsed(a *Account) int64 {
	v.t.Helper()
	acct, err := v.e.jl.Account(a.ID)
	if err != nil {
		v.t.Fatal(err)
	}
	return acct.PagesUsed
}

func (v *env) jobFiles(jobID string) []string {
	ents, err := os.ReadDir(filepath.Join(v.filesRoot(), jobID))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		v.t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func statuses(j *Job) []Status {
	var out []Status
	for _, d := range j.Documents {
		out = append(out, d.Status)
	}
	return out
}

func wantErr(t *testing.T, err, target error, contains string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want %v", err, target)
	}
	if contains != "" && !strings.Contains(err.Error(), contains) {
		t.Fatalf("err = %q, want it to contain %q", err, contains)
	}
}

func readDirNames(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out, err
}
