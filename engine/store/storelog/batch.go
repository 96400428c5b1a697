package storelog

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redactd/redactd/engine/failpoint"
	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/record"
)

func idemKey(accountID, ns, key string) string {
	return accountID + "\x00" + ns + "\x00" + key
}

// Idem reads the job an idempotency key created.
func (l *Log) Idem(accountID, ns, key string) (*record.Idem, error) {
	if err := l.open(); err != nil {
		return nil, err
	}
	c, cancel := ctx()
	defer cancel()
	v, err := l.s.Idempotency.Get(c, idemKey(accountID, ns, key))
	if err != nil {
		return nil, notFound(err)
	}
	var r record.Idem
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, fmt.Errorf("storelog: idempotency record: %w", err)
	}
	return &r, nil
}

// Batch collects one state change; Commit writes it in the order the
// package documentation gives. It is neither a record.ExpiryBatch (a
// job's retention time is its own field, Job.ExpiresAt, written with the
// job; sweeps read it there) nor a record.QueueBatch (the worker holding
// a document's lease acknowledges it after the commit, engine/jobs/dispatch.go).
type Batch struct {
	l        *Log
	charges  []ledgerOp
	refunds  []ledgerOp
	accounts []*record.Account
	keys     []*record.Key
	jobs     map[string]*jobOps
	order    []string // job ids, in first-touched order
	idems    []idemOp
	enqueues []record.QueueEntry
	// purged holds the documents of the jobs the batch deletes: their
	// refunds are made before the deletion (commit).
	purged map[string]bool
}

type ledgerOp struct {
	account, doc string
	pages, limit int64
}

type idemOp struct {
	key   string
	jobID string
	value []byte
}

// jobOps is what a batch does to one job's record.
type jobOps struct {
	job     *record.Job
	docs    []*record.Doc
	events  []*record.Event
	hook    *record.Hook
	delHook bool
	purge   bool
}

// NewBatch starts a batch.
func (l *Log) NewBatch() record.Batch { return &Batch{l: l, jobs: map[string]*jobOps{}} }

func (b *Batch) ops(jobID string) *jobOps {
	o := b.jobs[jobID]
	if o == nil {
		o = &jobOps{}
		b.jobs[jobID] = o
		b.order = append(b.order, jobID)
	}
	return o
}

// Discard drops the batch.
func (b *Batch) Discard() {}

// Empty reports whether the batch holds nothing to write.
func (b *Batch) Empty() bool {
	return len(b.charges)+len(b.refunds)+len(b.accounts)+len(b.keys)+len(b.jobs)+len(b.idems)+len(b.enqueues) == 0
}

// PutAccount writes an account's own fields; its use is the ledger's.
func (b *Batch) PutAccount(a *record.Account) {
	for i, x := range b.accounts {
		if x.ID == a.ID {
			b.accounts[i] = a
			return
		}
	}
	b.accounts = append(b.accounts, a)
}

// Charge charges pages for doc to a through the ledger, bounded by a's
// quota.
func (b *Batch) Charge(a *record.Account, docID string, pages int64) {
	a.PagesUsed += pages
	b.charges = append(b.charges, ledgerOp{account: a.ID, doc: docID, pages: pages, limit: a.PagesQuota})
}

// Refund gives doc's charge back through the ledger.
func (b *Batch) Refund(a *record.Account, docID string, pages int64) {
	a.PagesUsed -= pages
	b.refunds = append(b.refunds, ledgerOp{account: a.ID, doc: docID})
}

// PutKey writes an API key record and its hash index.
func (b *Batch) PutKey(k *record.Key) { b.keys = append(b.keys, k) }

// PutJob writes a job.
func (b *Batch) PutJob(j *record.Job) { b.ops(j.ID).job = j }

// PutDoc writes a document into its job's record.
func (b *Batch) PutDoc(d *record.Doc) {
	o := b.ops(d.JobID)
	for i, x := range o.docs {
		if x.ID == d.ID {
			o.docs[i] = d
			return
		}
	}
	o.docs = append(o.docs, d)
}

// PutIdem claims an idempotency key for the job it names.
func (b *Batch) PutIdem(accountID, ns, key string, r *record.Idem) {
	v, _ := json.Marshal(r)
	b.idems = append(b.idems, idemOp{key: idemKey(accountID, ns, key), jobID: r.JobID, value: v})
}

// AddEvent appends to a job's transition log.
func (b *Batch) AddEvent(jobID string, ev *record.Event) {
	o := b.ops(jobID)
	o.events = append(o.events, ev)
}

// PutHook records a job's pending webhook delivery.
func (b *Batch) PutHook(h *record.Hook) {
	o := b.ops(h.JobID)
	o.hook, o.delHook = h, false
}

