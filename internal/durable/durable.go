// Package durable is the one way redactd writes a file that must survive
// a crash: the job service's files (engine: originals, outputs, review
// files, the upload secret and the audit key) and the directory blob
// store (engine/store/dirblob).
//
// A crash (power loss, SIGKILL, a full disk) must never leave a reader
// with half a file under its final name, nor lose a file that a
// committed record already points at. So a file is written to a
// temporary name in its destination's directory (TempPrefix, which no
// final name of either caller can take), flushed to stable storage
// (fsync), closed, renamed over its final name, and then the directory
// itself is fsynced, since the rename is a change of the directory and
// is not durable until the directory is. A reader sees the old file or
// the new one whole; a crash at any step leaves at most a temporary file
// for the owner's sweep to remove.
//
// Before this package the sequence was written twice (engine/storage.go,
// now scratch.go, and dirblob), each with its own small differences; see tailscale's
// atomicfile for the same idea. What the two callers need beyond a plain
// WriteFile is kept: a File can be streamed into, sealed and left under
// its temporary name for the caller to rename later (a commit that
// publishes several files with one directory fsync), and the file fsync
// can be replaced so tests can make it fail.
package durable

import (
	"os"
	"path/filepath"
)

// TempPrefix starts the name of every temporary file this package
// creates. Final names must not start with it, so a sweep can tell
// leftovers from files.
const TempPrefix = ".tmp-"

// The steps that make a rename durable, as variables so this package's
// tests can observe them in order.
var (
	rename  = os.Rename
	syncDir = SyncDir
)

// File is a temporary file being written in its destination's directory.
// It is created 0600 (os.CreateTemp), whatever the umask.
type File struct {
	f    *os.File
	sync func(*os.File) error
}

// Create opens a new temporary file in dir. sync flushes it to stable
// storage; nil means (*os.File).Sync (tests pass one that fails).
func Create(dir string, sync func(*os.File) error) (*File, error) {
	if sync == nil {
		sync = (*os.File).Sync
	}
	f, err := os.CreateTemp(dir, TempPrefix+"*")
	if err != nil {
		return nil, err
	}
	return &File{f: f, sync: sync}, nil
}

// Write writes to the temporary file.
func (d *File) Write(p []byte) (int, error) { return d.f.Write(p) }

// Name is the temporary file's path.
func (d *File) Name() string { return d.f.Name() }

// Abort closes and removes the temporary file.
func (d *File) Abort() {
	d.f.Close()
	os.Remove(d.f.Name())
}

// Seal flushes the file to stable storage and closes it, keeping it
// under its temporary name for the caller to rename (then SyncDir the
// directory once after its last rename). On failure the file is removed.
func (d *File) Seal() error {
	err := SyncClose(d.f, d.sync)
	if err != nil {
		os.Remove(d.f.Name())
	}
	return err
}

// Commit seals the file, renames it to name in its directory, replacing
// what was there, and syncs the directory: when Commit returns nil the
// new file survives a crash. On failure before the rename the temporary
// file is removed and the old file, if any, is untouched.
func (d *File) Commit(name string) error {
	if err := d.Seal(); err != nil {
		return err
	}
	dir := filepath.Dir(d.f.Name())
	if err := rename(d.f.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(d.f.Name())
		return err
	}
	return syncDir(dir)
}

// WriteFile writes data to dir/name durably: Create, Write, Commit.
func WriteFile(dir, name string, data []byte, sync func(*os.File) error) error {
	d, err := Create(dir, sync)
	if err != nil {
		return err
	}
	if _, err := d.Write(data); err != nil {
		d.Abort()
		return err
	}
	return d.Commit(name)
}

// SyncClose flushes f to stable storage with sync (nil: (*os.File).Sync)
// and closes it, for a file that was not created by Create (a
// processor's output, a file appended to). The file is kept either way:
// its owner decides.
func SyncClose(f *os.File, sync func(*os.File) error) error {
	if sync == nil {
		sync = (*os.File).Sync
	}
	err := sync(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SyncDir makes the creations, renames and removals inside dir durable.
func SyncDir(dir string) error {
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
