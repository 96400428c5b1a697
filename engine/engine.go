// Package engine is redactd's job service: accounts and keys, jobs and
// documents, the durable job log, the work queue, quotas, idempotency,
// retention and direct uploads. Engine implements Service; the document
// pipeline plugs in as a Processor.
package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/joblog"
	"github.com/redactd/redactd/engine/metrics"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/webhook"
)

// Engine is the durable job service. Its behaviour, decided where the
// interface description leaves it open:
//
// Storage. Records live in pebble at DATA/joblog (package joblog), files
// under DATA/files/<job id>/. Every state change is one atomic batch
// (document state, job state, queue entry, quota charge and transition
// event together), synced before anything is acknowledged. Files are
// written to a temporary name, fsynced, renamed and their directory
// fsynced before the batch that refers to them. A failing disk (full,
// read-only) on job creation gives ErrUnavailable and leaves no job.
//
// Job status is derived from the documents' statuses: while any document
// is not terminal, the job shows the least advanced state among those
// documents, where a document that is released to processing but still
// waiting in the queue counts as analyzing (so a new multipart job shows
// analyzing while its documents show uploaded) and a direct-upload
// document not yet released counts as uploaded. Once all documents are
// terminal the job is redacted if at least one document is redacted, and
// error if all failed; callers check each document's status.
//
// Documents move uploaded → analyzing → redacting → redacted as the
// Processor reports progress (never backwards, also when a document is
// processed again after a restart), or to error with error_message set:
// the Processor's DocError message, a generic message for internal
// failures and panics, "output failed verification" when the written
// output fails the verifier, "insufficient page quota" and the free-plan
// and page-limit messages below, "upload not received" / "upload not
// committed" for direct uploads, "server storage unavailable" when the
// output cannot be written for a reason other than a full or read-only
// disk (those keep the document queued and retry it every few seconds
// until space returns), and "processing failed repeatedly" for a
// document whose processing was interrupted (crash) maxAttempts times.
//
// Quota. Each account has a page quota (plan free: cfg.FreePages, plan
// standard: cfg.StandardPages, unless CreateKey gives pages). Creating a
// job (multipart or init) when no pages are left gives ErrQuota (402).
// Pages are charged when the page count becomes known (the Processor's
// progress report, or its result if it never reported one), in the same
// batch that records the count on the document, so a document is charged
// exactly once across retries, crashes and reprocessing. A document that
// does not fit the remaining pages ends in error "insufficient page
// quota", and nothing is charged. Documents are never redacted partially.
// A document that fails after being charged is refunded in the batch that
// records the failure, and deleting a job refunds its unfinished
// documents, so only redacted documents consume quota. Free
// plan: the whole allowance is cfg.FreePages pages (5); a document longer
// than the allowance ends in error "free plan: documents up to N pages";
// so the first document of up to 5 pages is redacted in full. Documents
// above cfg.MaxPagesPerDoc end in error on every plan.
//
// Idempotency. X-Idempotency-Key (at most 200 characters) is scoped to
// the account, with separate namespaces for POST /v1/jobs and
// /v1/jobs/init. A repeated request returns the original job (or
// reservation) without creating or charging anything, also under
// concurrent retries (creation with a key is serialized per account and
// key, and rechecked inside the account lock before the batch). A key
// reused with a different request (options as given, retention, file
// names, sizes and SHA-256 for multipart; names, content types and sizes
// for init) gives ErrInvalid "X-Idempotency-Key was already used with a
// different request". The record lives as long as its job: deleting or
// expiring the job frees the key.
//
// Options. Omitted (nil) pii_categories, pii_included_terms and
// pii_excluded_terms take the account's saved defaults when the job is
// created; the resolved options are stored with the job, so later changes
// to the defaults do not affect it. A new account's defaults are all
// categories and no terms.
//
// Direct upload. InitJob reserves documents (status uploaded, not
// released) and returns one token per document: HMAC-SHA256 over the
// document id and the expiry (now + cfg.UploadURLTTL) with a secret kept
// in DATA/upload-secret (0600, apart from the job log), so URLs survive
// restarts. PutUpload checks the token in
// constant time and its expiry (both ErrUnauthorized; an unknown document
// is ErrNotFound), that the document is not yet released (ErrConflict), the size (the declared and the received
// size must equal the reserved size, else ErrInvalid) and that the bytes
// are a PDF (ErrInvalid); a repeated PUT before release replaces the file.
// Commit is idempotent: it releases every reserved document whose file
// has landed. A document without its file stays reserved (uploaded) while
// its URL is valid, so the caller can PUT it and commit again; once the
// URL has expired it ends in error "upload not received". When no file of
// the job has landed at all, commit puts every document, and so the job,
// in error. Reservations never committed expire with their URLs (the
// janitor puts their documents in error), and then follow the retention
// rules below.
//
// Retention. The retention clock starts when every document of a job is
// terminal. Ephemeral: each original is deleted as soon as its document is
// terminal; outputs are kept cfg.OutputTTL. Studio: originals, outputs and
// masks (DATA/files/<job>/<doc>.masks.json) are kept cfg.StudioTTL. The
// janitor purges expired jobs every cfg.JanitorInterval. DeleteJob purges
// the job, its documents, files, events and idempotency record at once,
// whatever the retention mode, and stops its processing.
//
// Privacy. Other accounts' job and document ids behave exactly like
// unknown ids (ErrNotFound). Logs carry ids and counts, never file names,
// keys, terms or document content.
type Engine struct {
	cfg      config.Config
	proc     Processor
	log      *slog.Logger
	jl       *joblog.Log
	filesDir string

	now      func() time.Time
	syncFile func(*os.File) error
	// progressEvery is the least time between two stores of pages_done.
	progressEvery time.Duration
	// verify checks a finished output before it is released; nil skips the
	// check. It is taken from the Processor when it implements
	// OutputVerifier.
	verify func(path string) error

	allow *webhook.AllowList // webhook-allow-hosts

	acctMu  [64]sync.Mutex // serializes state changes per account
	adminMu sync.Mutex     // serializes key and account creation
	idem    keyedMutex     // serializes creation per (account, idempotency key)
	janMu   sync.Mutex     // one janitor pass at a time

	closing   atomic.Bool
	secret    []byte          // signs upload URLs; DATA/upload-secret (loadUploadSecret)
	base      context.Context // canceled by Close: workers stop
	cancel    context.CancelFunc
	stop      chan struct{}
	bg        sync.WaitGroup // dispatcher and janitor
	closeOnce sync.Once
	stopOnce  sync.Once // closes stop: Drain or Close
	closeErr  error

	sched     scheduler
	queued    atomic.Int64 // ready-queue entries, including those in flight
	lastQueue atomic.Int64 // last queue timestamp handed out
}

