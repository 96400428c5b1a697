package jobs

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/internal/durable"
)

// jobFiles is where a job's files live, by job id and file name (see
// scratch.go for the names). There are two:
//
//   - diskFiles: one node; the files are the directory DATA/files/<job>
//     (or files-dir), exactly as before clusters existed;
//   - blobFiles: a cluster; the files are blobs of a store.Blobs (the
//     JetStream Object Store, or a directory every node mounts), so any
//     node reads what another wrote, and the local directory is only
//     this node's scratch.
//
// Both write through a node-local scratch directory first (spooled
// uploads, outputs being rendered), then make the sealed file the job's
// with place, before the record that points at it is committed. A file
// that is not there is an error matching fs.ErrNotExist in both.
type jobFiles interface {
	root() string
	jobDir(jobID string) string
	newDurable(dir string) (*durable.File, error)
	writeTemp(dir string, data []byte) (string, error)
	writeJSONTemp(jobID string, v any) (string, error)
	closeSynced(f *os.File) error

	// workDir is the job's scratch directory for temporary files. On
	// one node it exists while the job does (creating a file in it fails
	// with fs.ErrNotExist once the job was purged).
	workDir(jobID string) (string, error)
	// newJob makes room for a new job's files.
	newJob(jobID string) error
	// place makes sealed temporary files the job's files under their
	// names, durably. It may be repeated: a placement whose temporary
	// file is gone and whose name exists counts as done.
	place(ctx context.Context, jobID string, ps ...placement) error
	// stage does the slow part of a later place of the same placements
	// ahead of it, outside any lock: a blob store stores them (and place
	// then only finds them stored), once ready says they are still
	// wanted; its error is stage's. On one node it does nothing, not
	// even ready (place renames under the lock, which is the check).
	stage(ctx context.Context, jobID string, ready func() error, ps ...placement) error
	// ownScratch reports whether the files directory is this node's
	// alone (every node sweeps its own), not shared with other nodes.
	ownScratch() bool
	// sweepBlobs deletes blobs of jobs that gone says have no record,
	// stored more than grace ago, and the pieces of Puts that never
	// completed; on one node, or a store that cannot list, nothing.
	sweepBlobs(ctx context.Context, grace time.Duration, gone func(jobID string) (bool, error)) (orphans, partial int, err error)
	// write stores data as the job's file name, durably and atomically.
	write(ctx context.Context, jobID, name string, data []byte) error
	// appendTo adds data at the end of the job's file name, creating it.
	// Callers serialize appends to one file (the account lock).
	appendTo(ctx context.Context, jobID, name string, data []byte) error
	// open reads a file whole, with its size; read returns it.
	open(ctx context.Context, jobID, name string) (io.ReadCloser, int64, error)
	read(ctx context.Context, jobID, name string) ([]byte, error)
	exists(ctx context.Context, jobID, name string) (bool, error)
	// localCopy returns a path MuPDF can open holding the file; release
	// removes what localCopy made (a no-op on one node).
	localCopy(ctx context.Context, jobID, name string) (path string, release func(), err error)
	// remove deletes a file; a missing one is not an error.
	remove(ctx context.Context, jobID, name string) error
	// removeJob deletes every file of the job's documents.
	removeJob(ctx context.Context, jobID string, docIDs []string) error
}

// placement names a sealed temporary file and the name it takes.
type placement struct{ tmp, name string }

// fileOpTimeout bounds a file operation that runs after a commit, when no
// request's context is left (removing an original that is no longer
// needed; a purge that outlived its request).
const fileOpTimeout = time.Minute

// diskFiles keeps a job's files in its own directory under the scratch
// directory: the one-node layout.
type diskFiles struct{ scratch }

var _ jobFiles = diskFiles{}

func (s diskFiles) path(jobID, name string) string { return filepath.Join(s.dir, jobID, name) }

func (s diskFiles) workDir(jobID string) (string, error) { return s.jobDir(jobID), nil }

