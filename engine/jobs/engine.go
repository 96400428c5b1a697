package jobs

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/webhook"
)

// Engine is the durable job service; the package documentation (doc.go)
// says how it behaves where the interface leaves it open. Open returns
// it; it owns the lifecycle (Drain, Close, Ready) and hands out the parts
// the HTTP layer uses besides Service: Reviewer (the review routes and
// the editor) and Webhooks (the dispatcher's store).
type Engine struct {
	*core
	// Engine serves Service through the embedded API (jobs, accounts and
	// keys, listing, reports, the demo, and the direct upload, which API
	// embeds); Ready and Close are Engine's own.
	*API
	rev  *Reviews
	jan  *janitor
	wh   *Webhooks
	disp *dispatcher
}

// Reviewer is the review side of the job service (studio jobs): the
// review routes and the editor (server/review).
func (e *Engine) Reviewer() *Reviews { return e.rev }

// Webhooks is the webhook queue, the store of the dispatcher that
// server.StartWebhooks runs.
func (e *Engine) Webhooks() *Webhooks { return e.wh }

var _ Service = (*Engine)(nil)

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
	verify        func(path string) error
}

// Open opens or creates the data directory cfg.Data (records at
// DATA/store, moved there once from an earlier release's DATA/joblog;
// files at DATA/files), recovers from an unclean stop and
// starts the scheduler and the janitor. With a nil Processor the store is
// opened for administration only (keys, defaults, reading jobs): nothing
// is processed and the janitor does not run; queued documents wait for
// the next Open with a Processor.
func Open(cfg Settings, proc Processor, log *slog.Logger) (*Engine, error) {
	return open(cfg, proc, log, hooks{})
}

func open(cfg Settings, proc Processor, log *slog.Logger, h hooks) (*Engine, error) {
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
	e := &Engine{core: &core{
		cfg:   cfg,
		proc:  proc,
		log:   log,
		files: diskFiles{scratch{dir: cmp.Or(cfg.FilesDir, filepath.Join(cfg.Data, "files")), sync: h.syncFile}},
		now:   h.now,

		progressEvery: cmp.Or(h.progressEvery, progressInterval),
		quota:         quota{freePages: cfg.FreePages, standardPages: cfg.StandardPages, maxPagesDoc: cfg.MaxPagesPerDoc},
		stop:          make(chan struct{}),
	}}
	up := &Uploads{core: e.core}
	e.rev = &Reviews{e.core}
	e.jan = &janitor{core: e.core, rev: e.rev}
	e.wh = &Webhooks{core: e.core}
	e.disp = &dispatcher{core: e.core, rev: e.rev}
	e.API = &API{core: e.core, Uploads: up, rev: e.rev, wh: e.wh}
	m, err := NewMetrics(cfg.Registerer)
	if err != nil {
		return nil, fmt.Errorf("engine: metrics: %w", err)
	}
	e.metrics = m
	e.life = lifecycle{now: h.now, outputTTL: cfg.OutputTTL, studioTTL: cfg.StudioTTL, finished: e.wh.queueHook}
	e.verify = pdfout.VerifyFile
	if h.verify != nil {
		e.verify = h.verify
	}
	exposed := jobLogExposed(cfg.Data)
	allow, err := webhook.ParseAllowList(cfg.WebhookAllowHosts)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	e.wh.allow = allow
	if err := os.MkdirAll(e.files.root(), 0o700); err != nil {
		return nil, fmt.Errorf("engine: data directory: %w", err)
	}
	if err := tighten(cfg.Data); err != nil {
		return nil, fmt.Errorf("engine: data directory permissions: %w", err)
	}
	jl, alone, err := openRecords(cfg, log, exposed)
	if err != nil {
		return nil, err
	}
	e.jl, e.alone = jl, alone
	if cfg.Blobs != nil {
		b, err := cfg.Blobs()
		if err != nil {
			jl.Close()
			return nil, fmt.Errorf("engine: blob store: %w", err)
		}
		e.files = blobFiles{scratch: scratch{dir: e.files.root(), sync: h.syncFile}, blobs: b}
	}
	e.localQ, _ = jl.(record.LocalQueue)
	host, _ := os.Hostname()
	e.node = host + "-" + newID()[:8]
	e.leasedQ, _ = jl.(record.LeasedQueue)
	if up.secret, err = up.loadUploadSecret(exposed); err != nil {
		jl.Close()
		return nil, fmt.Errorf("engine: upload secret: %w", err)
	}
	if e.auditKey, err = e.loadAuditKey(); err != nil {
		jl.Close()
		return nil, fmt.Errorf("engine: audit key: %w", err)
	}
	if err := e.jan.recover(); err != nil {
		jl.Close()
		return nil, fmt.Errorf("engine: recovery: %w", err)
	}
	e.base, e.cancel = context.WithCancel(context.Background())
	e.sched.init(cfg.MaxConcurrentJobs)
	if proc != nil {
		e.bg.Add(2)
		go e.disp.run()
		go e.jan.run()
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
// closes the record store. Drain first lets them finish.
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

// validID reports whether s is a canonical UUID as this service issues.
func validID(s string) bool {
	u, err := uuid.Parse(s)
	return err == nil && u.String() == s
}

func newID() string { return uuid.NewString() }

// Conversions between API and stored types.

func toOptions(o record.RedactOptions) Options {
	cats := make([]page.Category, len(o.Categories))
	for i, c := range o.Categories {
		cats[i] = page.Category(c)
	}
	return Options{Categories: cats, Included: nonNil(o.Included), Excluded: nonNil(o.Excluded), Language: o.Language}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func toAccount(a *record.Account) *Account {
	return &Account{
		ID: a.ID, Email: a.Email, Plan: a.Plan,
		PagesQuota: a.PagesQuota, PagesUsed: a.PagesUsed,
		Defaults: toOptions(a.Defaults), CreatedAt: a.CreatedAt,
	}
}

func jobView(j *record.Job, docs []*record.Doc) *Job {
	v := &Job{
		ID: j.ID, AccountID: j.AccountID, Status: Status(j.Status),
		Retention: Retention(j.Retention), CreatedAt: j.CreatedAt,
		Language:  j.Options.Language,
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
