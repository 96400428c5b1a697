package jobs

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/internal/durable"
)

// The installation's secrets in the data directory: the upload secret
// (here) and the audit key (auditkey.go), each a file of its own, 0600,
// apart from the job log, written durably by writeSecret.

// uploadSecretFile is the file, in the data directory, holding the 32
// bytes that sign direct-upload URLs. It is 0600 and apart from the job
// log, so no reader of the job log's files learns it.
const uploadSecretFile = "upload-secret"

// loadUploadSecret returns the upload-signing secret from its file, moving
// it there from the job log of an earlier release (a new one replaces it
// when that job log was exposed, since others may know it), or making one.
//
// A cluster node shares one secret with every node through its store, so
// that any node accepts the upload URLs any other issued.
func (up *Uploads) loadUploadSecret(exposed bool) ([]byte, error) {
	if shared, ok := up.jl.(record.SecretKeeper); ok {
		candidate := make([]byte, 32)
		if _, err := rand.Read(candidate); err != nil {
			return nil, err
		}
		return shared.SharedSecret(candidate)
	}
	path := filepath.Join(up.cfg.Data, uploadSecretFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil && len(b) == 32:
		return up.dropLegacySecret(b)
	case err == nil:
		return nil, fmt.Errorf("%s: %d bytes, want 32", path, len(b))
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	var secret []byte
	var ok bool
	if ls, legacy := up.jl.(record.LegacySecrets); legacy {
		if secret, ok, err = ls.LegacyUploadSecret(); err != nil {
			return nil, err
		}
	}
	if !ok || exposed {
		if ok {
			up.log.Warn("upload secret replaced: the job log holding it was readable by other users; upload URLs issued before this start no longer work")
		}
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
	}
	if err := writeSecret(up.cfg.Data, uploadSecretFile, secret); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	if ok {
		up.log.Info("upload secret moved out of the job log", "file", path)
	}
	return up.dropLegacySecret(secret)
}

// dropLegacySecret removes a legacy secret from the job log once its file
// exists (also when a crash came between the two).
func (up *Uploads) dropLegacySecret(secret []byte) ([]byte, error) {
	ls, legacy := up.jl.(record.LegacySecrets)
	if !legacy {
		return secret, nil
	}
	if _, ok, err := ls.LegacyUploadSecret(); err != nil || !ok {
		return secret, err
	}
	if err := ls.DropLegacyUploadSecret(); err != nil {
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