func (s diskFiles) newJob(jobID string) error {
	dir := s.jobDir(jobID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	if err := syncDir(s.dir); err != nil {
		os.RemoveAll(dir)
		return err
	}
	return nil
}

func (s diskFiles) place(_ context.Context, jobID string, ps ...placement) error {
	for _, p := range ps {
		if err := placeOnce(p.tmp, s.path(jobID, p.name)); err != nil {
			return err
		}
	}
	return syncDir(s.jobDir(jobID))
}

func (s diskFiles) stage(context.Context, string, func() error, ...placement) error { return nil }

func (s diskFiles) ownScratch() bool { return false }

func (s diskFiles) sweepBlobs(context.Context, time.Duration, func(string) (bool, error)) (int, int, error) {
	return 0, 0, nil
}

func (s diskFiles) write(_ context.Context, jobID, name string, data []byte) error {
	return durable.WriteFile(s.jobDir(jobID), name, data, s.sync)
}

func (s diskFiles) appendTo(_ context.Context, jobID, name string, data []byte) error {
	f, err := os.OpenFile(s.path(jobID, name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return s.closeSynced(f)
}

func (s diskFiles) open(_ context.Context, jobID, name string) (io.ReadCloser, int64, error) {
	f, err := os.Open(s.path(jobID, name))
	if err != nil {
		return nil, 0, err
	}
	return withSize(f)
}

// withSize returns f with its size, or closes it.
func withSize(f *os.File) (io.ReadCloser, int64, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

func (s diskFiles) read(_ context.Context, jobID, name string) ([]byte, error) {
	return os.ReadFile(s.path(jobID, name))
}

func (s diskFiles) exists(_ context.Context, jobID, name string) (bool, error) {
	_, err := os.Stat(s.path(jobID, name))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

func (s diskFiles) localCopy(_ context.Context, jobID, name string) (string, func(), error) {
	return s.path(jobID, name), func() {}, nil
}

func (s diskFiles) remove(_ context.Context, jobID, name string) error {
	if err := os.Remove(s.path(jobID, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (s diskFiles) removeJob(_ context.Context, jobID string, _ []string) error {
	err := os.RemoveAll(s.jobDir(jobID))
	syncDir(s.dir)
	return err
}

// blobFiles keeps a job's files as blobs "<job id>/<name>" of a shared
// store.Blobs; the scratch directory holds only this node's temporary
// files and copies.
type blobFiles struct {
	scratch
	blobs store.Blobs
}

var _ jobFiles = blobFiles{}

func blobKey(jobID, name string) string { return jobID + "/" + name }

// blobErr makes a blob store's not-found an fs.ErrNotExist, and any other
// failure a blobError: the shared store failing, which the engine treats
// like a full disk (the document is retried, the request gets a 503). A
// timeout is such a failure too (a store that does not answer in time);
// only a cancellation (the job deleted, the request gone) is passed on.
func blobErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	case errors.Is(err, context.Canceled):
		return err
	}
	return &blobError{err}
}

// blobError is a failure of the shared blob store; storageFailure counts
// it as one.
type blobError struct{ err error }

func (e *blobError) Error() string { return "engine: blob store: " + e.err.Error() }
func (e *blobError) Unwrap() error { return e.err }

func (s blobFiles) workDir(jobID string) (string, error) {
	dir := s.jobDir(jobID)
	return dir, os.MkdirAll(dir, 0o700)
}

func (s blobFiles) newJob(string) error { return nil }

func (s blobFiles) place(ctx context.Context, jobID string, ps ...placement) error {
	for _, p := range ps {
		if err := s.placeOne(ctx, jobID, p); err != nil {
			return err
		}
	}
	return nil
}

func (s blobFiles) stage(ctx context.Context, jobID string, ready func() error, ps ...placement) error {
	if err := ready(); err != nil {
		return err
	}
	return s.place(ctx, jobID, ps...)
}

func (s blobFiles) ownScratch() bool { return true }

func (s blobFiles) sweepBlobs(ctx context.Context, grace time.Duration, gone func(string) (bool, error)) (int, int, error) {
	sw, ok := s.blobs.(store.BlobSweeper)
	if !ok {
		return 0, 0, nil
	}
	cutoff := time.Now().Add(-grace) // the blob store's clock
	seen := map[string]bool{}        // job id → no record
	var orphans []string
	var lookupErr error
	err := sw.Keys(ctx, func(key string, stored time.Time) bool {
		job, _, ok := strings.Cut(key, "/")
		if !ok || stored.After(cutoff) {
			return true
		}
		g, known := seen[job]
		if !known {
			if g, lookupErr = gone(job); lookupErr != nil {
				return false
			}
			seen[job] = g
		}
		if g {
			orphans = append(orphans, key)
		}
		return true
	})
	if err = cmp.Or(err, lookupErr); err != nil {
		return 0, 0, err
	}
	for _, key := range orphans {
		if err := s.blobs.Delete(ctx, key); err != nil {
			return 0, 0, err
		}
	}
	partial, err := sw.SweepPartial(ctx, grace)
	return len(orphans), partial, err
}

func (s blobFiles) placeOne(ctx context.Context, jobID string, p placement) error {
	f, err := os.Open(p.tmp)
	if errors.Is(err, fs.ErrNotExist) {
		// An earlier try of the same placement stored it and removed
		// the temporary file.
		if _, serr := s.blobs.Stat(ctx, blobKey(jobID, p.name)); serr == nil {
			return nil
		}
		return err
	}
	if err != nil {
		return err
	}
	_, err = s.blobs.Put(ctx, blobKey(jobID, p.name), f)
	f.Close()
	if err != nil {
		return blobErr(err)
	}
	os.Remove(p.tmp)
	return nil
}

func (s blobFiles) write(ctx context.Context, jobID, name string, data []byte) error {
	_, err := s.blobs.Put(ctx, blobKey(jobID, name), bytes.NewReader(data))
	return blobErr(err)
}

func (s blobFiles) appendTo(ctx context.Context, jobID, name string, data []byte) error {
	old, err := s.read(ctx, jobID, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return s.write(ctx, jobID, name, append(old, data...))
}

// open copies the blob to a scratch file and reads that: a blob replaced
// while it is read (a review apply) cannot tear a download, and the size
// is the one of what is read.
func (s blobFiles) open(ctx context.Context, jobID, name string) (io.ReadCloser, int64, error) {
	path, release, err := s.localCopy(ctx, jobID, name)
	if err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	release() // the open file outlives its name
	if err != nil {
		return nil, 0, err
	}
	return withSize(f)
}

func (s blobFiles) read(ctx context.Context, jobID, name string) ([]byte, error) {
	r, err := s.blobs.Open(ctx, blobKey(jobID, name))
	if err != nil {
		return nil, blobErr(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return b, blobErr(err)
}

func (s blobFiles) exists(ctx context.Context, jobID, name string) (bool, error) {
	_, err := s.blobs.Stat(ctx, blobKey(jobID, name))
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, blobErr(err)
}

func (s blobFiles) localCopy(ctx context.Context, jobID, name string) (string, func(), error) {
	dir, err := s.workDir(jobID)
	if err != nil {
		return "", nil, err
	}
	r, err := s.blobs.Open(ctx, blobKey(jobID, name))
	if err != nil {
		return "", nil, blobErr(err)
	}
	defer r.Close()
	f, err := createTemp(dir)
	if err != nil {
		return "", nil, err
	}
	release := func() { os.Remove(f.Name()) }
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		release()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return "", nil, err // the scratch disk
		}
		return "", nil, blobErr(err)
	}
	return f.Name(), release, nil
}

func (s blobFiles) remove(ctx context.Context, jobID, name string) error {
	return blobErr(s.blobs.Delete(ctx, blobKey(jobID, name)))
}

func (s blobFiles) removeJob(ctx context.Context, jobID string, docIDs []string) error {
	os.RemoveAll(s.jobDir(jobID))
	for _, id := range docIDs {
		for _, suf := range docSuffixes {
			if err := s.remove(ctx, jobID, id+suf); err != nil {
				return err
			}
		}
	}
	return nil
}
