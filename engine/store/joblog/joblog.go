// Package joblog is redactd's durable job log: accounts, API keys, jobs,
// documents, idempotency records, the per-job transition log, the ready
// queue and the retention index, all in one pebble key space.
//
// The package stores and indexes records; it makes no decisions. The
// engine composes every state change into one Batch (document state, job
// state, queue entry and event together) and commits it, synced when a
// client will be told about the change, so a crash leaves either all of a
// change or none of it.
//
// Key layout (IDs are UUIDs, so "/" never occurs inside them; free-form
// parts such as e-mail addresses and idempotency keys are always last):
//
//	meta/schema                         schema version, decimal ("1")
//	meta/upload-secret                  releases before 2026-11 kept the upload-signing
//	                                    secret here; the engine moves it into its own
//	                                    0600 file (LegacyUploadSecret, DropLegacyUploadSecret)
//	acct/<account>                      Account
//	email/<email>                       account id
//	key/<key id>                        Key (hash only; keys are never stored)
//	keyhash/<sha256 of key>             key id
//	job/<job>                           Job
//	acctjob/<account>/<job>             empty: the account's jobs
//	acctjobt/<account>/<ns, 8 bytes BE><job>  empty: the same by creation time (v2)
//	doc/<doc>                           Doc
//	idem/<account>/<namespace>/<key>    Idem
//	event/<job>/<seq, 8 bytes BE>       Event
//	queue/<unix ns, 8 bytes BE><doc>    QueueEntry value (<job>/<account>; the job id
//	                                    alone in an entry written before 2026-11)
//	expire/<unix ns, 8 bytes BE><job>   empty: retention index
//	hook/<job>                          Hook: pending webhook delivery
//	review/<kind>/<sha256 of token>     ReviewGrant: review link or editor session
//
// Values are JSON records carrying a version field "v"; a record written by
// a newer binary is refused rather than misread.
package joblog

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/internal/privatefs"
)

// SchemaVersion is the key-space layout this binary reads and writes.
//
//  1. the first layout
//  2. acctjobt/: an account's jobs by creation time, for listing
const SchemaVersion = 2

// recordVersion is the version written into every record's "v" field.
const recordVersion = 1

var (
	// ErrNotFound reports a missing record.
	ErrNotFound = record.ErrNotFound
	// ErrClosed reports use of a closed Log.
	ErrClosed = record.ErrClosed
)

const (
	keySchema  = "meta/schema"
	keySecret  = "meta/upload-secret"
	pAccount   = "acct/"
	pEmail     = "email/"
	pKey       = "key/"
	pKeyHash   = "keyhash/"
	pJob       = "job/"
	pAcctJob   = "acctjob/"
	pDoc       = "doc/"
	pIdem      = "idem/"
	pEvent     = "event/"
	pQueue     = "queue/"
	pRetention = "expire/"
)

// Migration upgrades the key space from version From to From+1. Apply adds
// its changes to b; Open commits b together with the new version number, so
// a migration is all-or-nothing.
type Migration struct {
	From  int
	Apply func(db *pebble.DB, b *pebble.Batch) error
}

// migrations lists the built-in upgrades, one per layout change.
var migrations = []Migration{
	{From: 1, Apply: migrateListingIndex},
}

// Options configure Open. The zero value is the production setting.
type Options struct {
	// Logger receives pebble's messages (info as debug). Nil discards them.
	Logger *slog.Logger
	// Version is the schema version to open at; 0 means SchemaVersion.
	// Tests use it with Migrations to exercise upgrades.
	Version int
	// Migrations replaces the built-in migrations when non-nil.
	Migrations []Migration
}

// Log is an open job log. Its methods are safe for concurrent use; callers
// serialize read-modify-write sequences themselves (the engine locks per
// account).
type Log struct {
	mu     sync.RWMutex // write-held only by Close
	closed bool
	db     *pebble.DB
	// reviewMu makes a review grant's read, compare and write one step
	// (review.go).
	reviewMu sync.Mutex
}

