package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/record"
)

// The transition function.
//
// Every change of an account's, a job's or a document's state takes the
// same steps, and change is the one place that takes them:
//
//  1. learn the change's account: the caller knows it (an API call, a
//     queue entry, a document read before), else the record the change
//     is about is read to learn it;
//  2. take the account's lock (state changes of one account are serial);
//  3. read the records under the lock, once: a job with its documents
//     (one read, JobAndDocs), the account when quota moves;
//  4. let the transition decide, on a tx: it changes the records it was
//     given and records what else must happen;
//  5. write the documents it touched, the account when quota moved, and
//     the job, settled from all its documents (status, retention clock,
//     webhook), into one batch;
//  6. commit the batch, synced unless the transition said it only
//     records a progress figure;
//  7. run the effects outside the job log (counters, metrics, removing a
//     file), only once the commit succeeded.
//
// A transition that finds nothing to do returns errNoChange, which
// discards the batch and is not an error to the caller.
//
// The writes that are not state changes of an account's jobs, documents
// or quota do not go through change: API keys (serialised by adminMu),
// the removal of a delivered webhook or of a stale queue entry, and
// startup recovery, which runs before anything else can.

// errNoChange is what a transition returns when it has nothing to
// commit; change then discards its batch and returns nil.
var errNoChange = errors.New("engine: nothing to change")

// errNoDoc is changeDoc's answer for a document that is not (or no
// longer) in the job log.
var errNoDoc = errors.New("engine: no such document")

// tx is one transition in progress: the records it read under the
// account's lock, the batch it writes, and what runs after the commit.
// Its methods are the steps a transition may take; change commits.
type tx struct {
	e *core
	b record.Batch

	accountID string
	acct      *record.Account // read on first use (account)
	acctDirty bool

	job  *record.Job   // nil for an account-only change
	docs []*record.Doc // every document of job, as read under the lock
	doc  *record.Doc   // the document a document transition is about

	// started is when the processing attempt that ends in this
	// transition began; a document made terminal without one (expired,
	// refused) has no duration.
	started time.Time

	touched  map[*record.Doc]bool
	purged   bool // the job's records are deleted: nothing is settled
	unsynced bool
	after    []func()
	unlocked []func()
}

// docRef names the document of a transition and, when the caller knows
// them, its job and account: a queue entry carries both, as does a
// document read before. With both, changeDoc reads nothing before the
// account's lock.
type docRef struct{ docID, jobID, accountID string }

// refOf is the reference to a document as read.
func refOf(d *record.Doc) docRef { return docRef{d.ID, d.JobID, d.AccountID} }

// queuedRef is the reference a queue entry gives; an entry written
// before entries carried the account gives none (changeDoc then reads
// the document to learn it).
func queuedRef(q record.QueueEntry) docRef { return docRef{q.DocID, q.JobID, q.AccountID} }

// errOtherAccount: the document is not of the account the reference
// named (a damaged queue entry); changeDoc reads it to learn its own.
var errOtherAccount = errors.New("engine: document of another account")

// changeDoc runs fn as a transition of one document, with its job and
// the job's other documents, read once under the account's lock. A
// missing document gives errNoDoc without calling fn.
func (c *core) changeDoc(ref docRef, fn func(*tx) error) error {
	if ref.jobID != "" && ref.accountID != "" {
		err := c.changeKnownDoc(ref, fn)
		if !errors.Is(err, errOtherAccount) {
			return err
		}
		c.log.Warn("engine: queue entry names another account; reading the document", "doc", ref.docID)
	}
	d, err := c.jl.Doc(ref.docID)
	if record.IsNotFound(err) {
		return errNoDoc
	}
	if err != nil {
		return err
	}
	return c.changeKnownDoc(refOf(d), fn)
}

// changeKnownDoc is changeDoc for a reference that names the job and the
// account.
func (c *core) changeKnownDoc(ref docRef, fn func(*tx) error) error {
	return c.change(ref.accountID, func(t *tx) error {
		if err := t.loadJob(ref.jobID); record.IsNotFound(err) {
			return errNoDoc
		} else if err != nil {
			return err
		}
		for _, d := range t.docs {
			if d.ID != ref.docID {
				continue
			}
			if d.AccountID != ref.accountID || t.job.AccountID != ref.accountID {
				return errOtherAccount
			}
			t.doc = d
			t.touch(d)
			return fn(t)
		}
		return errNoDoc
	})
}

// changeJob runs fn as a transition of one of the account's jobs and its
// documents. A job that is missing or belongs to another account gives
// ErrNotFound without calling fn.
func (c *core) changeJob(accountID, jobID string, fn func(*tx) error) error {
	return c.change(accountID, func(t *tx) error {
		if err := t.loadJob(jobID); record.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		if t.job.AccountID != accountID {
			return ErrNotFound
		}
		return fn(t)
	})
}

// maxConflicts bounds how often change retries a transition whose
// commit lost a race to another node (record.ConflictError).
const maxConflicts = 20

// change is the transition function: it takes the account's lock, runs
// fn (which reads what it needs under the lock, through tx), builds the
// batch from what fn changed, commits it and then runs fn's effects.
//
// On a shared store another node may change the same records between
// the reads and the commit; the store then refuses the commit as a
// conflict, and change runs fn again on fresh reads. fn must therefore
// leave its effects to onCommit (or make them safe to repeat).
func (c *core) change(accountID string, fn func(*tx) error) error {
	later, err := c.changeLocked(accountID, fn)
	for _, f := range later {
		f()
	}
	return err
}

