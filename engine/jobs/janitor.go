package jobs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/redactd/redactd/engine/store/record"
)

// orphanGrace is how old a job directory without a job record must be
// before the periodic janitor removes it: job creation writes the files
// before the record, so a young orphan may be a creation in progress.
const orphanGrace = time.Hour

// janitorBatch bounds the expired jobs handled per pass.
const janitorBatch = 1000

// janitor keeps the store and the files tidy: recovery at Open, then a
// periodic pass (one node at a time on a shared store) that expires jobs
// and reservations, restores interrupted review applies, and sweeps
// orphaned files, blobs and ended review links.
type janitor struct {
	*core
	rev *Reviews

	mu sync.Mutex // one pass at a time
	// blobSweptAt is when the janitor last swept the blob store (mu).
	blobSweptAt time.Time
	// settled holds the refunded documents whose refund the ledger was
	// seen to hold (settleRefunds; mu), so each is read there once.
	settled map[string]bool
}

// recover runs at Open, before any worker: it removes files that no
// record points at (half-created jobs, temporary files), requeues
// released documents that lost their queue entry, drops queue entries of
// finished or deleted documents, removes originals of finished ephemeral
// documents, and counts the queue.
//
// On a shared store (a cluster node) it does none of this: the other
// nodes are running, so a job directory without a record may be a
// creation in progress and a temporary file another node's output, and
// the shared queue redelivers what a dead node held. The janitor's
// periodic pass, on one node at a time, removes orphans past their grace.
// A node alone on its store (records.go) recovers as a local queue's
// does; its queue redelivers what was leased when it stopped.
func (jn *janitor) recover() error {
	if jn.localQ == nil && !jn.alone {
		return nil
	}
	if err := jn.sweepOrphans(0, true); err != nil {
		return err
	}
	var applied []*record.Doc
	err := jn.jl.ScanDocs(func(d *record.Doc) bool {
		if interruptedApply(d) {
			applied = append(applied, d)
		}
		return true
	})
	if err != nil {
		return err
	}
	if err := jn.rev.restoreApplies(applied); err != nil {
		return err
	}
	if err := jn.settleRefunds(); err != nil {
		return err
	}
	// Read again: the restores moved their jobs' revisions.
	var requeue, finished []*record.Doc
	err = jn.jl.ScanDocs(func(d *record.Doc) bool {
		switch term := Status(d.Status).Terminal(); {
		case !term && d.Released && d.QueuedAt == 0:
			requeue = append(requeue, d)
		case term && (d.QueuedAt != 0 || !d.HasOriginal):
			finished = append(finished, d)
		}
		return true
	})
	if err != nil {
		return err
	}
	b := jn.jl.NewBatch()
	for _, d := range requeue {
		d.QueuedAt = jn.queueStamp()
		b.Enqueue(queueEntry(d))
		b.PutDoc(d)
	}
	for _, d := range finished {
		if d.QueuedAt != 0 {
			dequeue(b, d.QueuedAt, d.ID)
			d.QueuedAt = 0
			b.PutDoc(d)
		}
		if !d.HasOriginal {
			if err := jn.files.remove(context.Background(), d.JobID, d.ID+sufOrig); err != nil {
				return err
			}
		}
	}
	if err := jn.dropStaleEntries(b); err != nil {
		return err
	}
	if !b.Empty() {
		if err := b.Commit(true); err != nil {
			return err
		}
	} else {
		b.Discard()
	}
	n, err := jn.jl.Count("queue")
	if err != nil {
		return err
	}
	jn.queued.Store(int64(n))
	jn.updateQueueGauge()
	if len(requeue) > 0 || n > 0 {
		jn.log.Info("engine: recovered queue", "queued", n, "requeued", len(requeue))
	}
	return nil
}

