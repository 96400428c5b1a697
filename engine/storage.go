package engine

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/redactd/redactd/engine/imagein"
)

// Files live under DATA/files/<job id>/, one directory per job so that a
// purge is one RemoveAll:
//
//	<doc id>.orig         the original upload
//	<doc id>.pdf          the redacted output
//	<doc id>.masks.json   studio jobs: the masks (engine.Mask list)
//	<doc id>.report.json  redacted documents: the Report (counts, no text)
//	.tmp-*                files being written; renamed into place once synced
//
// A file becomes visible under its final name only after fsync + rename,
// and the record that points at it is committed only after the directory
// is synced too, so the job log never refers to a half-written file.

const tmpPrefix = ".tmp-"

// storage is the engine's local file store: where a document's files
// live and the one way they are written (durable). The job log says
// which files exist; storage only holds them.
type storage struct {
	dir  string               // DATA/files
	sync func(*os.File) error // fsync; injectable so tests can fail it
}

func (s storage) jobDir(jobID string) string { return filepath.Join(s.dir, jobID) }

func (s storage) origPath(jobID, docID string) string {
	return filepath.Join(s.dir, jobID, docID+".orig")
}

func (s storage) outPath(jobID, docID string) string {
	return filepath.Join(s.dir, jobID, docID+".pdf")
}

func (s storage) masksPath(jobID, docID string) string {
	return filepath.Join(s.dir, jobID, docID+".masks.json")
}

func (s storage) reportPath(jobID, docID string) string {
	return filepath.Join(s.dir, jobID, docID+".report.json")
}

// createTemp opens a new temporary file in dir.
func createTemp(dir string) (*os.File, error) { return os.CreateTemp(dir, tmpPrefix+"*") }

// durable is the one way the engine writes a file that must survive a
// crash: a temporary file in the destination's directory is filled, then
// sealed (fsync + close), then either kept under its temporary name for a
// later rename (the outputs a commit publishes) or renamed into place at
// once (place). Every failure removes the temporary file. The caller
// syncs the directory once after its last rename (syncDir).
type durable struct {
	f    *os.File
	sync func(*os.File) error
}

// newDurable opens a temporary file in dir, synced with the store's
// fsync.
func (s storage) newDurable(dir string) (*durable, error) {
	return openDurable(dir, s.sync)
}

func openDurable(dir string, sync func(*os.File) error) (*durable, error) {
	f, err := createTemp(dir)
	if err != nil {
		return nil, err
	}
	return &durable{f: f, sync: sync}, nil
}

func (d *durable) Write(p []byte) (int, error) { return d.f.Write(p) }

// Name is the temporary file's path.
func (d *durable) Name() string { return d.f.Name() }

// abort closes and removes the temporary file.
func (d *durable) abort() {
	d.f.Close()
	os.Remove(d.f.Name())
}

// seal flushes the file to stable storage and closes it; on failure the
// file is removed.
func (d *durable) seal() error {
	err := d.sealKeep()
	if err != nil {
		os.Remove(d.f.Name())
	}
	return err
}

// place seals the file and renames it to dir/name.
func (d *durable) place(name string) error {
	if err := d.seal(); err != nil {
		return err
	}
	if err := os.Rename(d.f.Name(), filepath.Join(filepath.Dir(d.f.Name()), name)); err != nil {
		os.Remove(d.f.Name())
		return err
	}
	return nil
}

// writeTemp writes data to a sealed temporary file in dir and returns its
// path, for a commit to rename into place later.
func (s storage) writeTemp(dir string, data []byte) (string, error) {
	d, err := s.newDurable(dir)
	if err != nil {
		return "", err
	}
	if _, err := d.Write(data); err != nil {
		d.abort()
		return "", err
	}
	if err := d.seal(); err != nil {
		return "", err
	}
	return d.Name(), nil
}

// closeSynced flushes f to stable storage and closes it. It is for files
// the engine did not create through durable (a processor's output).
func (s storage) closeSynced(f *os.File) error {
	return (&durable{f: f, sync: s.sync}).sealKeep()
}

// sealKeep is seal without removing the file on failure: its owner decides.
func (d *durable) sealKeep() error {
	err := d.sync(d.f)
	if cerr := d.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFileAtomic writes data to dir/name durably. The caller syncs dir
// once after its last rename.
func (s storage) writeFileAtomic(dir, name string, data []byte) error {
	d, err := s.newDurable(dir)
	if err != nil {
		return err
	}
	if _, err := d.Write(data); err != nil {
		d.abort()
		return err
	}
	return d.place(name)
}

// syncDir makes renames and creations inside dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// removeIfEmpty removes a job directory that a purge could not remove
// because a worker still had a temporary file in it.
func removeIfEmpty(dir string) { os.Remove(dir) }

// storageError turns a file-system or log failure on a request path into
// the caller-facing error: ErrUnavailable (503), never a path or errno.
// Full, read-only or otherwise failing storage cannot be fixed by the
// caller, and the request left nothing behind.
func storageError(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return errorf(ErrUnavailable, "", "storage is full")
	case errors.Is(err, syscall.EROFS):
		return errorf(ErrUnavailable, "", "storage is read-only")
	default:
		return errorf(ErrUnavailable, "", "storage error")
	}
}

// sniff identifies a file from its content with the same rules the
// pipeline uses (imagein.Sniff), so what is accepted here is what gets
// processed: PDF, PNG, JPEG, TIFF, GIF, BMP, WebP.
func sniff(b []byte) (string, bool) {
	k, err := imagein.Sniff(b)
	if err != nil {
		return "", false
	}
	return k.String(), true
}

// removeTemps deletes leftover temporary files in a job directory (crash
// leftovers; run at startup only, when no writer can be active).
func removeTemps(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, ent := range ents {
		if strings.HasPrefix(ent.Name(), tmpPrefix) {
			if err := os.Remove(filepath.Join(dir, ent.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// writeJSONTemp writes v as JSON to a sealed temporary file in the job's
// directory, for publish to rename beside the output.
func (s storage) writeJSONTemp(jobID string, v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return s.writeTemp(s.jobDir(jobID), data)
}

// publish renames a finished document's sealed temporary files (the
// output, and the masks and report when given) into place and syncs the
// job's directory. It may be repeated: a transition retried after a
// lost race (a shared store) publishes again, and a temporary file
// already moved into place counts as published.
func (s storage) publish(jobID, docID, out, masks, report string) error {
	if err := placeOnce(out, s.outPath(jobID, docID)); err != nil {
		return err
	}
	if masks != "" {
		if err := placeOnce(masks, s.masksPath(jobID, docID)); err != nil {
			return err
		}
	}
	if report != "" {
		if err := placeOnce(report, s.reportPath(jobID, docID)); err != nil {
			return err
		}
	}
	return syncDir(s.jobDir(jobID))
}

// placeOnce renames tmp to name, unless tmp is gone and name exists (an
// earlier try of the same publish moved it).
func placeOnce(tmp, name string) error {
	err := os.Rename(tmp, name)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(tmp); errors.Is(serr, fs.ErrNotExist) {
			if _, nerr := os.Stat(name); nerr == nil {
				return nil
			}
		}
	}
	return err
}
