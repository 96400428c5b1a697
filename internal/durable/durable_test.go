package durable

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// temps lists the temporary files left in dir.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), TempPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCommitSteps: Commit fsyncs the file, then renames it over the
// final name, then fsyncs the directory, in that order and each once.
// Leaving out the rename or the directory fsync (or doing the directory
// fsync before the rename, when it makes nothing durable) fails here.
func TestCommitSteps(t *testing.T) {
	dir := t.TempDir()
	final := filepath.Join(dir, "f")
	if err := os.WriteFile(final, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	var steps []string
	oldRename, oldSyncDir := rename, syncDir
	t.Cleanup(func() { rename, syncDir = oldRename, oldSyncDir })
	rename = func(from, to string) error {
		if filepath.Dir(from) != dir || to != final {
			t.Errorf("rename %s -> %s, want a temporary file in %s -> %s", from, to, dir, final)
		}
		steps = append(steps, "rename")
		return oldRename(from, to)
	}
	syncDir = func(d string) error {
		if d != dir {
			t.Errorf("synced directory %s, want %s", d, dir)
		}
		steps = append(steps, "fsync dir")
		return oldSyncDir(d)
	}
	fsync := func(f *os.File) error {
		steps = append(steps, "fsync file")
		return f.Sync()
	}
	f, err := Create(dir, fsync)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, final); got != "old" {
		t.Fatalf("before Commit the final name reads %q, want the old file", got)
	}
	if err := f.Commit("f"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"fsync file", "rename", "fsync dir"}; !slices.Equal(steps, want) {
		t.Fatalf("steps %v, want %v", steps, want)
	}
	if got := readString(t, final); got != "new" {
		t.Fatalf("after Commit: %q", got)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	fi, err := os.Stat(final)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestFailuresKeepOldFile: a write whose fsync or rename fails returns
// the error, leaves the old file as it was and no temporary file.
func TestFailuresKeepOldFile(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		name       string
		sync       func(*os.File) error
		renameFail bool
	}{
		{name: "fsync", sync: func(*os.File) error { return boom }},
		{name: "rename", renameFail: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			final := filepath.Join(dir, "f")
			if err := os.WriteFile(final, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if c.renameFail {
				old := rename
				t.Cleanup(func() { rename = old })
				rename = func(string, string) error { return boom }
			}
			if err := WriteFile(dir, "f", []byte("new"), c.sync); !errors.Is(err, boom) {
				t.Fatalf("err %v, want %v", err, boom)
			}
			if got := readString(t, final); got != "old" {
				t.Fatalf("final name reads %q, want the old file", got)
			}
			if left := temps(t, dir); len(left) != 0 {
				t.Fatalf("temporary files left: %v", left)
			}
		})
	}
}

// TestSealKeepsTemp: Seal leaves the synced file under its temporary
// name for a later rename; Abort removes an unsealed one.
func TestSealKeepsTemp(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("data"))
	if err := f.Seal(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(f.Name()), TempPrefix) || filepath.Dir(f.Name()) != dir {
		t.Fatalf("temporary file %s, want %s/%s*", f.Name(), dir, TempPrefix)
	}
	if got := readString(t, f.Name()); got != "data" {
		t.Fatalf("sealed file reads %q", got)
	}
	g, err := Create(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Write([]byte("partial"))
	g.Abort()
	if left := temps(t, dir); !slices.Equal(left, []string{filepath.Base(f.Name())}) {
		t.Fatalf("temporary files %v, want only the sealed one", left)
	}
}

// TestSyncCloseReportsSync: SyncClose closes the file whatever fsync
// says, and reports fsync's error.
func TestSyncCloseReportsSync(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "x"))
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := SyncClose(f, func(*os.File) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Fatal("file still open")
	}
}

// crashEnv names the directory a re-run of this test binary crashes in.
const (
	crashEnv   = "DURABLE_TEST_CRASH_DIR"
	crashAtEnv = "DURABLE_TEST_CRASH_AT"
)

// TestCrashKeepsOldFile: a process killed (SIGKILL) in the middle of a
// write, or after sealing the temporary file but before the rename,
// leaves the old file whole under its name and only a temporary file
// beside it.
func TestCrashKeepsOldFile(t *testing.T) {
	if dir := os.Getenv(crashEnv); dir != "" {
		crashHere(dir, os.Getenv(crashAtEnv))
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []string{"write", "sealed"} {
		t.Run(at, func(t *testing.T) {
			dir := t.TempDir()
			if err := WriteFile(dir, "f", []byte("old"), nil); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(exe, "-test.run=^TestCrashKeepsOldFile$")
			cmd.Env = append(os.Environ(), crashEnv+"="+dir, crashAtEnv+"="+at)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child did not die by SIGKILL: %v\n%s", err, out)
			}
			if got := readString(t, filepath.Join(dir, "f")); got != "old" {
				t.Fatalf("after the crash the file reads %q, want the old file", got)
			}
			if left := temps(t, dir); len(left) != 1 {
				t.Fatalf("temporary files %v, want the crashed one", left)
			}
		})
	}
}

// crashHere starts replacing dir/f and kills the process at the step
// named at.
func crashHere(dir, at string) {
	f, err := Create(dir, nil)
	if err != nil {
		os.Exit(3)
	}
	f.Write([]byte("ne"))
	if at == "sealed" {
		f.Write([]byte("w"))
		if f.Seal() != nil {
			os.Exit(3)
		}
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}
