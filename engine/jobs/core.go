package jobs

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redactd/redactd/engine/store/record"
)

// core is what every part of the job service shares: the settings, the
// record store and its queue, the files, the account locks, the one
// transition function (change, transition.go) and its reads, the
// scheduler's in-flight set, metrics, logger and clock. Engine and each
// part (Reviews, ...) hold the one core Open builds.
type core struct {
	cfg  Settings
	proc Processor
	log  *slog.Logger
	jl   record.Store
	// node names this process to a shared store (roles it holds).
	node string
	// alone: the store is the node's own (DATA/store), no other node
	// runs on it (records.go).
	alone bool
	// The ready queue: exactly one of these is set (records.go).
	localQ  record.LocalQueue
	leasedQ record.LeasedQueue
	files   jobFiles

	now func() time.Time
	// progressEvery is the least time between two stores of pages_done.
	progressEvery time.Duration
	// verify is the output gate: a finished output is released only if
	// it passes (pdfout.VerifyFile: a flattened, image-only PDF). The job
	// service owns it, whatever Processor wrote the file; tests swap it.
	verify func(path string) error

	quota   quota
	metrics *Metrics
	life    lifecycle

	acctMu  [64]sync.Mutex // serializes state changes per account
	adminMu sync.Mutex     // serializes key and account creation
	idem    keyedMutex     // serializes creation per (account, idempotency key)

	closing   atomic.Bool
	auditKey  []byte          // keys review audit logs; DATA/audit-key (loadAuditKey)
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

// lockAcct serializes state changes of one account's jobs, documents and
// quota; it returns the unlock function.
func (c *core) lockAcct(accountID string) func() {
	h := fnv.New32a()
	h.Write([]byte(accountID))
	m := &c.acctMu[h.Sum32()%uint32(len(c.acctMu))]
	m.Lock()
	return m.Unlock
}

// logErr maps a job-log failure on a request path to a caller-facing error.
func (c *core) logErr(op string, err error) error {
	if errors.Is(err, record.ErrClosed) {
		return errorf(ErrUnavailable, "", "shutting down")
	}
	c.log.Error("engine: job log", "op", op, "err", err)
	return storageError(err)
}

// queueStamp returns a strictly increasing queue timestamp (unix ns), so
// the queue is FIFO even when the clock stands still or steps back.
func (c *core) queueStamp() int64 {
	for {
		last := c.lastQueue.Load()
		n := c.now().UnixNano()
		if n <= last {
			n = last + 1
		}
		if c.lastQueue.CompareAndSwap(last, n) {
			return n
		}
	}
}

// view builds the API view of a job, read again from one snapshot.
func (c *core) view(j *record.Job) (*Job, error) {
	j, docs, err := c.jl.JobAndDocs(j.ID)
	if err != nil {
		return nil, c.logErr("get job", err)
	}
	return jobView(j, docs), nil
}

// ownedJob reads a job of the caller's account; anything else is
// ErrNotFound, so ids of other accounts cannot be probed.
func (c *core) ownedJob(acct *Account, jobID string) (*record.Job, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	if !validID(jobID) {
		return nil, ErrNotFound
	}
	j, err := c.jl.Job(jobID)
	if record.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, c.logErr("get job", err)
	}
	if j.AccountID != acct.ID {
		return nil, ErrNotFound
	}
	return j, nil
}

// ownedDoc reads a document of acct's; another account's document, like
// an unknown or malformed id, is ErrNotFound. op names the caller in a
// job-log failure's log line.
func (c *core) ownedDoc(acct *Account, docID, op string) (*record.Doc, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	if !validID(docID) {
		return nil, ErrNotFound
	}
	d, err := c.jl.Doc(docID)
	if record.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, c.logErr(op, err)
	}
	if d.AccountID != acct.ID {
		return nil, ErrNotFound
	}
	return d, nil
}

// GetJob returns the job with its documents, read from one snapshot.
func (c *core) GetJob(ctx context.Context, acct *Account, jobID string) (*Job, error) {
	if acct == nil {
		return nil, ErrUnauthorized
	}
	// Check the owner before reading the documents, so another account's
	// job costs what an unknown id costs (no timing oracle on existence).
	if _, err := c.ownedJob(acct, jobID); err != nil {
		return nil, err
	}
	j, docs, err := c.jl.JobAndDocs(jobID)
	if record.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, c.logErr("get job", err)
	}
	if j.AccountID != acct.ID {
		return nil, ErrNotFound
	}
	return jobView(j, docs), nil
}

// createOutput opens the temporary file a document's output is written
// to, in the job's scratch directory.
func (c *core) createOutput(jobID string) (*os.File, error) {
	dir, err := c.files.workDir(jobID)
	if err != nil {
		return nil, err
	}
	return createTemp(dir)
}

// runProcessor calls the Processor, turning a panic into an error.
func (c *core) runProcessor(ctx context.Context, in ProcessInput, out *os.File, progress func(Progress) error) (res *ProcessResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("engine: processor panic", "doc", in.DocID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("processor panic: %v", p)
		}
	}()
	res, err = c.proc.Process(ctx, in, out, progress)
	if err == nil && res == nil {
		err = errors.New("processor returned no result")
	}
	return res, err
}

// purge deletes a job's records in one synced batch, cancels its workers,
// waits for them (bounded by ctx) and removes its files. A worker that
// outlives the wait finds its document gone and removes what it wrote.
func (c *core) purge(ctx context.Context, jobID, accountID string) error {
	var ids []string
	err := c.changeJob(accountID, jobID, func(t *tx) error {
		if err := t.refundUnfinished(); err != nil {
			return err
		}
		for _, d := range t.docs {
			if d.QueuedAt != 0 {
				t.onCommit(func() { c.queued.Add(-1) })
			}
		}
		t.b.PurgeJob(t.job, t.docs)
		t.purged = true
		ids = docIDs(t.docs)
		return nil
	})
	if err != nil {
		return c.apiErr("delete job", err)
	}
	c.updateQueueGauge()

	wait, cancel := context.WithTimeout(ctx, purgeWaitTime)
	defer cancel()
	for _, done := range c.sched.cancelJob(jobID) {
		select {
		case <-done:
		case <-wait.Done():
		}
	}
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), fileOpTimeout)
	defer fcancel()
	if err := c.files.removeJob(fctx, jobID, ids); err != nil {
		// The records are gone, so the caller's delete succeeded; the
		// janitor removes the orphaned directory later.
		c.log.Error("engine: removing job files failed", "job", jobID, "err", err)
	}
	return nil
}

// removeAfterCommit removes a file that a committed record no longer
// points at; a failure is logged, and the job's purge removes it later.
func (c *core) removeAfterCommit(jobID, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), fileOpTimeout)
	defer cancel()
	if err := c.files.remove(ctx, jobID, name); err != nil {
		c.log.Error("engine: removing a file failed", "job", jobID, "file", name, "err", err)
	}
}

func (c *core) updateQueueGauge() {
	c.metrics.queueDepth.Set(float64(c.queued.Load() - int64(c.sched.inflightCount())))
}
