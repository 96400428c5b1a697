// Package dirblob is a store.Blobs on a directory: the single node's
// local disk, or a directory every cluster node mounts (NFS, CephFS), as
// the alternative to JetStream's Object Store for large deployments that
// already have shared storage.
//
// A blob is one file at DIR/<key>. Put writes it through internal/durable
// (the job service's durable writer too): a temporary file in the
// destination's directory, fsynced, renamed over the key, the directory
// fsynced. A reader sees the old blob or the new one whole, and a crash
// leaves at most a temporary file (".tmp-*", which no key can name, see
// store.CheckBlobKey) for Sweep to remove.
package dirblob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// tmpPrefix starts the temporary files internal/durable writes.
const tmpPrefix = durable.TempPrefix

// Dir is a blob store rooted at a directory. It is safe for concurrent
// use by goroutines and by processes sharing the directory: the last
// rename of a key wins, whole.
type Dir struct {
	root string
}

var _ store.Blobs = (*Dir)(nil)

// Open returns the store rooted at root, creating it (0700: blobs are
// documents) if needed.
func Open(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("dirblob: %w", err)
	}
	return &Dir{root: root}, nil
}

func (d *Dir) path(key string) (string, error) {
	if err := store.CheckBlobKey(key); err != nil {
		return "", err
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

// Put implements store.Blobs.
func (d *Dir) Put(ctx context.Context, key string, r io.Reader) (store.BlobInfo, error) {
	p, err := d.path(key)
	if err != nil {
		return store.BlobInfo{}, err
	}
	dir := filepath.Dir(p)
	if err := d.mkdirs(dir); err != nil {
		return store.BlobInfo{}, err
	}
	f, err := durable.Create(dir, nil)
	if err != nil {
		return store.BlobInfo{}, fmt.Errorf("dirblob: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), ctxReader{ctx, r})
	if err != nil {
		f.Abort()
		return store.BlobInfo{}, fmt.Errorf("dirblob: put %s: %w", key, err)
	}
	if err := f.Commit(filepath.Base(p)); err != nil {
		return store.BlobInfo{}, fmt.Errorf("dirblob: put %s: %w", key, err)
	}
	return store.BlobInfo{Key: key, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// mkdirs creates dir and its missing parents below the root, syncing each
// parent so that the new directory entries survive a crash too.
func (d *Dir) mkdirs(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := d.mkdirs(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("dirblob: %w", err)
	}
	if err := syncDir(filepath.Dir(dir)); err != nil {
		return fmt.Errorf("dirblob: %w", err)
	}
	return nil
}

// Open implements store.Blobs.
func (d *Dir) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &store.NotFoundError{Key: key}
	}
	if err != nil {
		return nil, fmt.Errorf("dirblob: %w", err)
	}
	return f, nil
}

// Stat implements store.Blobs. The file system keeps no digest, so Stat
// reads the blob to compute its SHA-256: it is for audits and checks, not
// request paths (Put returns the digest for the caller to record).
func (d *Dir) Stat(ctx context.Context, key string) (store.BlobInfo, error) {
	rc, err := d.Open(ctx, key)
	if err != nil {
		return store.BlobInfo{}, err
	}
	defer rc.Close()
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, rc})
	if err != nil {
		return store.BlobInfo{}, fmt.Errorf("dirblob: stat %s: %w", key, err)
	}
	return store.BlobInfo{Key: key, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Delete implements store.Blobs. It removes the blob's directory too once
// it is empty (a purged job leaves no directory behind).
func (d *Dir) Delete(ctx context.Context, key string) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("dirblob: %w", err)
	}
	dir := filepath.Dir(p)
	if dir != d.root && os.Remove(dir) == nil {
		dir = filepath.Dir(dir)
	}
	if err := syncDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("dirblob: %w", err)
	}
	return nil
}

var _ store.BlobSweeper = (*Dir)(nil)

// Keys implements store.BlobSweeper: a walk of the directory.
func (d *Dir) Keys(ctx context.Context, fn func(key string, stored time.Time) bool) error {
	errStop := errors.New("stop")
	err := filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), tmpPrefix) {
			return nil
		}
		rel, err := filepath.Rel(d.root, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if store.CheckBlobKey(key) != nil {
			return nil // not a blob (a file someone else put there)
		}
		info, err := e.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		if !fn(key, info.ModTime()) {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// SweepPartial implements store.BlobSweeper.
func (d *Dir) SweepPartial(_ context.Context, age time.Duration) (int, error) {
	return d.Sweep(age)
}

// Sweep removes temporary files older than age: the leftovers of Puts
// that crashed. age must exceed the longest Put, since another process
// sharing the directory may be writing one.
func (d *Dir) Sweep(age time.Duration) (removed int, err error) {
	cutoff := time.Now().Add(-age)
	err = filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if e.IsDir() || !strings.HasPrefix(e.Name(), tmpPrefix) {
			return nil
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
			if os.Remove(p) == nil {
				removed++
			}
		}
		return nil
	})
	return removed, err
}

// syncDir makes the creations and removals inside dir durable.
func syncDir(dir string) error { return durable.SyncDir(dir) }

// ctxReader stops a copy when its context ends, so a Put or Stat of a
// large blob can be cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
