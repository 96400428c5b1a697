package jobs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Permissions of the data directory. Everything redactd creates in it is
// private to its owner: directories 0700, files 0600, whatever the umask
// (the engine's own files are created so; pebble's, in DATA/store and an
// earlier release's DATA/joblog, through internal/privatefs; what an
// earlier release left more open is tightened at Open).
// The data directory itself belongs to the operator: `serve` and `doctor`
// refuse one that other users may read, write or enter (CheckDataDir)
// unless allow-open-data-dir says otherwise.

// OpenDataDirError reports a data directory that other users may read,
// write or enter.
type OpenDataDirError struct {
	Dir  string
	Mode fs.FileMode
}

func (e *OpenDataDirError) Error() string {
	return fmt.Sprintf("data directory %s has mode %04o: other users can read or change the documents and keys in it; "+
		"fix it with `chmod 0700 %s` (as its owner), or set allow-open-data-dir to start anyway",
		e.Dir, e.Mode.Perm(), e.Dir)
}

// CheckDataDir returns an *OpenDataDirError when dir grants any
// permission to its group or to others. A missing directory is fine:
// serve creates it 0700.
func CheckDataDir(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return &OpenDataDirError{Dir: dir, Mode: fi.Mode()}
	}
	return nil
}

// jobLogExposed reports whether another user could have read the files
// of the job log an earlier release left (DATA/joblog, moved to
// DATA/store at Open): Open asks before it tightens the data directory.
// Exposed means the data directory and the job log directory let others
// in and one of its files let them read it. The legacy upload secret in
// such a job log is then treated as known.
func jobLogExposed(data string) bool {
	enter := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.Mode().Perm()&0o011 != 0
	}
	jl := filepath.Join(data, "joblog")
	if !enter(data) || !enter(jl) {
		return false
	}
	ents, err := os.ReadDir(jl)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o044 != 0 {
			return true
		}
	}
	return false
}

// tighten makes every directory below data 0700 and every regular file
// 0600 where it is more open (data directories written by releases that
// left pebble's files to the umask). data itself is left to the operator.
func tighten(data string) error {
	// The trailing separator makes WalkDir follow a data directory that is
	// a symbolic link (as the rest of redactd does); links inside are not.
	root := filepath.Clean(data) + string(os.PathSeparator)
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if p == root {
			return nil
		}
		want := fs.FileMode(0o600)
		switch {
		case d.IsDir():
			want = 0o700
		case !d.Type().IsRegular():
			return nil // sockets (0600 already), links: left alone
		}
		fi, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		if fi.Mode().Perm()&^want != 0 {
			return os.Chmod(p, want)
		}
		return nil
	})
}