// Open opens or creates the job log in dir, checks the schema version
// (refusing a newer one) and runs migrations. Every file and directory it
// creates is private to the owner (internal/privatefs).
func Open(dir string, o Options) (*Log, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Version == 0 {
		o.Version = SchemaVersion
	}
	if o.Migrations == nil {
		o.Migrations = migrations
	}
	db, err := pebble.Open(dir, &pebble.Options{Logger: pebbleLogger{o.Logger}, FS: privatefs.Default})
	if err != nil {
		return nil, fmt.Errorf("joblog: open %s: %w", dir, err)
	}
	l := &Log{db: db}
	if err := l.checkSchema(o.Version, o.Migrations); err != nil {
		db.Close()
		return nil, err
	}
	return l, nil
}

// Close closes the database. Later calls return ErrClosed.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if err := l.db.Close(); err != nil {
		return fmt.Errorf("joblog: close: %w", err)
	}
	return nil
}

// SchemaVersionOf reports the stored schema version (for diagnostics).
func (l *Log) SchemaVersionOf() (int, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return 0, ErrClosed
	}
	return l.storedVersion()
}

func (l *Log) storedVersion() (int, error) {
	v, closer, err := l.db.Get([]byte(keySchema))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("joblog: read schema version: %w", err)
	}
	defer closer.Close()
	n, err := strconv.Atoi(string(v))
	if err != nil {
		return 0, fmt.Errorf("joblog: bad schema version %q", v)
	}
	return n, nil
}

func (l *Log) checkSchema(target int, migs []Migration) error {
	cur, err := l.storedVersion()
	if errors.Is(err, ErrNotFound) {
		empty, err := l.empty()
		if err != nil {
			return err
		}
		if !empty {
			return errors.New("joblog: database has data but no schema version; refusing to guess its layout")
		}
		return l.db.Set([]byte(keySchema), []byte(strconv.Itoa(target)), pebble.Sync)
	}
	if err != nil {
		return err
	}
	if cur > target {
		return fmt.Errorf("joblog: schema version %d is newer than this binary supports (%d); run a newer redactd", cur, target)
	}
	for cur < target {
		var m *Migration
		for i := range migs {
			if migs[i].From == cur {
				m = &migs[i]
			}
		}
		if m == nil {
			return fmt.Errorf("joblog: no migration from schema version %d", cur)
		}
		b := l.db.NewBatch()
		if err := m.Apply(l.db, b); err != nil {
			b.Close()
			return fmt.Errorf("joblog: migrate %d to %d: %w", cur, cur+1, err)
		}
		b.Set([]byte(keySchema), []byte(strconv.Itoa(cur+1)), nil)
		if err := b.Commit(pebble.Sync); err != nil {
			b.Close()
			return fmt.Errorf("joblog: migrate %d to %d: %w", cur, cur+1, err)
		}
		b.Close()
		cur++
	}
	return nil
}

func (l *Log) empty() (bool, error) {
	it, err := l.db.NewIter(nil)
	if err != nil {
		return false, err
	}
	defer it.Close()
	return !it.First(), it.Error()
}

// LegacyUploadSecret returns the upload-signing secret that releases
// before 2026-11 kept in the job log, where anyone who could read the
// job log's files could read it; ok is false when there is none.
func (l *Log) LegacyUploadSecret() (secret []byte, ok bool, err error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return nil, false, ErrClosed
	}
	v, closer, err := l.db.Get([]byte(keySecret))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("joblog: read upload secret: %w", err)
	}
	defer closer.Close()
	if len(v) != 32 {
		return nil, false, errors.New("joblog: upload secret has the wrong length")
	}
	return bytes.Clone(v), true, nil
}

