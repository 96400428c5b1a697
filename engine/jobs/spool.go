package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/redactd/redactd/engine/imagein"
)

// Spooled is an upload written to a temporary file by Service.Spool
// (API.Spool), with what CreateJob needs to know of it. The file sits in the files directory
// under the temporary prefix, so a crash or an abandoned request leaves
// nothing the janitor does not sweep (at start, and after orphanGrace).
type Spooled struct {
	path  string
	size  int64
	sum   string // SHA-256, hex
	head  []byte // the first imagein.SniffLen bytes
	taken bool   // moved into a job by CreateJob
}

// Remove deletes the spooled file unless CreateJob took it. It is safe to
// call more than once.
func (s *Spooled) Remove() {
	if s == nil || s.taken || s.path == "" {
		return
	}
	os.Remove(s.path)
	s.path = ""
}

// Spool implements Service.
func (api *API) Spool(ctx context.Context, r io.Reader, max int64) (*Spooled, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := api.files.newDurable(api.files.root())
	if err != nil {
		return nil, storageError(err)
	}
	fail := func(err error) (*Spooled, error) {
		f.Abort()
		return nil, err
	}
	h := sha256.New()
	head := &headWriter{n: imagein.SniffLen}
	n, err := io.Copy(io.MultiWriter(f, h, head), io.LimitReader(r, max+1))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fail(storageError(err))
		}
		return fail(err)
	}
	if err := f.Seal(); err != nil {
		return nil, storageError(err)
	}
	return &Spooled{path: f.Name(), size: n, sum: hex.EncodeToString(h.Sum(nil)), head: head.b}, nil
}

// headWriter keeps the first n bytes written to it.
type headWriter struct {
	b []byte
	n int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if k := min(len(p), w.n-len(w.b)); k > 0 {
		w.b = append(w.b, p[:k]...)
	}
	return len(p), nil
}

// fileFacts returns what CreateJob checks and records of f: its size, its
// first bytes and its SHA-256.
func fileFacts(f File) (size int64, head []byte, sum string) {
	if f.Spool != nil {
		return f.Spool.size, f.Spool.head, f.Spool.sum
	}
	s := sha256.Sum256(f.Data)
	return int64(len(f.Data)), f.Data[:min(len(f.Data), imagein.SniffLen)], hex.EncodeToString(s[:])
}

// originalTemp returns a sealed temporary file in dir holding f, for
// place to make it the document's original: a spooled upload is renamed
// there (the scratch directory and the job directories share a file
// system), bytes in memory are written to a new one.
func (api *API) originalTemp(dir string, f File) (string, error) {
	if f.Spool == nil {
		return api.files.writeTemp(dir, f.Data)
	}
	if f.Spool.path == "" || f.Spool.taken {
		return "", errors.New("engine: spooled upload already removed or taken")
	}
	tmp := filepath.Join(dir, filepath.Base(f.Spool.path))
	if err := os.Rename(f.Spool.path, tmp); err != nil {
		return "", err
	}
	f.Spool.path = tmp
	return tmp, nil
}