var _ Service = (*Engine)(nil)

// OutputVerifier is implemented by a Processor that can check a finished
// output file (pdfout's verifier); a failing check puts the document in
// error instead of releasing the output.
type OutputVerifier interface {
	VerifyOutput(path string) error
}

// Plans.
const (
	PlanFree     = "free"
	PlanStandard = "standard"
)

// maxAttempts bounds how often a document is started: a document whose
// processing keeps killing the process (say a crash in native code) must
// not crash-loop the service forever. Attempts interrupted by a clean
// shutdown do not count.
const maxAttempts = 5

// hooks let tests inject a clock and storage faults.
type hooks struct {
	now           func() time.Time
	syncFile      func(*os.File) error
	progressEvery time.Duration // 0: progressInterval
}

// Open opens or creates the data directory cfg.Data (job log at
// DATA/joblog, files at DATA/files), recovers from an unclean stop and
// starts the scheduler and the janitor. With a nil Processor the store is
// opened for administration only (keys, defaults, reading jobs): nothing
// is processed and the janitor does not run; queued documents wait for
// the next Open with a Processor.
func Open(cfg config.Config, proc Processor, log *slog.Logger) (*Engine, error) {
	return open(cfg, proc, log, hooks{})
}

func open(cfg config.Config, proc Processor, log *slog.Logger, h hooks) (*Engine, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.syncFile == nil {
		h.syncFile = (*os.File).Sync
	}
	if cfg.MaxConcurrentJobs <= 0 {
		cfg.MaxConcurrentJobs = 1
	}
	if cfg.JanitorInterval <= 0 {
		cfg.JanitorInterval = time.Minute
	}
	e := &Engine{
		cfg:      cfg,
		proc:     proc,
		log:      log,
		filesDir: filepath.Join(cfg.Data, "files"),
		now:      h.now,
		syncFile: h.syncFile,

		progressEvery: cmp.Or(h.progressEvery, progressInterval),
		stop:          make(chan struct{}),
	}
	if v, ok := proc.(OutputVerifier); ok {
		e.verify = v.VerifyOutput
	}
	exposed := jobLogExposed(cfg.Data)
	allow, err := webhook.ParseAllowList(cfg.WebhookAllowHosts)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	e.allow = allow
	if err := os.MkdirAll(e.filesDir, 0o700); err != nil {
		return nil, fmt.Errorf("engine: data directory: %w", err)
	}
	if err := tighten(cfg.Data); err != nil {
		return nil, fmt.Errorf("engine: data directory permissions: %w", err)
	}
	jl, err := joblog.Open(filepath.Join(cfg.Data, "joblog"), joblog.Options{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	e.jl = jl
	if e.secret, err = e.loadUploadSecret(exposed); err != nil {
		jl.Close()
		return nil, fmt.Errorf("engine: upload secret: %w", err)
	}
	if err := e.recover(); err != nil {
		jl.Close()
		return nil, fmt.Errorf("engine: recovery: %w", err)
	}
	e.base, e.cancel = context.WithCancel(context.Background())
	e.sched.init(cfg.MaxConcurrentJobs)
	if proc != nil {
		e.bg.Add(2)
		go e.dispatch()
		go e.janitor()
	}
	return e, nil
}

// closeWait bounds how long Close waits for workers after canceling them.
const closeWait = 30 * time.Second

// Drain stops taking work (new jobs and reservations get ErrUnavailable,
// Ready fails, nothing more is dequeued) and waits until the documents
// being processed have finished or ctx is done. It returns how many were
// running when it began and how many still are; Close cancels those, and
// their documents stay queued for the next Open. Reads keep working.
func (e *Engine) Drain(ctx context.Context) (running, left int) {
	e.closing.Store(true)
	e.stopOnce.Do(func() { close(e.stop) })
	e.bg.Wait() // the dispatcher starts no worker after this
	running = e.sched.inflightCount()
	done := make(chan struct{})
	go func() { e.sched.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	return running, e.sched.inflightCount()
}

// Close stops accepting work, cancels the workers (their documents stay
// queued and are processed again after the next Open), waits for them and
// closes the job log. Drain first lets them finish.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		e.closing.Store(true)
		e.stopOnce.Do(func() { close(e.stop) })
		e.cancel()
		e.bg.Wait()
		done := make(chan struct{})
		go func() { e.sched.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(closeWait):
			e.log.Error("engine: workers did not stop; closing the job log anyway")
		}
		e.closeErr = e.jl.Close()
	})
	return e.closeErr
}

