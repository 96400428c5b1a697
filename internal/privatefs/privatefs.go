// Package privatefs is pebble's file system with every directory it makes
// 0700 and every file it creates 0600, whatever the process umask. The
// data directory's pebble databases (engine/store/joblog, engine/store/pebblestore)
// open through it, so a data directory that others may enter exposes none
// of them.
package privatefs

import (
	"io"
	"os"

	"github.com/cockroachdb/pebble/vfs"
)

// FS is pebble's file system with every directory it makes 0700 and
// every file it creates 0600, whatever the process umask: pebble itself
// creates directories 0755 and files 0666 less the umask, so a data
// directory that others may enter would expose the database. Each creating
// call is followed by a chmod; until then the file sits in a 0700
// directory that only the owner can enter.
type FS struct{ vfs.FS }

// Default is the operating system's file system, made private.
var Default = FS{vfs.Default}

const (
	privateDir  os.FileMode = 0o700
	privateFile os.FileMode = 0o600
)

func (fs FS) Create(name string) (vfs.File, error) {
	f, err := fs.FS.Create(name)
	if err != nil {
		return f, err
	}
	return f, chmodClose(f, name, privateFile)
}

func (fs FS) OpenReadWrite(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, opts...)
	if err != nil {
		return f, err
	}
	return f, chmodClose(f, name, privateFile)
}

func (fs FS) ReuseForWrite(oldname, newname string) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname)
	if err != nil {
		return f, err
	}
	return f, chmodClose(f, newname, privateFile)
}

func (fs FS) MkdirAll(dir string, _ os.FileMode) error {
	if err := fs.FS.MkdirAll(dir, privateDir); err != nil {
		return err
	}
	return os.Chmod(dir, privateDir)
}

func (fs FS) Lock(name string) (io.Closer, error) {
	c, err := fs.FS.Lock(name)
	if err != nil {
		return c, err
	}
	if err := os.Chmod(name, privateFile); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// chmodClose sets name's mode, closing f when that fails.
func chmodClose(f vfs.File, name string, mode os.FileMode) error {
	if err := os.Chmod(name, mode); err != nil {
		f.Close()
		return err
	}
	return nil
}
