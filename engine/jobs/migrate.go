package jobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/redactd/redactd/engine/store/joblog"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/storelog"
)

// The move of a one-node data directory from the job log (DATA/joblog,
// engine/store/joblog) to the record store on pebble (DATA/store: engine/store/storelog
// over engine/store/pebblestore), the store a cluster node runs on.
// openRecords runs it at every start of a single node, before it opens
// DATA/store (records.go).
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
// holds goes to DATA/upload-secret first, unless the job log was
// readable by others (exposed, as found before Open tightened the data
// directory: jobLogExposed), when the engine then makes a new one; the
// secret files stay where they are.
func migrateJobLog(data string, log *slog.Logger, exposed bool) (bool, error) {
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
	l, err := joblog.Open(jl, joblog.Options{Logger: log})
	if err != nil {
		return false, err
	}
	n, err := copyJobLog(data, l, tmp, exposed, log)
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
func copyJobLog(data string, l *joblog.Log, dir string, exposed bool, log *slog.Logger) (joblog.Copied, error) {
	if err := moveLegacySecret(data, l, exposed, log); err != nil {
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
// release holds to DATA/upload-secret (unless the file exists, or the
// job log was exposed: the engine then makes a new one), and deletes it
// from the job log's files, which are kept (DATA/joblog.migrated).
func moveLegacySecret(data string, l *joblog.Log, exposed bool, log *slog.Logger) error {
	secret, ok, err := l.LegacyUploadSecret()
	if err != nil || !ok {
		return err
	}
	path := filepath.Join(data, uploadSecretFile)
	switch _, err := os.Stat(path); {
	case err == nil:
	case !errors.Is(err, fs.ErrNotExist):
		return err
	case exposed:
		log.Warn("upload secret replaced: the job log holding it was readable by other users; upload URLs issued before this start no longer work")
	default:
		if err := writeSecret(data, uploadSecretFile, secret); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		log.Info("upload secret moved out of the job log", "file", path)
	}
	return l.DropLegacyUploadSecret()
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