// DeleteHook removes a job's pending webhook delivery.
func (b *Batch) DeleteHook(jobID string) {
	o := b.ops(jobID)
	o.hook, o.delHook = nil, true
}

// PurgeJob deletes a job's record, its indexes and its idempotency key.
func (b *Batch) PurgeJob(j *record.Job, docs []*record.Doc) {
	o := b.ops(j.ID)
	o.job, o.purge = j, true
	if b.purged == nil {
		b.purged = map[string]bool{}
	}
	for _, d := range docs {
		b.purged[d.ID] = true
	}
}

// Enqueue puts a document on the shared queue once the batch's records
// are committed.
func (b *Batch) Enqueue(e record.QueueEntry) {
	b.enqueues = append(b.enqueues, e)
}

// conflict is a lost race on key.
func conflict(key string) error { return &record.ConflictError{Key: key} }

// Commit writes the batch: charges, accounts and keys, jobs, claims,
// refunds, enqueues. On an engine whose writes are durable one by one,
// sync is moot; on one that defers its syncs (Options.Sync), a synced
// commit ends with one sync, and an unsynced one (a progress figure)
// leaves its writes to the next.
func (b *Batch) Commit(sync bool) error {
	if err := b.commit(); err != nil {
		return err
	}
	if sync {
		return b.l.sync()
	}
	return nil
}

func (b *Batch) commit() error {
	if err := b.l.open(); err != nil {
		return err
	}
	c, cancel := ctx()
	defer cancel()
	charged, err := b.charge(c)
	if err != nil {
		return err
	}
	if len(b.charges) > 0 {
		failpoint.Hit("after-charge")
	}
	undo := func() { b.uncharge(charged) }
	if err := b.writeAccounts(c); err != nil {
		undo()
		return err
	}
	if err := b.writeKeys(c); err != nil {
		undo()
		return err
	}
	// A deleted job's refunds go before its deletion: after it, a crash
	// would leave the charge of a document no record remembers.
	if err := b.refund(c, true); err != nil {
		undo()
		return err
	}
	var created []*jobOps
	for _, id := range b.order {
		o := b.jobs[id]
		isNew, err := b.writeJob(c, id, o)
		if err != nil {
			undo()
			b.unmake(created)
			return err
		}
		if isNew {
			created = append(created, o)
		}
	}
	if err := b.claim(c); err != nil {
		undo()
		b.unmake(created)
		return err
	}
	if err := b.refund(c, false); err != nil {
		return err
	}
	for _, q := range b.enqueues {
		if err := b.enqueue(q); err != nil {
			return err
		}
	}
	return nil
}

// refund makes the batch's refunds of deleted jobs' documents (purged)
// or of the others. The others come after their documents' records: a
// record that loses its compare-and-set must not have been refunded, and
// a crash between the two leaves a document marked refunded whose charge
// the ledger still counts, which the job service's recovery settles
// (engine/jobs: settleRefunds). A deleted job has no record left to say
// so, so its refunds come first; if the deletion then loses its race and
// a document finishes meanwhile, that document was refunded and stays
// free (Refund is idempotent, so the retried deletion changes nothing).
func (b *Batch) refund(c context.Context, purged bool) error {
	for _, r := range b.refunds {
		if b.purged[r.doc] != purged {
			continue
		}
		if _, err := b.l.s.Ledger.Refund(c, r.account, r.doc); err != nil {
			return fmt.Errorf("storelog: refund: %w", err)
		}
	}
	return nil
}

// enqueue publishes a queue entry, retried through a leader election
// (retry). The document's record already says it is queued, so a
// publish that fails for good leaves it waiting for the janitor's repair
// (engine: recoverShared). A publish whose answer was lost and is
// repeated puts a second copy in the queue, which the job service drops
// or processes harmlessly (see the package documentation).
func (b *Batch) enqueue(q record.QueueEntry) error {
	p, _ := json.Marshal(queued{At: q.At, Job: q.JobID, Account: q.AccountID})
	err := b.retry(func() error {
		c, cancel := context.WithTimeout(context.Background(), tryTimeout)
		defer cancel()
		return b.l.s.Queue.Enqueue(c, Pool, q.DocID, p)
	})
	if err != nil {
		return fmt.Errorf("storelog: enqueue: %w", err)
	}
	return nil
}

