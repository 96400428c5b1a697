package joblog

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble"

	"github.com/redactd/redactd/engine/store/record"
)

// pAcctTime is the index of an account's jobs by creation time:
//
//	acctjobt/<account>/<created unix ns, 8 bytes BE><job>   empty
//
// Written by PutJob beside acctjob/, deleted by PurgeJob, built for the
// jobs of a version-1 log by migration 1→2. It serves job listing, newest
// first, without reading every job of the account.
const pAcctTime = "acctjobt/"

// ListCursorLen is the length of a listing position: the creation time
// (8 bytes) and the job id (a 36-character UUID).
const ListCursorLen = record.ListCursorLen

// maxListScan bounds the index entries one listing call reads, so a
// status filter that matches nothing in a large account still answers
// quickly; the page then ends early with a cursor to go on from.
const maxListScan = 5000

func acctTimeKey(accountID string, ns int64, jobID string) []byte {
	return timeKey(pAcctTime+accountID+"/", ns, jobID)
}

// ListJobs returns up to limit jobs of accountID, newest first, starting
// after the position before (nil: from the newest), keeping only jobs
// whose status is status when status is not empty. next is the position
// to pass as before for the following page; nil when no job remains.
// A position is ListCursorLen bytes: creation time and job id.
func (l *Log) ListJobs(accountID string, before []byte, limit int, status string) (jobs []ListedJob, next []byte, err error) {
	if before != nil && len(before) != ListCursorLen {
		return nil, nil, errors.New("joblog: bad listing position")
	}
	prefix := []byte(pAcctTime + accountID + "/")
	upperBound := upper(prefix)
	if before != nil {
		upperBound = append(bytes.Clone(prefix), before...)
	}
	err = l.read(func() error {
		snap := l.db.NewSnapshot()
		defer snap.Close()
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: upperBound})
		if err != nil {
			return fmt.Errorf("joblog: iterate: %w", err)
		}
		defer it.Close()
		scanned := 0
		for ok := it.Last(); ok; ok = it.Prev() {
			pos := it.Key()[len(prefix):]
			if len(pos) != ListCursorLen {
				return fmt.Errorf("joblog: corrupt listing key %q", it.Key())
			}
			if len(jobs) == limit || scanned == maxListScan {
				return nil // more remain: next is the last position read
			}
			scanned++
			next = bytes.Clone(pos)
			lj, err := snapJob(snap, string(pos[8:]))
			if errors.Is(err, ErrNotFound) {
				continue // index and record change in one batch; skip rather than fail
			}
			if err != nil {
				return err
			}
			if status != "" && lj.Job.Status != status {
				continue
			}
			jobs = append(jobs, lj)
		}
		next = nil // the index is exhausted
		return it.Error()
	})
	if err != nil {
		return nil, nil, err
	}
	return jobs, next, nil
}

// snapJob reads a job and its documents from snap.
func snapJob(snap *pebble.Snapshot, id string) (ListedJob, error) {
	get := func(key []byte, v any) error { return snapGet(snap, key, v) }
	var j Job
	if err := get([]byte(pJob+id), &j); err != nil {
		return ListedJob{}, err
	}
	docs := make([]*Doc, 0, len(j.DocIDs))
	for _, did := range j.DocIDs {
		var d Doc
		if err := get([]byte(pDoc+did), &d); err != nil {
			return ListedJob{}, fmt.Errorf("document %s of job %s: %w", did, id, err)
		}
		docs = append(docs, &d)
	}
	return ListedJob{Job: &j, Docs: docs}, nil
}

// migrateListingIndex is migration 1→2: it adds the acctjobt/ entry of
// every stored job, so a data directory from before lists all its jobs.
func migrateListingIndex(db *pebble.DB, b *pebble.Batch) error {
	p := []byte(pJob)
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: upper(p)})
	if err != nil {
		return err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		var j Job
		if err := decode(it.Value(), &j); err != nil {
			return fmt.Errorf("job %s: %w", it.Key()[len(p):], err)
		}
		b.Set(acctTimeKey(j.AccountID, timeNS(j.CreatedAt), j.ID), nil, nil)
	}
	return it.Error()
}
