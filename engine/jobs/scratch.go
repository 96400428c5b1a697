package jobs

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/internal/durable"
)

// Files live under DATA/files/<job id>/, one directory per job so that a
// purge is one RemoveAll (diskFiles, the one-node default), or in a blob
// store under "<job id>/<name>" (blobFiles, a cluster). Either way a
// document's files are named by its id:
//
//	<doc id>.orig         the original upload
//	<doc id>.pdf          the redacted output
//	<doc id>.masks.json   studio jobs: the masks (jobs.Mask list)
//	<doc id>.report.json  redacted documents: the Report (counts, no text)
//	<doc id>.review.json, .words.json, .audit.jsonl: studio review files
//	.tmp-*                files being written; renamed into place once synced
//
// A file becomes visible under its final name only after fsync + rename
// (or an atomic blob Put), and the record that points at it is committed
// only after that, so the job log never refers to a half-written file.

// tmpPrefix starts every temporary file's name (internal/durable's).
const tmpPrefix = durable.TempPrefix

// The names of a document's files.
const (
	sufOrig   = ".orig"
	sufOut    = ".pdf"
	sufMasks  = ".masks.json"
	sufReport = ".report.json"
	sufReview = ".review.json"
	sufWords  = ".words.json"
	sufAudit  = ".audit.jsonl"
)

// docSuffixes are every file a document may have, for a purge that must
// name what it deletes (a blob store has no directory to remove).
var docSuffixes = []string{sufOrig, sufOut, sufMasks, sufReport, sufReview, sufWords, sufAudit}

// scratch is a node's local working directory: spooled uploads, outputs
// being written, copies of blobs for MuPDF. On one node it is also where
// the files live (diskFiles); in a cluster it holds nothing another node
// needs. Every file that must survive a crash is written through
// internal/durable (temporary file, fsync, rename, directory fsync), the
// one durable writer the directory blob store uses too.
type scratch struct {
	dir  string               // DATA/files
	sync func(*os.File) error // fsync; injectable so tests can fail it
}

// root is the scratch directory itself.
func (s scratch) root() string { return s.dir }

func (s scratch) jobDir(jobID string) string { return filepath.Join(s.dir, jobID) }

// createTemp opens a new temporary file in dir.
func createTemp(dir string) (*os.File, error) { return os.CreateTemp(dir, tmpPrefix+"*") }

// newDurable opens a temporary file in dir, synced with the store's
// fsync, for the caller to fill and then seal (kept under its temporary
// name for a later place) or abort.
func (s scratch) newDurable(dir string) (*durable.File, error) {
	return durable.Create(dir, s.sync)
}

// writeTemp writes data to a sealed temporary file in dir and returns its
// path, for a commit to rename into place later.
func (s scratch) writeTemp(dir string, data []byte) (string, error) {
	d, err := s.newDurable(dir)
	if err != nil {
		return "", err
	}
	if _, err := d.Write(data); err != nil {
		d.Abort()
		return "", err
	}
	if err := d.Seal(); err != nil {
		return "", err
	}
	return d.Name(), nil
}

// closeSynced flushes f to stable storage and closes it. It is for files
// the engine did not create through durable (a processor's output).
func (s scratch) closeSynced(f *os.File) error {
	return durable.SyncClose(f, s.sync)
}

// syncDir makes renames and creations inside dir durable.
func syncDir(dir string) error { return durable.SyncDir(dir) }

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
	case errors.Is(err, store.ErrUnavailable):
		return errorf(ErrUnavailable, "", "storage temporarily unavailable")
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
func (s scratch) writeJSONTemp(jobID string, v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return s.writeTemp(s.jobDir(jobID), data)
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