// DropLegacyUploadSecret deletes the legacy upload secret and rewrites
// the files that held it: the memtable is flushed (so the write-ahead log
// that recorded it is retired) and the key's range compacted (so no table
// keeps the value under the deletion).
func (l *Log) DropLegacyUploadSecret() error {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return ErrClosed
	}
	k := []byte(keySecret)
	if err := l.db.Delete(k, pebble.Sync); err != nil {
		return fmt.Errorf("joblog: delete upload secret: %w", err)
	}
	if err := l.db.Flush(); err != nil {
		return fmt.Errorf("joblog: flush: %w", err)
	}
	if err := l.db.Compact(k, append(bytes.Clone(k), 0), true); err != nil {
		return fmt.Errorf("joblog: compact: %w", err)
	}
	return nil
}

// pebbleLogger sends pebble's messages to slog.
type pebbleLogger struct{ l *slog.Logger }

func (p pebbleLogger) Infof(format string, args ...any) {
	p.l.Debug(fmt.Sprintf(format, args...), "component", "pebble")
}

func (p pebbleLogger) Fatalf(format string, args ...any) {
	p.l.Error(fmt.Sprintf(format, args...), "component", "pebble")
	os.Exit(1)
}

// Key construction.

func timeKey(prefix string, ns int64, id string) []byte {
	k := make([]byte, 0, len(prefix)+8+len(id))
	k = append(k, prefix...)
	k = binary.BigEndian.AppendUint64(k, uint64(ns))
	return append(k, id...)
}

func eventKey(jobID string, seq uint64) []byte {
	k := []byte(pEvent + jobID + "/")
	return binary.BigEndian.AppendUint64(k, seq)
}

func idemKey(accountID, ns, key string) []byte {
	return []byte(pIdem + accountID + "/" + ns + "/" + key)
}

// upper returns the smallest key greater than every key with prefix p.
func upper(p []byte) []byte {
	u := bytes.Clone(p)
	for i := len(u) - 1; i >= 0; i-- {
		if u[i] < 0xff {
			u[i]++
			return u[:i+1]
		}
	}
	return nil
}

// Record encoding.

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Records are plain structs of strings, numbers and times.
		panic(fmt.Sprintf("joblog: encode %T: %v", v, err))
	}
	return b
}

type versioned struct {
	V int `json:"v"`
}

func decode(b []byte, v any) error {
	var h versioned
	if err := json.Unmarshal(b, &h); err != nil {
		return fmt.Errorf("joblog: corrupt record: %w", err)
	}
	if h.V > recordVersion {
		return fmt.Errorf("joblog: record version %d is newer than supported (%d)", h.V, recordVersion)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("joblog: corrupt record: %w", err)
	}
	return nil
}

// get reads and decodes one record; the caller holds l.mu.
func (l *Log) get(key []byte, v any) error {
	b, closer, err := l.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("joblog: get: %w", err)
	}
	defer closer.Close()
	return decode(b, v)
}

func (l *Log) getRaw(key []byte) ([]byte, error) {
	b, closer, err := l.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("joblog: get: %w", err)
	}
	defer closer.Close()
	return bytes.Clone(b), nil
}

// read runs fn under the read lock.
func (l *Log) read(fn func() error) error {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return ErrClosed
	}
	return fn()
}

// scan calls fn for every key with prefix, in order, under the read lock.
// fn must not call other Log methods. Returning false stops the scan.
func (l *Log) scan(lower, upperBound []byte, fn func(k, v []byte) (bool, error)) error {
	return l.read(func() error {
		it, err := l.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upperBound})
		if err != nil {
			return fmt.Errorf("joblog: iterate: %w", err)
		}
		for ok := it.First(); ok; ok = it.Next() {
			more, err := fn(it.Key(), it.Value())
			if err != nil {
				it.Close()
				return err
			}
			if !more {
				break
			}
		}
		if err := it.Error(); err != nil {
			it.Close()
			return fmt.Errorf("joblog: iterate: %w", err)
		}
		return it.Close()
	})
}

func (l *Log) scanPrefix(prefix string, fn func(k, v []byte) (bool, error)) error {
	p := []byte(prefix)
	return l.scan(p, upper(p), fn)
}

// timeNS converts a time to the key encoding (unix nanoseconds).
func timeNS(t time.Time) int64 { return t.UnixNano() }