// Ready reports whether the service can take requests.
func (e *Engine) Ready() error {
	if e.closing.Load() {
		return errorf(ErrUnavailable, "", "shutting down")
	}
	if _, err := e.jl.SchemaVersionOf(); err != nil {
		return errorf(ErrUnavailable, "", "job log: %v", err)
	}
	return nil
}

// lockAcct serializes state changes of one account's jobs, documents and
// quota; it returns the unlock function.
func (e *Engine) lockAcct(accountID string) func() {
	h := fnv.New32a()
	h.Write([]byte(accountID))
	m := &e.acctMu[h.Sum32()%uint32(len(e.acctMu))]
	m.Lock()
	return m.Unlock
}

// logErr maps a job-log failure on a request path to a caller-facing error.
func (e *Engine) logErr(op string, err error) error {
	if errors.Is(err, joblog.ErrClosed) {
		return errorf(ErrUnavailable, "", "shutting down")
	}
	e.log.Error("engine: job log", "op", op, "err", err)
	return storageError(err)
}

// queueStamp returns a strictly increasing queue timestamp (unix ns), so
// the queue is FIFO even when the clock stands still or steps back.
func (e *Engine) queueStamp() int64 {
	for {
		last := e.lastQueue.Load()
		n := e.now().UnixNano()
		if n <= last {
			n = last + 1
		}
		if e.lastQueue.CompareAndSwap(last, n) {
			return n
		}
	}
}

// validID reports whether s is a canonical UUID as this service issues.
func validID(s string) bool {
	u, err := uuid.Parse(s)
	return err == nil && u.String() == s
}

func newID() string { return uuid.NewString() }

// Status helpers.

func rank(s Status) int {
	switch s {
	case StatusUploaded:
		return 0
	case StatusAnalyzing:
		return 1
	case StatusRedacting:
		return 2
	}
	return 3
}

// deriveStatus is the job status rule documented on Engine.
func deriveStatus(docs []*joblog.Doc) Status {
	least := -1
	anyRedacted := false
	for _, d := range docs {
		s := Status(d.Status)
		if s.Terminal() {
			anyRedacted = anyRedacted || s == StatusRedacted
			continue
		}
		r := rank(s)
		if s == StatusUploaded && d.Released {
			r = rank(StatusAnalyzing)
		}
		if least < 0 || r < least {
			least = r
		}
	}
	switch least {
	case -1:
		if anyRedacted {
			return StatusRedacted
		}
		return StatusError
	case 0:
		return StatusUploaded
	case 1:
		return StatusAnalyzing
	}
	return StatusRedacting
}

