package joblog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cockroachdb/pebble"
)

// Account reads an account by id.
func (l *Log) Account(id string) (*Account, error) {
	var a Account
	return &a, l.read(func() error { return l.get([]byte(pAccount+id), &a) })
}

// AccountByEmail reads an account by its (normalized) e-mail address.
func (l *Log) AccountByEmail(email string) (*Account, error) {
	var a Account
	err := l.read(func() error {
		id, err := l.getRaw([]byte(pEmail + email))
		if err != nil {
			return err
		}
		return l.get([]byte(pAccount+string(id)), &a)
	})
	return &a, err
}

// KeyByHash reads the key record whose SHA-256 is hash.
func (l *Log) KeyByHash(hash []byte) (*Key, error) {
	var k Key
	err := l.read(func() error {
		id, err := l.getRaw(append([]byte(pKeyHash), hash...))
		if err != nil {
			return err
		}
		return l.get([]byte(pKey+string(id)), &k)
	})
	return &k, err
}

// Key reads a key record by its public id.
func (l *Log) Key(id string) (*Key, error) {
	var k Key
	return &k, l.read(func() error { return l.get([]byte(pKey+id), &k) })
}

// Keys lists every key record in id order.
func (l *Log) Keys() ([]*Key, error) {
	var out []*Key
	err := l.scanPrefix(pKey, func(_, v []byte) (bool, error) {
		var k Key
		if err := decode(v, &k); err != nil {
			return false, err
		}
		out = append(out, &k)
		return true, nil
	})
	return out, err
}

// Job reads a job by id.
func (l *Log) Job(id string) (*Job, error) {
	var j Job
	return &j, l.read(func() error { return l.get([]byte(pJob+id), &j) })
}

// Doc reads a document by id.
func (l *Log) Doc(id string) (*Doc, error) {
	var d Doc
	return &d, l.read(func() error { return l.get([]byte(pDoc+id), &d) })
}

// JobDocs reads a job's documents in upload order.
func (l *Log) JobDocs(j *Job) ([]*Doc, error) {
	out := make([]*Doc, 0, len(j.DocIDs))
	err := l.read(func() error {
		for _, id := range j.DocIDs {
			var d Doc
			if err := l.get([]byte(pDoc+id), &d); err != nil {
				return fmt.Errorf("document %s of job %s: %w", id, j.ID, err)
			}
			out = append(out, &d)
		}
		return nil
	})
	return out, err
}

// AccountJobs lists the ids of an account's jobs.
func (l *Log) AccountJobs(accountID string) ([]string, error) {
	var out []string
	p := pAcctJob + accountID + "/"
	err := l.scanPrefix(p, func(k, _ []byte) (bool, error) {
		out = append(out, string(k[len(p):]))
		return true, nil
	})
	return out, err
}

// Idem reads the idempotency record of (account, namespace, key).
func (l *Log) Idem(accountID, ns, key string) (*Idem, error) {
	var r Idem
	return &r, l.read(func() error { return l.get(idemKey(accountID, ns, key), &r) })
}

// Events reads a job's transition log in order.
func (l *Log) Events(jobID string) ([]*Event, error) {
	var out []*Event
	err := l.scanPrefix(pEvent+jobID+"/", func(_, v []byte) (bool, error) {
		var e Event
		if err := decode(v, &e); err != nil {
			return false, err
		}
		out = append(out, &e)
		return true, nil
	})
	return out, err
}

// ScanDocs calls fn for every document. fn must not call Log methods; it
// runs under the log's read lock.
func (l *Log) ScanDocs(fn func(*Doc) bool) error {
	return l.scanPrefix(pDoc, func(_, v []byte) (bool, error) {
		var d Doc
		if err := decode(v, &d); err != nil {
			return false, err
		}
		return fn(&d), nil
	})
}

// NextQueued returns the oldest ready-queue entry for which skip returns
// false (skip typically tests an in-memory "in flight" set; it must not
// call Log methods). ok is false when there is none.
func (l *Log) NextQueued(skip func(docID string) bool) (e QueueEntry, ok bool, err error) {
	err = l.scanPrefix(pQueue, func(k, v []byte) (bool, error) {
		q, err := parseQueueKey(k)
		if err != nil {
			return false, err
		}
		if skip != nil && skip(q.DocID) {
			return true, nil
		}
		parseQueueValue(&q, v)
		e, ok = q, true
		return false, nil
	})
	return e, ok, err
}