// dropStaleEntries takes off a local queue, in b, the entries of deleted
// documents and those a document no longer holds. A leased queue's
// stale entries are dropped as they are leased (dispatch.go).
func (jn *janitor) dropStaleEntries(b record.Batch) error {
	if jn.localQ == nil {
		return nil
	}
	q, err := jn.localQ.Queue()
	if err != nil {
		return err
	}
	for _, ent := range q {
		d, err := jn.jl.Doc(ent.DocID)
		if record.IsNotFound(err) || (err == nil && d.QueuedAt != ent.At) {
			deleteQueued(b, ent)
		} else if err != nil {
			return err
		}
	}
	return nil
}

// sweepOrphans removes job directories that no job record points at and
// that are older than grace. At startup (startup true, grace 0) it also
// removes temporary files in live job directories.
func (jn *janitor) sweepOrphans(grace time.Duration, startup bool) error {
	ents, err := os.ReadDir(jn.files.root())
	if err != nil {
		return err
	}
	for _, ent := range ents {
		path := filepath.Join(jn.files.root(), ent.Name())
		switch {
		case ent.IsDir() && validID(ent.Name()):
			_, err := jn.jl.Job(ent.Name())
			if err == nil {
				if startup {
					if err := removeTemps(path); err != nil {
						return err
					}
				}
				continue
			}
			if !record.IsNotFound(err) {
				return err
			}
		case strings.HasPrefix(ent.Name(), tmpPrefix):
		default:
			continue // not ours; leave it
		}
		if grace > 0 {
			info, err := ent.Info()
			if err != nil || jn.now().Sub(info.ModTime()) < grace {
				continue
			}
		}
		if err := os.RemoveAll(path); err != nil {
			return err
		}
		jn.log.Info("engine: removed orphaned files", "name", ent.Name())
	}
	return nil
}

// janitor purges expired jobs every cfg.JanitorInterval.
//
// On a shared store one node at a time runs it: each pass first takes or
// renews the janitor role (record.Roles), held for three intervals, so a
// dead node's role passes to another one.
func (jn *janitor) run() {
	defer jn.bg.Done()
	pass := func() {
		if roles, ok := jn.jl.(record.Roles); ok {
			held, err := roles.HoldRole("janitor", jn.node, 3*jn.cfg.JanitorInterval)
			if err != nil || !held {
				if err != nil && !errors.Is(err, record.ErrClosed) {
					jn.log.Warn("engine: janitor role", "err", err)
				}
				jn.sweepScratch()
				return
			}
		}
		jn.janitorOnce(jn.base)
	}
	pass()
	t := time.NewTicker(jn.cfg.JanitorInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			pass()
		case <-jn.stop:
			return
		}
	}
}

// sweepScratch removes what this node left in its scratch directory for
// jobs that are gone, on a node that does not hold the janitor role: with
// a blob store (blobFiles) the scratch directory is the node's own, so
// every node sweeps its own.
func (jn *janitor) sweepScratch() {
	if !jn.files.ownScratch() {
		return // the files directory is the janitor's to sweep
	}
	if err := jn.sweepOrphans(orphanGrace, false); err != nil && jn.base.Err() == nil {
		jn.log.Error("engine: sweeping scratch files", "err", err)
	}
}

// blobSweepEvery is the least time between two sweeps of the blob store:
// a sweep lists every blob, so it runs far less often than the janitor.
const blobSweepEvery = 15 * time.Minute