func allTerminal(docs []*joblog.Doc) bool {
	for _, d := range docs {
		if !Status(d.Status).Terminal() {
			return false
		}
	}
	return true
}

// event appends a transition to the job's log inside b.
func (e *Engine) event(b *joblog.Batch, j *joblog.Job, docID string, from, to Status, note string) {
	j.Seq++
	b.AddEvent(j.ID, &joblog.Event{Seq: j.Seq, At: e.now(), Doc: docID, From: string(from), To: string(to), Note: note})
}

// setStatus moves a document to a new status, with an event.
func (e *Engine) setStatus(b *joblog.Batch, j *joblog.Job, d *joblog.Doc, to Status, note string) {
	if Status(d.Status) == to {
		return
	}
	e.event(b, j, d.ID, Status(d.Status), to, note)
	d.Status = string(to)
	d.UpdatedAt = e.now()
}

// settle recomputes the job's status from docs (which hold the batch's
// document changes), records a job event when it changes, starts the
// retention clock once every document is terminal, and writes the job.
func (e *Engine) settle(b *joblog.Batch, j *joblog.Job, docs []*joblog.Doc) {
	if st := deriveStatus(docs); string(st) != j.Status {
		e.event(b, j, "", Status(j.Status), st, "")
		j.Status = string(st)
	}
	if allTerminal(docs) && j.FinishedAt.IsZero() {
		j.FinishedAt = e.now()
		exp := j.FinishedAt.Add(e.ttl(Retention(j.Retention)))
		b.SetExpiry(j.ID, j.ExpiresAt, exp)
		j.ExpiresAt = exp
		e.queueHook(b, j)
	}
	b.PutJob(j)
}

func (e *Engine) ttl(r Retention) time.Duration {
	if r == Studio {
		return e.cfg.StudioTTL
	}
	return e.cfg.OutputTTL
}

// replaceDoc returns docs with the entry of d's id replaced by d.
func replaceDoc(docs []*joblog.Doc, d *joblog.Doc) []*joblog.Doc {
	for i := range docs {
		if docs[i].ID == d.ID {
			docs[i] = d
		}
	}
	return docs
}

// Conversions between API and stored types.

func toOptions(o joblog.RedactOptions) Options {
	cats := make([]page.Category, len(o.Categories))
	for i, c := range o.Categories {
		cats[i] = page.Category(c)
	}
	return Options{Categories: cats, Included: nonNil(o.Included), Excluded: nonNil(o.Excluded)}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func toAccount(a *joblog.Account) *Account {
	return &Account{
		ID: a.ID, Email: a.Email, Plan: a.Plan,
		PagesQuota: a.PagesQuota, PagesUsed: a.PagesUsed,
		Defaults: toOptions(a.Defaults), CreatedAt: a.CreatedAt,
	}
}

func jobView(j *joblog.Job, docs []*joblog.Doc) *Job {
	v := &Job{
		ID: j.ID, AccountID: j.AccountID, Status: Status(j.Status),
		Retention: Retention(j.Retention), CreatedAt: j.CreatedAt,
		Documents: make([]Document, len(docs)),
	}
	for i, d := range docs {
		v.Documents[i] = Document{
			ID: d.ID, FileName: d.FileName, Status: Status(d.Status),
			PageCount: d.PageCount, ErrorMessage: d.ErrorMessage, PagesDone: d.PagesDone,
		}
	}
	return v
}

// keyedMutex is a set of mutexes created on demand per key.
type keyedMutex struct {
	mu sync.Mutex
	m  map[string]*keyedEntry
}

type keyedEntry struct {
	mu sync.Mutex
	n  int
}

func (k *keyedMutex) lock(key string) func() {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyedEntry{}
	}
	ent := k.m[key]
	if ent == nil {
		ent = &keyedEntry{}
		k.m[key] = ent
	}
	ent.n++
	k.mu.Unlock()
	ent.mu.Lock()
	return func() {
		ent.mu.Unlock()
		k.mu.Lock()
		if ent.n--; ent.n == 0 {
			delete(k.m, key)
		}
		k.mu.Unlock()
	}
}

// recordTerminal updates the metrics of a document that became terminal.
func recordTerminal(st Status, since time.Time) {
	metrics.Documents.WithLabelValues(string(st)).Inc()
	if !since.IsZero() {
		metrics.DocumentDuration.Observe(time.Since(since).Seconds())
	}
	if st == StatusError {
		metrics.Errors.WithLabelValues("document_error").Inc()
	}
}
