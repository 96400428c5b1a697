package engine

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/redactd/redactd/engine/record"
	"github.com/redactd/redactd/internal/durable"
)

// Permissions of the data directory. Everything redactd creates in it is
// private to its owner: directories 0700, files 0600, whatever the umask
// (the engine's own files are created so; pebble's through joblog's
// privateFS; what an earlier release left more open is tightened at Open).
// The data directory itself belongs to the operator: `serve` and `doctor`
// refuse one that other users may read, write or enter (CheckDataDir)
// unless allow-open-data-dir says otherwise.

// uploadSecretFile is the file, in the data directory, holding the 32
// bytes that sign direct-upload URLs. It is 0600 and apart from the job
// log, so no reader of the job log's files learns it.
const uploadSecretFile = "upload-secret"

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

// jobLogExposed reports whether another user could have read the job log's
// files: the data directory and the job log directory let others in and
// one of its files let them read it. The legacy upload secret in such a
// job log is then treated as known.
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

// loadUploadSecret returns the upload-signing secret from its file, moving
// it there from the job log of an earlier release (a new one replaces it
// when that job log was exposed, since others may know it), or making one.
//
// A cluster node shares one secret with every node through its store, so
// that any node accepts the upload URLs any other issued.
func (e *Engine) loadUploadSecret(exposed bool) ([]byte, error) {
	if shared, ok := e.jl.(record.SecretKeeper); ok {
		candidate := make([]byte, 32)
		if _, err := rand.Read(candidate); err != nil {
			return nil, err
		}
		return shared.SharedSecret(candidate)
	}
	path := filepath.Join(e.cfg.Data, uploadSecretFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil && len(b) == 32:
		return e.dropLegacySecret(b)
	case err == nil:
		return nil, fmt.Errorf("%s: %d bytes, want 32", path, len(b))
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	secret, ok, err := e.jl.LegacyUploadSecret()
	if err != nil {
		return nil, err
	}
	if !ok || exposed {
		if ok {
			e.log.Warn("upload secret replaced: the job log holding it was readable by other users; upload URLs issued before this start no longer work")
		}
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
	}
	if err := writeSecret(e.cfg.Data, uploadSecretFile, secret); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	if ok {
		e.log.Info("upload secret moved out of the job log", "file", path)
	}
	return e.dropLegacySecret(secret)
}

// dropLegacySecret removes a legacy secret from the job log once its file
// exists (also when a crash came between the two).
func (e *Engine) dropLegacySecret(secret []byte) ([]byte, error) {
	if _, ok, err := e.jl.LegacyUploadSecret(); err != nil || !ok {
		return secret, err
	}
	if err := e.jl.DropLegacyUploadSecret(); err != nil {
		return nil, err
	}
	return secret, nil
}

// writeSecret writes DATA/name (upload-secret, audit-key) durably
// (internal/durable: temporary file, fsync, rename, directory fsync),
// 0600 like every file it makes. It runs at Open only, so it uses the
// real fsync rather than the engine's injectable one.
func writeSecret(data, name string, secret []byte) error {
	return durable.WriteFile(data, name, secret, nil)
}