// sweepBlobs deletes the blobs of jobs that have no record, stored more
// than orphanGrace ago (the originals of a job whose creation crashed
// before its record was committed; what a purge that died half-way left),
// and the pieces of Puts that crashed. It runs on the janitor's node, with
// a blob store that can list itself (store.BlobSweeper).
func (jn *janitor) sweepBlobs(ctx context.Context) error {
	if !jn.blobSweptAt.IsZero() && jn.now().Sub(jn.blobSweptAt) < blobSweepEvery {
		return nil
	}
	jn.blobSweptAt = jn.now()
	orphans, partial, err := jn.files.sweepBlobs(ctx, orphanGrace, func(jobID string) (bool, error) {
		if !validID(jobID) {
			return false, nil // not a job's: leave it
		}
		_, err := jn.jl.Job(jobID)
		if record.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
	if orphans > 0 || partial > 0 {
		jn.log.Info("engine: removed orphaned blobs", "blobs", orphans, "partial", partial)
	}
	return err
}

// janitorOnce handles the retention entries that are due: it purges
// finished jobs and expires direct-upload reservations whose URLs ran
// out. Then it deletes ended review links and sessions and removes old
// orphaned directories.
func (jn *janitor) janitorOnce(ctx context.Context) {
	jn.mu.Lock()
	defer jn.mu.Unlock()
	due, err := jn.jl.Expired(jn.now(), janitorBatch)
	if err != nil {
		if !errors.Is(err, record.ErrClosed) {
			jn.log.Error("engine: janitor", "err", err)
		}
		return
	}
	purged := 0
	for _, ent := range due {
		if ctx.Err() != nil {
			return
		}
		p, err := jn.expire(ctx, ent)
		if err != nil {
			jn.log.Error("engine: janitor", "job", ent.JobID, "err", err)
		}
		if p {
			purged++
		}
	}
	if purged > 0 {
		jn.log.Info("engine: purged expired jobs", "jobs", purged)
	}
	jn.rev.sweepReview()
	if err := jn.sweepOrphans(orphanGrace, false); err != nil && ctx.Err() == nil {
		jn.log.Error("engine: janitor: sweeping orphans", "err", err)
	}
	if err := jn.sweepBlobs(ctx); err != nil && ctx.Err() == nil {
		jn.log.Error("engine: janitor: sweeping blobs", "err", err)
	}
	if jn.leasedQ != nil {
		if err := jn.recoverShared(); err != nil && ctx.Err() == nil {
			jn.log.Error("engine: janitor: recovering", "err", err)
		}
	}
	// Recount the queue so the depth gauge cannot drift.
	if n, err := jn.jl.Count("queue"); err == nil {
		jn.queued.Store(int64(n))
		jn.updateQueueGauge()
	}
}

// expire handles one due retention entry and reports whether it purged
// the job.
func (jn *janitor) expire(ctx context.Context, ent record.RetentionEntry) (bool, error) {
	j, err := jn.jl.Job(ent.JobID)
	if record.IsNotFound(err) {
		return false, jn.dropExpiry(ent)
	}
	if err != nil {
		return false, err
	}
	if !j.ExpiresAt.Equal(ent.At) {
		return false, jn.dropExpiry(ent)
	}
	if !j.FinishedAt.IsZero() {
		err := jn.purge(ctx, j.ID, j.AccountID)
		if errors.Is(err, ErrNotFound) {
			err = nil
		}
		return err == nil, err
	}
	return false, jn.expireUploads(j.ID, j.AccountID, ent)
}

func (jn *janitor) dropExpiry(ent record.RetentionEntry) error {
	b := jn.jl.NewBatch()
	deleteExpiry(b, ent)
	return b.Commit(false)
}

// expireUploads ends the reservation of a direct-upload job whose URLs
// expired: reserved documents go to error ("upload not received" without
// a file, "upload not committed" with one).
func (jn *janitor) expireUploads(jobID, accountID string, ent record.RetentionEntry) error {
	err := jn.changeJob(accountID, jobID, func(t *tx) error {
		j := t.job
		if !j.ExpiresAt.Equal(ent.At) {
			return errNoChange
		}
		failed := 0
		for _, d := range t.docs {
			if d.Released || d.Status != string(StatusUploaded) {
				continue
			}
			d.ErrorMessage = "upload not received"
			if d.HasOriginal {
				d.ErrorMessage = "upload not committed"
				d.HasOriginal = false
				t.onUnlock(func() { jn.removeAfterCommit(j.ID, d.ID+sufOrig) })
			}
			t.setStatus(d, StatusError, d.ErrorMessage)
			failed++
		}
		if !allTerminal(t.docs) {
			// Released documents are still running; their completion
			// starts the retention clock.
			setExpiry(t.b, j.ID, j.ExpiresAt, time.Time{})
			j.ExpiresAt = time.Time{}
		}
		t.onCommit(func() {
			jn.log.Info("engine: upload reservation expired", "job", j.ID, "documents", failed)
		})
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// staleAfter is how long a document may sit in a state that only a dead
// node leaves behind before the janitor of a shared store repairs it: an
// interrupted review apply, or a queued document whose queue entry was
// never published (the node died between its commit and the enqueue).
const staleAfter = 30 * time.Minute

// recoverShared is a shared store's recovery, run by the janitor on one
// node: what recover does at Open on one node, for states old enough
// that no live node can still be working on them.
//
// A queued document that no node has started for staleAfter may have
// lost its queue entry, or may just be waiting in a long queue; the two
// look the same, so it is published again under the same queue stamp
// (its place in line is kept) and its clock restarted, at most once per
// staleAfter. A copy delivered after the document finished is dropped;
// two copies processed at once cost work, never a second output or
// charge (the second finish finds the document terminal).
func (jn *janitor) recoverShared() error {
	cutoff := jn.now().Add(-staleAfter)
	var applied, lost []*record.Doc
	err := jn.jl.ScanDocs(func(d *record.Doc) bool {
		switch {
		case d.UpdatedAt.After(cutoff):
		case interruptedApply(d):
			applied = append(applied, d)
		case !Status(d.Status).Terminal() && d.Released && d.Attempts == 0:
			lost = append(lost, d)
		}
		return true
	})
	if err != nil {
		return err
	}
	if err := jn.rev.restoreApplies(applied); err != nil {
		return err
	}
	if err := jn.settleRefunds(); err != nil {
		return err
	}
	for _, d := range lost {
		err := jn.changeDoc(refOf(d), func(t *tx) error {
			if t.doc.Attempts != 0 || Status(t.doc.Status).Terminal() || t.doc.UpdatedAt.After(cutoff) {
				return errNoChange
			}
			if t.doc.QueuedAt == 0 {
				t.enqueue(t.doc)
			} else {
				t.b.Enqueue(queueEntry(t.doc))
			}
			t.doc.UpdatedAt = jn.now()
			t.touch(t.doc)
			return nil
		})
		if err != nil && !errors.Is(err, errNoDoc) {
			return err
		}
		jn.log.Warn("engine: requeued a document whose queue entry was lost", "doc", d.ID)
	}
	return nil
}

// settleRefunds gives the ledger the refunds that documents' records say
// were made. A batch writes a failed document's record, marked refunded,
// before the ledger's refund (engine/store/storelog: a record that loses
// its race must not have been refunded), so a crash between the two
// leaves pages charged for a document that produced nothing. The ledger's
// Refund is idempotent, so settling a refund that a live node is making
// at the same moment gives nothing back twice. Each document is read in
// the ledger once per process (settled).
func (jn *janitor) settleRefunds() error {
	cr, ok := jn.jl.(record.ChargeReader)
	if !ok {
		return nil // a store whose batches refund atomically
	}
	var refunded []*record.Doc
	present := map[string]bool{}
	err := jn.jl.ScanDocs(func(d *record.Doc) bool {
		if d.Refunded {
			present[d.ID] = true
			if !jn.settled[d.ID] {
				refunded = append(refunded, d)
			}
		}
		return true
	})
	if err != nil {
		return err
	}
	for id := range jn.settled {
		if !present[id] {
			delete(jn.settled, id) // purged
		}
	}
	if jn.settled == nil {
		jn.settled = map[string]bool{}
	}
	b := jn.jl.NewBatch()
	var owed []string
	for _, d := range refunded {
		_, charged, err := cr.Charged(d.AccountID, d.ID)
		if err != nil {
			b.Discard()
			return err
		}
		if charged {
			b.Refund(&record.Account{ID: d.AccountID}, d.ID, d.ChargedPages)
			owed = append(owed, d.ID)
		}
		jn.settled[d.ID] = true
	}
	if len(owed) == 0 {
		b.Discard()
		return nil
	}
	if err := b.Commit(true); err != nil {
		for _, id := range owed {
			delete(jn.settled, id)
		}
		return err
	}
	jn.log.Warn("engine: settled refunds a crash interrupted", "documents", len(owed))
	return nil
}