// changeLocked is change under the account's lock; it returns the
// committed transition's onUnlock effects.
func (c *core) changeLocked(accountID string, fn func(*tx) error) ([]func(), error) {
	unlock := c.lockAcct(accountID)
	defer unlock()
	for try := 1; ; try++ {
		later, err := c.changeOnce(accountID, fn)
		if !record.IsConflict(err) || try == maxConflicts {
			return later, err
		}
		c.metrics.conflicts.Inc()
		time.Sleep(time.Duration(try) * time.Millisecond)
	}
}

func (c *core) changeOnce(accountID string, fn func(*tx) error) ([]func(), error) {
	t := &tx{e: c, b: c.jl.NewBatch(), accountID: accountID, touched: map[*record.Doc]bool{}}
	if err := fn(t); err != nil {
		t.b.Discard()
		if errors.Is(err, errNoChange) {
			return nil, nil
		}
		return nil, err
	}
	t.write()
	if err := t.b.Commit(!t.unsynced); err != nil {
		return nil, err
	}
	for _, f := range t.after {
		f()
	}
	return t.unlocked, nil
}

// loadJob reads the job and all its documents under the lock, in one
// read.
func (t *tx) loadJob(jobID string) error {
	j, docs, err := t.e.jl.JobAndDocs(jobID)
	if err != nil {
		return err
	}
	t.job, t.docs = j, docs
	return nil
}

// adopt makes a job created by the transition (and its documents) the
// job the transition commits.
func (t *tx) adopt(j *record.Job, docs []*record.Doc) {
	t.job, t.docs = j, docs
	for _, d := range docs {
		t.touch(d)
	}
}

// write puts what the transition changed into the batch: the documents
// it touched, the account when quota moved, and the job settled from
// all its documents.
func (t *tx) write() {
	if t.purged {
		if t.acctDirty {
			t.b.PutAccount(t.acct)
		}
		return
	}
	for _, d := range t.docs {
		if t.touched[d] {
			t.b.PutDoc(d)
		}
	}
	if t.acctDirty {
		t.b.PutAccount(t.acct)
	}
	if t.job != nil {
		t.e.life.settle(t.b, t.job, t.docs)
	}
}

// account reads the transition's account once, under the lock.
func (t *tx) account() (*record.Account, error) {
	if t.acct == nil {
		a, err := t.e.jl.Account(t.accountID)
		if err != nil {
			return nil, err
		}
		t.acct = a
	}
	return t.acct, nil
}

// accountChanged marks the account to be written.
func (t *tx) accountChanged() { t.acctDirty = true }

// touch marks d to be written (the transition's document is always).
func (t *tx) touch(d *record.Doc) { t.touched[d] = true }

// setStatus moves d to a new status, with an event. A document made
// terminal is counted once the commit succeeds: this is the one place
// documents_total and document_duration_seconds are observed.
func (t *tx) setStatus(d *record.Doc, to Status, note string) {
	if Status(d.Status) != to && to.Terminal() {
		started := t.started
		t.onCommit(func() { t.e.metrics.terminal(to, started) })
	}
	t.e.life.setStatus(t.b, t.job, d, to, note)
	t.touch(d)
}

// move changes d's status for a review apply (redacted → redacting →
// redacted), with its event and the job's derived status, without
// counting a terminal state: the document was counted when it was first
// redacted.
func (t *tx) move(d *record.Doc, to Status, note string) {
	t.e.life.setStatus(t.b, t.job, d, to, note)
	t.touch(d)
}

// event records a document's event (from == to for notes such as a
// charge or an upload) in the job's log.
func (t *tx) event(d *record.Doc, from, to Status, note string) {
	t.e.life.event(t.b, t.job, d.ID, from, to, note)
}

// enqueue puts d on the ready queue.
func (t *tx) enqueue(d *record.Doc) {
	d.QueuedAt = t.e.queueStamp()
	t.b.Enqueue(queueEntry(d))
	t.touch(d)
	t.onCommit(func() { t.e.queued.Add(1) })
}

// queueEntry is d's entry in the ready queue (at d.QueuedAt).
func queueEntry(d *record.Doc) record.QueueEntry {
	return record.QueueEntry{At: d.QueuedAt, DocID: d.ID, JobID: d.JobID, AccountID: d.AccountID}
}

// dequeue takes d off the ready queue, if it is on it.
func (t *tx) dequeue(d *record.Doc) {
	if d.QueuedAt == 0 {
		return
	}
	dequeue(t.b, d.QueuedAt, d.ID)
	d.QueuedAt = 0
	t.touch(d)
	t.onCommit(func() { t.e.queued.Add(-1) })
}

// progressOnly commits the transition without a sync: it records a
// figure a crash may lose, never an acknowledged state.
func (t *tx) progressOnly() { t.unsynced = true }

// onCommit runs f after a successful commit, in the order registered.
func (t *tx) onCommit(f func()) { t.after = append(t.after, f) }

// onUnlock runs f after a successful commit once the account's lock is
// released: an effect that may wait on the network (deleting a blob) and
// must not hold up the account's other transitions.
func (t *tx) onUnlock(f func()) { t.unlocked = append(t.unlocked, f) }

// apiErr is a transition's error as a caller of the Service sees it: the
// service's own errors (ErrNotFound, an *Error, a canceled context) pass
// through; anything else is a job-log failure and goes through logErr.
func (c *core) apiErr(op string, err error) error {
	if err == nil {
		return nil
	}
	if ee := (*Error)(nil); errors.As(err, &ee) {
		return err
	}
	if errors.Is(err, store.ErrUnavailable) {
		// The store's retries ran out (their deadline included): a 503,
		// not the caller's own deadline.
		return c.logErr(op, err)
	}
	for _, known := range []error{ErrUnauthorized, ErrInvalid, ErrQuota, ErrNotFound, ErrTooLarge, ErrConflict, ErrUnavailable, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, known) {
			return err
		}
	}
	return c.logErr(op, err)
}
