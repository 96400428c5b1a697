package storelog

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/record"
)

// bundle is a job's record: everything a state change of the job touches.
type bundle struct {
	Job    *record.Job     `json:"job"`
	Docs   []*record.Doc   `json:"docs"`
	Events []*record.Event `json:"events,omitempty"`
	Hook   *record.Hook    `json:"hook,omitempty"`
}

func jobKey(id string) string { return "job." + id }

// readBundle reads a job's record; every record in it carries the
// bundle's revision.
func (l *Log) readBundle(jobID string) (*bundle, error) {
	if !validToken(jobID) {
		return nil, fmt.Errorf("%w: job %q", record.ErrNotFound, jobID)
	}
	var b bundle
	rev, err := l.get(jobKey(jobID), &b)
	if err != nil {
		return nil, err
	}
	if b.Job == nil {
		return nil, fmt.Errorf("storelog: job %s: empty record", jobID)
	}
	b.Job.Rev = rev
	for _, d := range b.Docs {
		d.Rev = rev
	}
	return &b, nil
}

// validToken reports whether s can be one token of a Docs key (the
// contract's key rule, store.CheckDocKey, without the dot).
func validToken(s string) bool {
	return !strings.ContainsRune(s, '.') && store.CheckDocKey(s) == nil
}

// Account reads an account; PagesUsed is the ledger's figure.
func (l *Log) Account(id string) (*record.Account, error) {
	if !validToken(id) {
		return nil, fmt.Errorf("%w: account %q", record.ErrNotFound, id)
	}
	var a record.Account
	rev, err := l.get("acct."+id, &a)
	if err != nil {
		return nil, err
	}
	a.Rev = rev
	if err := l.open(); err != nil {
		return nil, err
	}
	c, cancel := ctx()
	defer cancel()
	if a.PagesUsed, err = l.s.Ledger.Used(c, id); err != nil {
		return nil, err
	}
	return &a, nil
}

// AccountByEmail reads the account registered under email.
func (l *Log) AccountByEmail(email string) (*record.Account, error) {
	id, err := l.getString(emailKey(email))
	if err != nil {
		return nil, err
	}
	return l.Account(id)
}

// Key reads an API key record.
func (l *Log) Key(id string) (*record.Key, error) {
	if !validToken(id) {
		return nil, fmt.Errorf("%w: key %q", record.ErrNotFound, id)
	}
	var k record.Key
	rev, err := l.get("key."+id, &k)
	if err != nil {
		return nil, err
	}
	k.Rev = rev
	return &k, nil
}

// KeyByHash reads the key whose SHA-256 is hash.
func (l *Log) KeyByHash(hash []byte) (*record.Key, error) {
	id, err := l.getString("khash." + hex.EncodeToString(hash))
	if err != nil {
		return nil, err
	}
	return l.Key(id)
}

