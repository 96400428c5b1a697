package jobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/redactd/redactd/engine/joblog"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/storelog"
)

// The move of a one-node data directory from the job log (DATA/joblog,
// engine/joblog) to the record store on pebble (DATA/store: engine/storelog
// over engine/store/pebblestore), the store a cluster node runs on.
// Nothing calls it yet: the single-node default is still the job log
// (records.go) until the switch lands with its measurements.
const (
	jobLogDir   = "joblog"
	storeDir    = "store"
	storeTmpDir = "store.tmp"
	// jobLogKept is the job log once copied: kept, unread, for a return
	// to the previous release; removed by hand.
	jobLogKept = "joblog.migrated"
)

// migrateJobLog copies DATA/joblog into a new DATA/store, once, and
// reports whether it did. The copy is made in DATA/store.tmp and renamed
// into place when complete, so DATA/store is the mark that it is done: a
// crash before the rename leaves a DATA/store.tmp that the next start
// removes and copies again; a crash after it, the job log still in
// place, which the next start only renames to DATA/joblog.migrated. A
// data directory without a job log (a new one) has nothing to move.
//
// The upload secret that a job log of a release before 2026-11 still
// holds goes to DATA/upload-secret first (unless the job log was
// readable by others: the engine then makes a new one, as on the job
// log); the secret files stay where they are.
func migrateJobLog(data string, log *slog.Logger) (bool, error) {
	jl := filepath.Join(data, jobLogDir)
	st := filepath.Join(data, storeDir)
	tmp := filepath.Join(data, storeTmpDir)
	if _, err := os.Stat(st); err == nil {
		return false, keepJobLog(data)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if _, err := os.Stat(jl); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if err := os.RemoveAll(tmp); err != nil {
		return false, fmt.Errorf("engine: removing a partial copy: %w", err)
	}
	exposed := jobLogExposed(data)
	l, err := joblog.Open(jl, joblog.Options{Logger: log})
	if err != nil {
		return false, err
	}
	n, err := copyJobLog(data, l, tmp, exposed)
	if cerr := l.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, err
	}
	if err := os.Rename(tmp, st); err != nil {
		return false, err
	}
	if err := syncDir(data); err != nil {
		return false, err
	}
	log.Info("engine: job log copied to the record store", "from", jl, "to", st,
		"accounts", n.Accounts, "keys", n.Keys, "jobs", n.Jobs, "documents", n.Docs, "queued", n.Queued, "review_grants", n.Grants)
	return true, keepJobLog(data)
}

// copyJobLog moves a legacy upload secret to its file and copies the
// job log into a new record store at dir.
func copyJobLog(data string, l *joblog.Log, dir string, exposed bool) (joblog.Copied, error) {
	if err := moveLegacySecret(data, l, exposed); err != nil {
		return joblog.Copied{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return joblog.Copied{}, err
	}
	ps, err := pebblestore.Open(dir, pebblestore.Options{})
	if err != nil {
		return joblog.Copied{}, err
	}
	sl, err := storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{Close: ps.Close})
	if err != nil {
		ps.Close()
		return joblog.Copied{}, err
	}
	n, err := l.CopyTo(sl)
	if cerr := sl.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("engine: copying the job log: %w", err)
	}
	return n, syncDir(dir)
}

// moveLegacySecret writes the upload secret a job log of an earlier
// release holds to DATA/upload-secret, unless the file exists or the job
// log was exposed.
func moveLegacySecret(data string, l *joblog.Log, exposed bool) error {
	if _, err := os.Stat(filepath.Join(data, uploadSecretFile)); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	secret, ok, err := l.LegacyUploadSecret()
	if err != nil || !ok || exposed {
		return err
	}
	return writeSecret(data, uploadSecretFile, secret)
}

// keepJobLog renames a copied job log out of the way.
func keepJobLog(data string) error {
	err := os.Rename(filepath.Join(data, jobLogDir), filepath.Join(data, jobLogKept))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return syncDir(data)
}