// Queue lists the whole ready queue in order.
func (l *Log) Queue() ([]QueueEntry, error) {
	var out []QueueEntry
	err := l.scanPrefix(pQueue, func(k, v []byte) (bool, error) {
		q, err := parseQueueKey(k)
		if err != nil {
			return false, err
		}
		parseQueueValue(&q, v)
		out = append(out, q)
		return true, nil
	})
	return out, err
}

func parseQueueKey(k []byte) (QueueEntry, error) {
	rest := k[len(pQueue):]
	if len(rest) < 9 {
		return QueueEntry{}, fmt.Errorf("joblog: corrupt queue key %q", k)
	}
	return QueueEntry{At: int64(binary.BigEndian.Uint64(rest)), DocID: string(rest[8:])}, nil
}

// parseQueueValue reads a queue entry's value (queueValue) into q: the
// job id, and the account id unless the entry predates it.
func parseQueueValue(q *QueueEntry, v []byte) {
	q.JobID, q.AccountID, _ = strings.Cut(string(v), "/")
}

// Expired lists the retention entries due at or before now, oldest first,
// at most limit of them (limit <= 0: all).
func (l *Log) Expired(now time.Time, limit int) ([]RetentionEntry, error) {
	var out []RetentionEntry
	lower := []byte(pRetention)
	hi := timeKey(pRetention, timeNS(now)+1, "")
	err := l.scan(lower, hi, func(k, _ []byte) (bool, error) {
		rest := k[len(pRetention):]
		if len(rest) < 9 {
			return false, fmt.Errorf("joblog: corrupt retention key %q", k)
		}
		ns := int64(binary.BigEndian.Uint64(rest))
		out = append(out, RetentionEntry{At: time.Unix(0, ns), JobID: string(rest[8:])})
		return limit <= 0 || len(out) < limit, nil
	})
	return out, err
}

// Count reports the number of keys under a named prefix ("queue", "job",
// "doc", ...); it serves metrics and tests.
func (l *Log) Count(kind string) (int, error) {
	p, ok := map[string]string{
		"account": pAccount, "key": pKey, "job": pJob, "doc": pDoc, "idem": pIdem,
		"event": pEvent, "queue": pQueue, "expire": pRetention, "hook": pHook, "review": pReview,
	}[kind]
	if !ok {
		return 0, fmt.Errorf("joblog: unknown kind %q", kind)
	}
	n := 0
	err := l.scanPrefix(p, func(_, _ []byte) (bool, error) { n++; return true, nil })
	return n, err
}

// AllKeys returns every key in the log; tests use it to check that a purge
// leaves nothing behind.
func (l *Log) AllKeys() ([]string, error) {
	var out []string
	err := l.scan(nil, nil, func(k, _ []byte) (bool, error) {
		out = append(out, string(bytes.Clone(k)))
		return true, nil
	})
	return out, err
}

// IsNotFound reports whether err is ErrNotFound.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// JobAndDocs reads a job and its documents from one snapshot, so the job's
// status always matches the documents returned with it.
func (l *Log) JobAndDocs(id string) (*Job, []*Doc, error) {
	var j Job
	var docs []*Doc
	err := l.read(func() error {
		snap := l.db.NewSnapshot()
		defer snap.Close()
		get := func(key []byte, v any) error { return snapGet(snap, key, v) }
		if err := get([]byte(pJob+id), &j); err != nil {
			return err
		}
		for _, did := range j.DocIDs {
			var d Doc
			if err := get([]byte(pDoc+did), &d); err != nil {
				return fmt.Errorf("document %s of job %s: %w", did, id, err)
			}
			docs = append(docs, &d)
		}
		return nil
	})
	return &j, docs, err
}

// snapGet decodes the record at key of snap into v; ErrNotFound when
// there is none.
func snapGet(snap *pebble.Snapshot, key []byte, v any) error {
	b, closer, err := snap.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("joblog: get: %w", err)
	}
	defer closer.Close()
	return decode(b, v)
}