// Keys reads every API key record.
func (l *Log) Keys() ([]*record.Key, error) {
	ks, err := l.keys("key.")
	if err != nil {
		return nil, err
	}
	var out []*record.Key
	for _, k := range ks {
		rec, err := l.Key(strings.TrimPrefix(k, "key."))
		if record.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	slices.SortFunc(out, func(a, b *record.Key) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, nil
}

// Job reads a job.
//
// It decodes the job alone, not the documents and events after it in
// the record, so that reading a job to check its owner costs about what
// a missing one does, however many documents it has (server:
// TestIsolationTiming).
func (l *Log) Job(id string) (*record.Job, error) {
	var j record.Job
	rev, err := l.readField(id, func(dec *json.Decoder, key string) (bool, error) {
		if key != "job" {
			return false, nil
		}
		return true, dec.Decode(&j)
	})
	if err != nil {
		return nil, err
	}
	if j.ID == "" {
		return nil, fmt.Errorf("storelog: job %s: empty record", id)
	}
	j.Rev = rev
	return &j, nil
}

// readField reads job jobID's record and hands its top-level fields, in
// order, to fn, which decodes the one it wants (done true) or leaves it
// (done false: it is skipped). Decoding stops at the field fn wants.
func (l *Log) readField(jobID string, fn func(dec *json.Decoder, key string) (done bool, err error)) (uint64, error) {
	if !validToken(jobID) {
		return 0, fmt.Errorf("%w: job %q", record.ErrNotFound, jobID)
	}
	if err := l.open(); err != nil {
		return 0, err
	}
	c, cancel := ctx()
	defer cancel()
	r, err := l.s.Docs.Get(c, jobKey(jobID))
	if err != nil {
		return 0, notFound(err)
	}
	dec := json.NewDecoder(bytes.NewReader(r.Value))
	bad := func(err error) (uint64, error) { return 0, fmt.Errorf("storelog: job %s: %w", jobID, err) }
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return bad(fmt.Errorf("not an object (%v)", err))
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		key, _ := t.(string)
		done, err := fn(dec, key)
		if err != nil {
			return bad(err)
		}
		if done {
			return r.Revision, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return bad(err)
		}
	}
	return r.Revision, nil
}

// Doc reads a document, through its index to its job. Of the job's
// record it decodes that document alone (see Job).
func (l *Log) Doc(id string) (*record.Doc, error) {
	if !validToken(id) {
		return nil, fmt.Errorf("%w: document %q", record.ErrNotFound, id)
	}
	jobID, err := l.getString("doc." + id)
	if err != nil {
		return nil, err
	}
	var d *record.Doc
	mark := []byte(`"id":` + strconv.Quote(id))
	rev, err := l.readField(jobID, func(dec *json.Decoder, key string) (bool, error) {
		if key != "docs" {
			return false, nil
		}
		if t, err := dec.Token(); err != nil || t == nil {
			return true, err // null: no documents
		}
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return true, err
			}
			if !bytes.Contains(raw, mark) {
				continue
			}
			var x record.Doc
			if err := json.Unmarshal(raw, &x); err != nil {
				return true, err
			}
			if x.ID == id {
				d = &x
				return true, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("%w: document %s", record.ErrNotFound, id)
	}
	d.Rev = rev
	return d, nil
}

// JobDocs reads the job's documents in the job's order.
func (l *Log) JobDocs(j *record.Job) ([]*record.Doc, error) {
	_, docs, err := l.JobAndDocs(j.ID)
	return docs, err
}

// JobAndDocs reads a job and its documents: one record, one moment.
func (l *Log) JobAndDocs(id string) (*record.Job, []*record.Doc, error) {
	b, err := l.readBundle(id)
	if err != nil {
		return nil, nil, err
	}
	return b.Job, ordered(b), nil
}

// ordered returns the bundle's documents in the job's DocIDs order.
func ordered(b *bundle) []*record.Doc {
	byID := make(map[string]*record.Doc, len(b.Docs))
	for _, d := range b.Docs {
		byID[d.ID] = d
	}
	docs := make([]*record.Doc, 0, len(b.Job.DocIDs))
	for _, id := range b.Job.DocIDs {
		if d := byID[id]; d != nil {
			docs = append(docs, d)
		}
	}
	return docs
}

// AccountJobs lists the ids of an account's jobs.
func (l *Log) AccountJobs(accountID string) ([]string, error) {
	if !validToken(accountID) {
		return nil, nil
	}
	ks, err := l.keys("ajob." + accountID + ".")
	if err != nil {
		return nil, err
	}
	for i, k := range ks {
		ks[i] = k[strings.LastIndexByte(k, '.')+1:]
	}
	slices.Sort(ks)
	return ks, nil
}

// Events reads a job's transition log.
func (l *Log) Events(jobID string) ([]*record.Event, error) {
	b, err := l.readBundle(jobID)
	if record.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return b.Events, nil
}

// Hook reads a job's pending webhook delivery.
func (l *Log) Hook(jobID string) (*record.Hook, error) {
	b, err := l.readBundle(jobID)
	if err != nil {
		return nil, err
	}
	if b.Hook == nil {
		return nil, fmt.Errorf("%w: hook %s", record.ErrNotFound, jobID)
	}
	return b.Hook, nil
}

// eachBundle calls fn for every job record until it returns false.
// It is for sweeps (janitor, recovery), not request paths.
func (l *Log) eachBundle(fn func(*bundle) bool) error {
	ks, err := l.keys("job.")
	if err != nil {
		return err
	}
	for _, k := range ks {
		b, err := l.readBundle(strings.TrimPrefix(k, "job."))
		if record.IsNotFound(err) {
			continue // purged meanwhile
		}
		if err != nil {
			return err
		}
		if !fn(b) {
			return nil
		}
	}
	return nil
}

// Hooks reads every pending webhook delivery.
func (l *Log) Hooks() ([]*record.Hook, error) {
	var out []*record.Hook
	err := l.eachBundle(func(b *bundle) bool {
		if b.Hook != nil {
			out = append(out, b.Hook)
		}
		return true
	})
	return out, err
}

// ScanDocs calls fn for every document.
func (l *Log) ScanDocs(fn func(*record.Doc) bool) error {
	stop := false
	return l.eachBundle(func(b *bundle) bool {
		for _, d := range ordered(b) {
			if !fn(d) {
				stop = true
				return false
			}
		}
		return !stop
	})
}

// Expired returns up to limit jobs whose retention ended by now,
// the oldest first.
func (l *Log) Expired(now time.Time, limit int) ([]record.RetentionEntry, error) {
	var out []record.RetentionEntry
	err := l.eachBundle(func(b *bundle) bool {
		if t := b.Job.ExpiresAt; !t.IsZero() && !t.After(now) {
			out = append(out, record.RetentionEntry{At: t, JobID: b.Job.ID})
		}
		return true
	})
	slices.SortFunc(out, func(a, b record.RetentionEntry) int { return a.At.Compare(b.At) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, err
}

// Count counts records of a kind: "queue" (documents waiting or in
// flight, cluster-wide), "expire" (jobs with a retention time), or a key
// prefix such as "job" or "doc".
func (l *Log) Count(kind string) (int, error) {
	switch kind {
	case "queue":
		n := 0
		err := l.ScanDocs(func(d *record.Doc) bool {
			if d.QueuedAt != 0 {
				n++
			}
			return true
		})
		return n, err
	case "expire":
		n := 0
		err := l.eachBundle(func(b *bundle) bool {
			if !b.Job.ExpiresAt.IsZero() {
				n++
			}
			return true
		})
		return n, err
	}
	ks, err := l.keys(kind + ".")
	return len(ks), err
}

// AllKeys lists every record key.
func (l *Log) AllKeys() ([]string, error) { return l.keys("") }

// maxListScan bounds the index entries one listing call reads, as the
// job log's: a status filter that matches nothing in a large account
// still answers, the page ending early with a cursor to go on from.
const maxListScan = 5000

// ListJobs returns a page of an account's jobs, newest first. A position
// is record.ListCursorLen bytes: creation time (8 bytes, big-endian unix
// ns) and job id, as the job log's. It pages through the account's
// listing index (listKey) from the position on, so one call reads the
// index entries and jobs of one page (limit, plus one entry to tell
// whether more remain, plus what a status filter skips, at most
// maxListScan), whatever the number of the account's jobs.
func (l *Log) ListJobs(accountID string, before []byte, limit int, status string) ([]record.ListedJob, []byte, error) {
	if before != nil && len(before) != record.ListCursorLen {
		return nil, nil, errors.New("storelog: bad listing position")
	}
	if !validToken(accountID) || limit < 1 {
		return nil, nil, nil
	}
	if err := l.open(); err != nil {
		return nil, nil, err
	}
	prefix := listPrefix(accountID)
	after := ""
	if before != nil {
		after = listKey(accountID, int64(binary.BigEndian.Uint64(before[:8])), string(before[8:]))
	}
	var jobs []record.ListedJob
	var next []byte
	scanned := 0
	for {
		// One entry more than the page can take: whether any remains.
		want := min(limit-len(jobs), maxListScan-scanned) + 1
		c, cancel := ctx()
		keys, err := l.s.Docs.KeysAfter(c, prefix, after, want)
		cancel()
		if err != nil {
			return nil, nil, err
		}
		for _, k := range keys {
			if len(jobs) == limit || scanned == maxListScan {
				return jobs, next, nil // more remain: next is the last position read
			}
			scanned++
			pos, id, ok := listPosition(k[len(prefix):])
			if !ok {
				return nil, nil, fmt.Errorf("storelog: corrupt listing key %q", k)
			}
			next, after = pos, k
			j, docs, err := l.JobAndDocs(id)
			if record.IsNotFound(err) {
				continue // purged meanwhile, or a crash left the entry
			}
			if err != nil {
				return nil, nil, err
			}
			if status != "" && j.Status != status {
				continue
			}
			jobs = append(jobs, record.ListedJob{Job: j, Docs: docs})
		}
		if len(keys) < want {
			return jobs, nil, nil // the index is exhausted
		}
	}
}

// listPrefix is the prefix of an account's listing index.
func listPrefix(accountID string) string { return "ajobt." + accountID + "." }

// listKey is a job's entry in its account's listing index:
//
//	ajobt.<account>.<^created ns, 20 digits>.<job id, hex digits inverted>.<job id>
//
// Keys ascend as (creation time, job id) descend, so a KeysAfter from a
// position lists the jobs after it newest first, in the job log's order
// (ties in time by id, descending). The plain id ends the key.
func listKey(accountID string, ns int64, jobID string) string {
	return fmt.Sprintf("%s%020d.%s.%s", listPrefix(accountID), ^uint64(ns), invertHex(jobID), jobID)
}

// listPosition reads a listing key's part after the account's prefix
// back into a position (creation time and job id) and the job id.
func listPosition(rest string) (pos []byte, jobID string, ok bool) {
	inv, rest, ok1 := strings.Cut(rest, ".")
	_, id, ok2 := strings.Cut(rest, ".")
	n, err := strconv.ParseUint(inv, 10, 64)
	if !ok1 || !ok2 || err != nil || len(inv) != 20 || len(id)+8 != record.ListCursorLen {
		return nil, "", false
	}
	return cursor(int64(^n), id), id, true
}

// invertHex maps each hex digit d of s to 15-d (lower case), so that
// ascending order of the result is descending order of s; other bytes
// stay.
func invertHex(s string) string {
	const digits = "0123456789abcdef"
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			b[i] = digits[15-(c-'0')]
		case c >= 'a' && c <= 'f':
			b[i] = digits[15-(c-'a'+10)]
		case c >= 'A' && c <= 'F':
			b[i] = digits[15-(c-'A'+10)]
		}
	}
	return string(b)
}

func cursor(ns int64, id string) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(ns))
	return append(b, id...)
}
