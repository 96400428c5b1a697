package jobs

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store/joblog"
	"github.com/redactd/redactd/internal/testkit"
	"github.com/redactd/redactd/internal/testkit/testlog"
)

// nobodyDirEnv names the data directory TestPermsNobodyHelper reads.
const nobodyDirEnv = "REDACTD_TEST_NOBODY_DIR"

// TestDataDirPermissions: with the umask at 022 and a data directory an
// operator pre-created with mode 0755 (the manual and container
// installs), everything redactd creates in it (the job log and every
// pebble file, the upload-signing secret, job folders, spooled uploads,
// outputs) is 0700 for directories and 0600 for files. The secret is in
// its own file and nowhere in the job log's bytes. Run as root, a child
// process running as nobody then tries to read every file: it must read
// none.
func TestDataDirPermissions(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	root, err := os.MkdirTemp("", "redactd-perms-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(root, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckDataDir(data); err == nil || !strings.Contains(err.Error(), "chmod 0700 "+data) {
		t.Fatalf("CheckDataDir on a 0755 directory: %v, want a refusal that says how to fix it", err)
	}

	v := newEnv(t, func(c *Settings) { c.Data = data })
	a, _ := v.account("perms@example.com", PlanStandard, 100)
	j := v.create(a, pdfFile("a.pdf", 2))
	v.waitDone(a, j.ID)
	res, err := v.e.InitJob(context.Background(), a, InitJobRequest{Files: []InitFile{{FileName: "b.pdf", ContentType: "application/pdf", SizeBytes: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.Spool(context.Background(), bytes.NewReader([]byte("%PDF-1.4 spooled")), 1<<20); err != nil {
		t.Fatal(err)
	}
	secret := bytes.Clone(v.e.secret)
	if err := v.e.Close(); err != nil {
		t.Fatal(err)
	}
	_ = res

	var files, dirs int
	filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if p == data {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(data, p)
		switch {
		case fi.IsDir():
			dirs++
			if fi.Mode().Perm() != 0o700 {
				t.Errorf("directory %s is %04o, want 0700", rel, fi.Mode().Perm())
			}
		case fi.Mode().IsRegular():
			files++
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("file %s is %04o, want 0600", rel, fi.Mode().Perm())
			}
			if strings.HasPrefix(rel, storeDir+string(os.PathSeparator)) {
				if b, _ := os.ReadFile(p); bytes.Contains(b, secret) {
					t.Errorf("the upload secret is readable in the store file %s", rel)
				}
			}
		}
		return nil
	})
	if files < 5 || dirs < 3 {
		t.Fatalf("only %d files and %d directories: the walk saw too little", files, dirs)
	}
	b, err := os.ReadFile(filepath.Join(data, uploadSecretFile))
	if err != nil || !bytes.Equal(b, secret) {
		t.Fatalf("upload secret file: %v (matches the engine's: %t)", err, bytes.Equal(b, secret))
	}

	if os.Geteuid() != 0 {
		t.Skip("not root: cannot run a child as user nobody; the mode checks above ran")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPermsNobodyHelper$", "-test.v")
	cmd.Env = append(os.Environ(), nobodyDirEnv+"="+data)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	// The test binary must be reachable by nobody: go test puts it in a
	// 0700 temporary directory owned by root, so copy it out.
	bin := filepath.Join(root, "engine.test")
	copyExec(t, os.Args[0], bin)
	cmd.Path, cmd.Args[0] = bin, bin
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "uid=65534") {
		t.Fatalf("the child did not run as nobody:\n%s", out)
	}
	if strings.Contains(string(out), "READ ") {
		t.Fatalf("user nobody read files of the data directory:\n%s", out)
	}
	if !strings.Contains(string(out), "denied ") {
		t.Fatalf("the child tried nothing:\n%s", out)
	}
}

// TestPermsNobodyHelper runs in the child of TestDataDirPermissions, as
// nobody: it tries to list every directory and read every file it is
// told of (walking as root named them), printing READ for each success.
func TestPermsNobodyHelper(t *testing.T) {
	data := os.Getenv(nobodyDirEnv)
	if data == "" {
		t.Skip("run by TestDataDirPermissions")
	}
	fmt.Printf("uid=%d\n", os.Getuid())
	names := []string{uploadSecretFile, auditKeyFile, storeDir, storeDir + "/CURRENT", storeDir + "/LOCK", "files"}
	if ents, err := os.ReadDir(filepath.Join(data, storeDir)); err == nil {
		fmt.Printf("READ %s/ (%d entries)\n", storeDir, len(ents))
	}
	// Names of pebble's files are predictable: try the first few of each.
	for i := 1; i < 20; i++ {
		for _, f := range []string{"%06d.log", "%06d.sst", "MANIFEST-%06d", "OPTIONS-%06d"} {
			names = append(names, storeDir+"/"+fmt.Sprintf(f, i))
		}
	}
	for _, n := range names {
		p := filepath.Join(data, n)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			if _, err := os.ReadDir(p); err == nil {
				fmt.Printf("READ %s/\n", n)
			} else {
				fmt.Printf("denied %s/\n", n)
			}
			continue
		}
		if _, err := os.ReadFile(p); err == nil {
			fmt.Printf("READ %s\n", n)
		} else if os.IsPermission(err) {
			fmt.Printf("denied %s\n", n)
		}
	}
}

func copyExec(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestUploadSecretMigration: a data directory whose upload secret is in
// the job log (releases before 2026-11) gets it moved into its own 0600
// file at open, as the job log moves to DATA/store, and deleted and
// compacted out of the job log's files, kept as DATA/joblog.migrated.
// When the job log was private, the same secret moves, so upload URLs
// handed out before the upgrade still verify; when others could read the
// job log, the secret may be known and is replaced.
func TestUploadSecretMigration(t *testing.T) {
	for _, exposed := range []bool{false, true} {
		t.Run(fmt.Sprintf("exposed=%t", exposed), func(t *testing.T) {
			// A data directory of the previous release (the upgrade
			// fixture), private as its systemd unit left it, or with its
			// job log open to others as a 0755 install left it.
			data := t.TempDir()
			testkit.CopyTree(t, filepath.Join("testdata", "datadir-v1", "data"), data)
			jl, err := joblog.Open(filepath.Join(data, "joblog"), joblog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			old, ok, err := jl.LegacyUploadSecret()
			jl.Close()
			if err != nil || !ok {
				t.Fatalf("the fixture has no legacy upload secret (%v)", err)
			}
			if exposed {
				os.Chmod(data, 0o755)
				os.Chmod(filepath.Join(data, "joblog"), 0o755)
				ents, _ := os.ReadDir(filepath.Join(data, "joblog"))
				for _, e := range ents {
					os.Chmod(filepath.Join(data, "joblog", e.Name()), 0o644)
				}
			}
			cfg := testConfig(t)
			cfg.Data = data
			v := &env{t: t, cfg: cfg, clock: &fakeClock{t: time.Now()}, logs: &testlog.Buffer{}}
			v.h = hooks{now: time.Now, verify: verifyTestPDF}
			v.open(newTestProc())
			got := bytes.Clone(v.e.secret)
			v.e.Close()
			if bytes.Equal(got, old) == exposed {
				t.Fatalf("secret kept %t, want %t", bytes.Equal(got, old), !exposed)
			}
			if exposed && !strings.Contains(v.logs.String(), "upload secret replaced") {
				t.Fatalf("no warning about the replaced secret:\n%s", v.logs.String())
			}
			b, err := os.ReadFile(filepath.Join(data, uploadSecretFile))
			if err != nil || !bytes.Equal(b, got) {
				t.Fatalf("secret file: %v", err)
			}
			for _, dir := range []string{jobLogKept, storeDir} {
				ents, _ := os.ReadDir(filepath.Join(data, dir))
				if len(ents) == 0 {
					t.Fatalf("nothing in %s", dir)
				}
				for _, e := range ents {
					if b, _ := os.ReadFile(filepath.Join(data, dir, e.Name())); bytes.Contains(b, old) {
						t.Errorf("the old secret is still in %s/%s", dir, e.Name())
					}
				}
			}
			jl, err = joblog.Open(filepath.Join(data, jobLogKept), joblog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer jl.Close()
			if _, ok, err := jl.LegacyUploadSecret(); ok || err != nil {
				t.Fatalf("the job log still holds an upload secret (%v)", err)
			}
		})
	}
}

// TestTightenThroughSymlink: a data directory reached through a symbolic
// link has what an earlier release left open tightened too.
func TestTightenThroughSymlink(t *testing.T) {
	real := t.TempDir()
	if err := os.MkdirAll(filepath.Join(real, "joblog"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(real, "joblog", "CURRENT")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(real, "joblog"), 0o755)
	os.Chmod(f, 0o644)
	link := filepath.Join(t.TempDir(), "data")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := tighten(link); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{filepath.Join(real, "joblog"): 0o700, f: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, want %04o", p, fi.Mode().Perm(), want)
		}
	}
}
