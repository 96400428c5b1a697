package joblog

import (
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"
)

// Batch collects the writes of one state change. Nothing is visible until
// Commit; a Batch that is not committed must be discarded.
type Batch struct {
	l *Log
	b *pebble.Batch
}

// NewBatch starts a state change.
func (l *Log) NewBatch() *Batch { return &Batch{l: l, b: l.db.NewBatch()} }

// Commit applies the batch atomically. With sync it returns only once the
// change is durable (use it for anything acknowledged to a client). The
// batch cannot be used afterwards.
func (b *Batch) Commit(sync bool) error {
	defer b.b.Close()
	opts := pebble.NoSync
	if sync {
		opts = pebble.Sync
	}
	return b.l.read(func() error {
		if err := b.b.Commit(opts); err != nil {
			return fmt.Errorf("joblog: commit: %w", err)
		}
		return nil
	})
}

// Discard drops an uncommitted batch.
func (b *Batch) Discard() { b.b.Close() }

// Empty reports whether the batch holds no writes.
func (b *Batch) Empty() bool { return b.b.Empty() }

func (b *Batch) set(key []byte, v any) { b.b.Set(key, encode(v), nil) }

// PutAccount writes an account and its e-mail index entry.
func (b *Batch) PutAccount(a *Account) {
	a.V = recordVersion
	b.set([]byte(pAccount+a.ID), a)
	b.b.Set([]byte(pEmail+a.Email), []byte(a.ID), nil)
}

// PutKey writes a key record and its hash index entry.
func (b *Batch) PutKey(k *Key) {
	k.V = recordVersion
	b.set([]byte(pKey+k.ID), k)
	b.b.Set(append([]byte(pKeyHash), k.Hash...), []byte(k.ID), nil)
}

// PutJob writes a job and its per-account index entries (by id, and by
// creation time for listing).
func (b *Batch) PutJob(j *Job) {
	j.V = recordVersion
	b.set([]byte(pJob+j.ID), j)
	b.b.Set([]byte(pAcctJob+j.AccountID+"/"+j.ID), nil, nil)
	b.b.Set(acctTimeKey(j.AccountID, timeNS(j.CreatedAt), j.ID), nil, nil)
}

// PutDoc writes a document.
func (b *Batch) PutDoc(d *Doc) {
	d.V = recordVersion
	b.set([]byte(pDoc+d.ID), d)
}

// PutIdem records that (account, namespace, key) created a job.
func (b *Batch) PutIdem(accountID, ns, key string, r *Idem) {
	r.V = recordVersion
	b.set(idemKey(accountID, ns, key), r)
}

// AddEvent appends to a job's transition log. The caller takes ev.Seq
// from the job's counter (Job.Seq) and writes the job in the same batch.
func (b *Batch) AddEvent(jobID string, ev *Event) {
	ev.V = recordVersion
	b.set(eventKey(jobID, ev.Seq), ev)
}

// Enqueue puts a document into the ready queue at time e.At (unix ns),
// with its job and account as the value (queueValue).
func (b *Batch) Enqueue(e QueueEntry) {
	b.b.Set(timeKey(pQueue, e.At, e.DocID), queueValue(e), nil)
}

// queueValue is a queue entry's value: "<job>/<account>". An entry
// written before entries carried the account holds the job id alone
// (parseQueueValue reads both).
func queueValue(e QueueEntry) []byte {
	if e.AccountID == "" {
		return []byte(e.JobID)
	}
	return []byte(e.JobID + "/" + e.AccountID)
}

// Dequeue removes a document's ready-queue entry.
func (b *Batch) Dequeue(at int64, docID string) {
	b.b.Delete(timeKey(pQueue, at, docID), nil)
}

// SetExpiry moves a job's retention index entry from old to next; a zero
// time means no entry. The caller stores next in Job.ExpiresAt.
func (b *Batch) SetExpiry(jobID string, old, next time.Time) {
	if !old.IsZero() {
		b.b.Delete(timeKey(pRetention, timeNS(old), jobID), nil)
	}
	if !next.IsZero() {
		b.b.Set(timeKey(pRetention, timeNS(next), jobID), nil, nil)
	}
}

// DeleteExpiry removes one retention index entry, e.g. a stale one.
func (b *Batch) DeleteExpiry(e RetentionEntry) {
	b.b.Delete(timeKey(pRetention, timeNS(e.At), e.JobID), nil)
}

// DeleteQueued removes one ready-queue entry, e.g. a stale one.
func (b *Batch) DeleteQueued(e QueueEntry) { b.Dequeue(e.At, e.DocID) }

// PurgeJob deletes a job with everything that hangs off it: documents and
// their queue entries, the account index entry, the transition log, the
// idempotency record and the retention entry.
func (b *Batch) PurgeJob(j *Job, docs []*Doc) {
	for _, d := range docs {
		if d.QueuedAt != 0 {
			b.Dequeue(d.QueuedAt, d.ID)
		}
		b.b.Delete([]byte(pDoc+d.ID), nil)
	}
	b.b.Delete([]byte(pJob+j.ID), nil)
	b.b.Delete([]byte(pAcctJob+j.AccountID+"/"+j.ID), nil)
	b.b.Delete(acctTimeKey(j.AccountID, timeNS(j.CreatedAt), j.ID), nil)
	ev := []byte(pEvent + j.ID + "/")
	b.b.DeleteRange(ev, upper(ev), nil)
	if j.IdemKey != "" {
		b.b.Delete(idemKey(j.AccountID, j.IdemNS, j.IdemKey), nil)
	}
	if !j.ExpiresAt.IsZero() {
		b.b.Delete(timeKey(pRetention, timeNS(j.ExpiresAt), j.ID), nil)
	}
	b.DeleteHook(j.ID)
}

// Charge adds pages to a's use in the batch. The document's own record
// says it is charged (Doc.Charged), in the same batch, so a page count is
// charged exactly once.
func (b *Batch) Charge(a *Account, docID string, pages int64) {
	a.PagesUsed += pages
	b.PutAccount(a)
}

// Refund gives pages back to a in the batch (Doc.Refunded records it).
func (b *Batch) Refund(a *Account, docID string, pages int64) {
	a.PagesUsed -= pages
	b.PutAccount(a)
}