// charge makes the batch's ledger charges and returns those it made
// first (not found already charged), to undo if the batch loses a race.
func (b *Batch) charge(c context.Context) ([]ledgerOp, error) {
	var made []ledgerOp
	for _, ch := range b.charges {
		first, err := b.l.s.Ledger.Charge(c, ch.account, ch.doc, ch.pages, ch.limit)
		if errors.Is(err, store.ErrQuota) {
			// Another node charged the account meanwhile: reading again
			// shows the use that makes this a denial.
			b.uncharge(made)
			return nil, conflict("ledger " + ch.account)
		}
		if err != nil {
			b.uncharge(made)
			return nil, fmt.Errorf("storelog: charge: %w", err)
		}
		if first {
			made = append(made, ch)
		}
	}
	return made, nil
}

func (b *Batch) uncharge(made []ledgerOp) {
	c, cancel := ctx()
	defer cancel()
	for _, ch := range made {
		b.l.s.Ledger.Refund(c, ch.account, ch.doc)
	}
}

// put creates (rev 0) or updates (at rev) the record at key.
func (b *Batch) put(c context.Context, key string, v any, rev uint64) (uint64, error) {
	val, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	var n uint64
	if rev == 0 {
		n, err = b.l.s.Docs.Create(c, key, val)
	} else {
		n, err = b.l.s.Docs.Update(c, key, val, rev)
	}
	if errors.Is(err, store.ErrConflict) || (rev != 0 && errors.Is(err, store.ErrNotFound)) {
		return 0, conflict(key)
	}
	if err != nil {
		// A write whose answer was lost (a leader election, a timeout)
		// may have landed. Undoing the batch then would refund a charge
		// that the stored record says was made: read it back, and a
		// record holding exactly what was written is a success.
		if n, ok := b.landed(key, val, rev); ok {
			return n, nil
		}
		return 0, fmt.Errorf("storelog: %s: %w", key, err)
	}
	return n, nil
}

