package joblog

import (
	"fmt"

	"github.com/redactd/redactd/engine/store/record"
)

// Copied counts what CopyTo wrote.
type Copied struct {
	Accounts, Keys, Jobs, Docs, Queued, Grants int
}

// MigratedCharge is the ledger document that CopyTo charges an account's
// use to where no stored document accounts for it (redacted documents
// of jobs deleted since: their pages stay used).
const MigratedCharge = "joblog-migrated"

// CopyTo writes every record of the log into dst, an empty store of
// another kind (engine/store/storelog): accounts, keys, jobs with their
// documents, events, pending webhook and idempotency key, the queued
// documents onto dst's queue (their entries carrying the account), each
// account's use as charges (each charged, unrefunded document's pages,
// and the rest of the stored use as one MigratedCharge), and the review
// links and sessions when dst keeps them (record.ReviewStore). Retention
// needs no index of its own: each job carries ExpiresAt.
//
// It is the one-shot move of a one-node data directory to the store the
// node runs on next; the log is only read. A copy that fails half-way
// leaves dst partial: the caller copies again into a fresh dst.
func (l *Log) CopyTo(dst record.Store) (Copied, error) {
	var n Copied
	var accts []*Account
	err := l.scanPrefix(pAccount, func(_, v []byte) (bool, error) {
		var a Account
		if err := decode(v, &a); err != nil {
			return false, err
		}
		accts = append(accts, &a)
		return true, nil
	})
	if err != nil {
		return n, err
	}
	byID := map[string]*Account{}
	b := dst.NewBatch()
	for _, a := range accts {
		stored := *a
		stored.PagesUsed = 0
		b.PutAccount(&stored)
		byID[a.ID] = a
	}
	keys, err := l.Keys()
	if err != nil {
		return n, err
	}
	for _, k := range keys {
		b.PutKey(k)
	}
	if err := b.Commit(true); err != nil {
		return n, fmt.Errorf("joblog: copy accounts and keys: %w", err)
	}
	n.Accounts, n.Keys = len(accts), len(keys)

	var jobIDs []string
	err = l.scanPrefix(pJob, func(k, _ []byte) (bool, error) {
		jobIDs = append(jobIDs, string(k[len(pJob):]))
		return true, nil
	})
	if err != nil {
		return n, err
	}
	charged := map[string]int64{} // account → pages charged to its documents
	for _, id := range jobIDs {
		j, docs, err := l.JobAndDocs(id)
		if err != nil {
			return n, fmt.Errorf("joblog: copy job %s: %w", id, err)
		}
		evs, err := l.Events(id)
		if err != nil {
			return n, err
		}
		b := dst.NewBatch()
		b.PutJob(j)
		for _, d := range docs {
			b.PutDoc(d)
			if d.QueuedAt != 0 {
				b.Enqueue(QueueEntry{At: d.QueuedAt, DocID: d.ID, JobID: d.JobID, AccountID: d.AccountID})
				n.Queued++
			}
			if d.Charged && !d.Refunded && d.ChargedPages > 0 {
				if err := charge(b, byID, d.AccountID, d.ID, d.ChargedPages); err != nil {
					return n, err
				}
				charged[d.AccountID] += d.ChargedPages
			}
		}
		for _, ev := range evs {
			b.AddEvent(id, ev)
		}
		if h, err := l.Hook(id); err == nil {
			b.PutHook(h)
		} else if !IsNotFound(err) {
			return n, err
		}
		if j.IdemKey != "" {
			r, err := l.Idem(j.AccountID, j.IdemNS, j.IdemKey)
			if err == nil {
				b.PutIdem(j.AccountID, j.IdemNS, j.IdemKey, r)
			} else if !IsNotFound(err) {
				return n, err
			}
		}
		if err := b.Commit(true); err != nil {
			return n, fmt.Errorf("joblog: copy job %s: %w", id, err)
		}
		n.Jobs++
		n.Docs += len(docs)
	}

	b = dst.NewBatch()
	for _, a := range accts {
		if rest := a.PagesUsed - charged[a.ID]; rest > 0 {
			if err := charge(b, byID, a.ID, MigratedCharge, rest); err != nil {
				return n, err
			}
		}
	}
	if err := b.Commit(true); err != nil {
		return n, fmt.Errorf("joblog: copy account use: %w", err)
	}

	if rs, ok := dst.(record.ReviewStore); ok {
		var failed error
		err := l.ReviewGrants(func(kind string, hash []byte, g *record.ReviewGrant) bool {
			c := *g
			c.Rev = 0
			if err := rs.CreateReviewGrant(kind, hash, &c); err != nil {
				failed = fmt.Errorf("joblog: copy review grant: %w", err)
				return false
			}
			n.Grants++
			return true
		})
		if err != nil {
			return n, err
		}
		if failed != nil {
			return n, failed
		}
	}
	return n, nil
}

// charge charges pages for doc to the account, with no bound: the stored
// use is what it is, even where the quota was lowered below it since.
func charge(b record.Batch, accts map[string]*Account, accountID, doc string, pages int64) error {
	a := accts[accountID]
	if a == nil {
		return fmt.Errorf("joblog: copy: document %s of a missing account %s", doc, accountID)
	}
	unbounded := *a
	unbounded.PagesQuota = 0
	b.Charge(&unbounded, doc, pages)
	return nil
}