// landed reports whether the record at key holds val at a revision past
// rev: a write whose answer was lost but which the store applied. A
// leader election that loses a write's answer usually fails the next
// reads as well, for a few seconds, so the read is retried until the
// store answers (the record, or that there is none), for up to
// retryFor. Giving up sooner would report a write that landed as
// failed: the batch's caller then retries a transition the store has
// already made, and its effects (the "document done" line, the
// terminal count) never run.
func (b *Batch) landed(key string, val []byte, rev uint64) (uint64, bool) {
	var r store.Record
	err := b.retry(func() error {
		c, cancel := context.WithTimeout(context.Background(), tryTimeout)
		defer cancel()
		var err error
		r, err = b.l.s.Docs.Get(c, key)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil || r.Revision <= rev || !bytes.Equal(r.Value, val) {
		return 0, false
	}
	return r.Revision, true
}

// retryFor bounds the retries of one store call that must get an
// answer through a leader election (an enqueue, a write's read-back).
const retryFor = time.Minute

// tryTimeout bounds one try of such a call.
const tryTimeout = 5 * time.Second

// retry calls try until it succeeds, for up to retryFor, backing off
// between tries; it gives up early once the log is closed.
func (b *Batch) retry(try func() error) error {
	deadline := time.Now().Add(retryFor)
	for n := 1; ; n++ {
		err := try()
		if err == nil || time.Now().After(deadline) || b.l.closed.Load() {
			return err
		}
		time.Sleep(min(time.Duration(n)*100*time.Millisecond, time.Second))
	}
}

// index creates key → value, accepting a record that holds value
// already (a retried batch).
func (b *Batch) index(c context.Context, key, value string) error {
	_, err := b.l.s.Docs.Create(c, key, []byte(value))
	if errors.Is(err, store.ErrConflict) {
		r, gerr := b.l.s.Docs.Get(c, key)
		if gerr == nil && string(r.Value) == value {
			return nil
		}
		return conflict(key)
	}
	if err != nil {
		return fmt.Errorf("storelog: %s: %w", key, err)
	}
	return nil
}

// unindex deletes an index record, whatever its revision.
func (b *Batch) unindex(c context.Context, key string) {
	if r, err := b.l.s.Docs.Get(c, key); err == nil {
		b.l.s.Docs.Delete(c, key, r.Revision)
	}
}

func (b *Batch) writeAccounts(c context.Context) error {
	for _, a := range b.accounts {
		if a.Rev == 0 {
			if err := b.index(c, emailKey(a.Email), a.ID); err != nil {
				return err
			}
		}
		stored := *a
		stored.PagesUsed = 0
		rev, err := b.put(c, "acct."+a.ID, &stored, a.Rev)
		if err != nil {
			return err
		}
		a.Rev = rev
	}
	return nil
}

func (b *Batch) writeKeys(c context.Context) error {
	for _, k := range b.keys {
		if k.Rev == 0 {
			if err := b.index(c, "khash."+hex.EncodeToString(k.Hash), k.ID); err != nil {
				return err
			}
		}
		rev, err := b.put(c, "key."+k.ID, k, k.Rev)
		if err != nil {
			return err
		}
		k.Rev = rev
	}
	return nil
}

// writeJob applies one job's changes: a purge, a new job (indexes first),
// or an update at the revision its records were read at.
func (b *Batch) writeJob(c context.Context, jobID string, o *jobOps) (isNew bool, err error) {
	key := jobKey(jobID)
	if o.purge {
		return false, b.purge(c, o.job)
	}
	if o.job != nil && o.job.Rev == 0 {
		bu := &bundle{Job: o.job, Docs: o.docs, Events: o.events, Hook: o.hook}
		for _, d := range o.docs {
			if err := b.index(c, "doc."+d.ID, jobID); err != nil {
				return false, err
			}
		}
		ns := strconv.FormatInt(o.job.CreatedAt.UnixNano(), 10)
		if err := b.index(c, "ajob."+o.job.AccountID+"."+jobID, ns); err != nil {
			return false, err
		}
		if err := b.index(c, listKey(o.job.AccountID, o.job.CreatedAt.UnixNano(), jobID), jobID); err != nil {
			return false, err
		}
		rev, err := b.put(c, key, bu, 0)
		if err != nil {
			return false, err
		}
		setRev(bu, rev)
		return true, nil
	}
	cur, err := b.l.readBundle(jobID)
	if record.IsNotFound(err) {
		return false, conflict(key)
	}
	if err != nil {
		return false, err
	}
	rev := cur.Job.Rev
	if o.job != nil && o.job.Rev != rev {
		return false, conflict(key)
	}
	if o.job != nil {
		cur.Job = o.job
	}
	for _, d := range o.docs {
		if d.Rev != rev {
			return false, conflict(key)
		}
		replaced := false
		for i, x := range cur.Docs {
			if x.ID == d.ID {
				cur.Docs[i], replaced = d, true
			}
		}
		if !replaced {
			cur.Docs = append(cur.Docs, d)
		}
	}
	cur.Events = append(cur.Events, o.events...)
	switch {
	case o.hook != nil:
		cur.Hook = o.hook
	case o.delHook:
		cur.Hook = nil
	}
	n, err := b.put(c, key, cur, rev)
	if err != nil {
		return false, err
	}
	setRev(cur, n)
	return false, nil
}

func setRev(bu *bundle, rev uint64) {
	bu.Job.Rev = rev
	for _, d := range bu.Docs {
		d.Rev = rev
	}
}

// purge deletes a job's record at the revision read, then its indexes
// and idempotency key (left-over indexes point nowhere and are skipped).
func (b *Batch) purge(c context.Context, j *record.Job) error {
	key := jobKey(j.ID)
	err := b.l.s.Docs.Delete(c, key, j.Rev)
	if errors.Is(err, store.ErrConflict) {
		return conflict(key)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("storelog: %s: %w", key, err)
	}
	for _, id := range j.DocIDs {
		b.unindex(c, "doc."+id)
	}
	b.unindex(c, "ajob."+j.AccountID+"."+j.ID)
	b.unindex(c, listKey(j.AccountID, j.CreatedAt.UnixNano(), j.ID))
	if j.IdemKey != "" {
		if err := b.l.s.Idempotency.Release(c, idemKey(j.AccountID, j.IdemNS, j.IdemKey)); err != nil {
			return fmt.Errorf("storelog: idempotency: %w", err)
		}
	}
	return nil
}

// claim claims the batch's idempotency keys. A key another node claimed
// first is a conflict: the retry finds that node's job.
func (b *Batch) claim(c context.Context) error {
	for _, op := range b.idems {
		got, won, err := b.l.s.Idempotency.Claim(c, op.key, op.value)
		if err != nil {
			return fmt.Errorf("storelog: idempotency: %w", err)
		}
		if !won {
			var r record.Idem
			if json.Unmarshal(got, &r) == nil && r.JobID == op.jobID {
				continue // this batch's own claim, retried
			}
			return conflict("idempotency key")
		}
	}
	return nil
}

// unmake deletes the jobs a failed batch created, with their indexes.
func (b *Batch) unmake(created []*jobOps) {
	c, cancel := ctx()
	defer cancel()
	for _, o := range created {
		b.purgeQuiet(c, o.job)
	}
}

func (b *Batch) purgeQuiet(c context.Context, j *record.Job) {
	b.l.s.Docs.Delete(c, jobKey(j.ID), j.Rev)
	for _, id := range j.DocIDs {
		b.unindex(c, "doc."+id)
	}
	b.unindex(c, "ajob."+j.AccountID+"."+j.ID)
	b.unindex(c, listKey(j.AccountID, j.CreatedAt.UnixNano(), j.ID))
}
