package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	natsstore "github.com/redactd/redactd/engine/store/nats"
	"github.com/redactd/redactd/internal/testkit/ports"
)

// TestNatsCommandLine checks what `redactd nats` refuses before it
// starts anything.
func TestNatsCommandLine(t *testing.T) {
	dir := t.TempDir()
	noSync := filepath.Join(dir, "nosync.conf")
	os.WriteFile(noSync, []byte("listen: 127.0.0.1:-1\njetstream { store_dir: \""+dir+"\" }\n"), 0o600)
	noJS := filepath.Join(dir, "nojs.conf")
	os.WriteFile(noJS, []byte("listen: 127.0.0.1:-1\n"), 0o600)
	bad := filepath.Join(dir, "bad.conf")
	os.WriteFile(bad, []byte("listen: {{{\n"), 0o600)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"nats"}, exitUsage, "--config FILE is required"},
		{[]string{"nats", "--config", noSync, "extra"}, exitUsage, "unexpected argument"},
		{[]string{"nats", "--config", noSync, "--wait", "nats://127.0.0.1:1"}, exitUsage, "exclude each other"},
		{[]string{"nats", "--config", noSync, "--check"}, exitError, "sync_interval: always"},
		{[]string{"nats", "--config", noJS, "--check"}, exitError, "jetstream is not enabled"},
		{[]string{"nats", "--config", bad, "--check"}, exitError, "nats:"},
		{[]string{"nats", "--config", filepath.Join(dir, "missing.conf"), "--check"}, exitError, "missing.conf"},
		{[]string{"nats", "--config", "../../deploy/cluster/nats-1.conf", "--check"}, exitOK, ""},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("redactd %q: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errb.String(), c.code, c.msg)
		}
	}
}

// TestLocalCluster runs deploy/cluster/local.sh with a built redactd:
// three `redactd nats` processes on loopback form an R3 cluster that the
// cluster store uses; a server killed with SIGKILL leaves a quorum that
// still commits; down stops the rest and removes the pid files.
func TestLocalCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("builds redactd and runs three servers")
	}
	bin := buildRedactd(t)
	dir := t.TempDir()
	base := freeBase(t)
	env := append(os.Environ(), "REDACTD_BIN="+bin, "NATS_PORT="+strconv.Itoa(base))
	sh := localSh(env)
	out, errOut, err := sh("up", dir, "0") // the servers only: TestClusterFaults runs nodes
	t.Cleanup(func() { sh("down", dir) })
	if err != nil {
		t.Fatalf("local.sh up: %v\n%s%s", err, out, errOut)
	}
	urls := ""
	for sc := bufio.NewScanner(strings.NewReader(out)); sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "NATS="); ok {
			urls = v
		}
	}
	if strings.Count(urls, ",") != 2 {
		t.Fatalf("up printed %q; want NATS= with three URLs", out)
	}
	pids := map[int]int{}
	for i := 1; i <= 3; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "pids", fmt.Sprintf("nats-%d.pid", i)))
		if err != nil {
			t.Fatal(err)
		}
		pids[i], _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if syscall.Kill(pids[i], 0) != nil {
			t.Fatalf("nats-%d (pid %d) is not running", i, pids[i])
		}
	}

	// doctor on a cluster: reachable, nothing created yet.
	doctorCluster := func() string {
		out, _ := exec.Command(bin, "doctor", "--engine", "nats", "--nats-url", urls, "--files-dir", t.TempDir(), "--data", t.TempDir()).CombinedOutput()
		var lines []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "  cluster") || strings.Contains(l, "  blobs") || strings.Contains(l, "scratch directory") {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	if got := doctorCluster(); !strings.Contains(got, "ok    cluster: connected") || !strings.Contains(got, "ok    cluster streams: none yet") || !strings.Contains(got, "ok    blobs") || !strings.Contains(got, "ok    scratch directory") {
		t.Errorf("doctor before the first serve:\n%s", got)
	}

	nc, err := nats.Connect(urls, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	st, err := natsstore.Open(ctx, nc, natsstore.Options{Replicas: 3, LeaseTime: 2 * time.Second})
	if err != nil {
		t.Fatalf("opening the R3 store on the local cluster: %v", err)
	}
	rev, err := st.Docs.Create(ctx, "doc.a", []byte("uploaded"))
	if err != nil {
		t.Fatal(err)
	}
	if got := doctorCluster(); !strings.Contains(got, "ok    cluster streams: 8 streams") {
		t.Errorf("doctor on a healthy cluster:\n%s", got)
	}
	// kill -9 one server: two of three keep a quorum for every stream.
	if err := syscall.Kill(pids[1], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var rev2 uint64
	deadline := time.Now().Add(time.Minute)
	for {
		// Each try is bounded: a request that reaches a stream during its
		// leader election is not answered.
		try, cancel := context.WithTimeout(ctx, 5*time.Second)
		rev2, err = st.Docs.Update(try, "doc.a", []byte("redacted"), rev)
		cancel()
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond) // leader elections after the kill
	}
	if err != nil {
		t.Fatalf("CAS after killing nats-1: %v", err)
	}
	if r, err := st.Docs.Get(ctx, "doc.a"); err != nil || string(r.Value) != "redacted" || r.Revision != rev2 {
		t.Fatalf("after the kill: %+v, %v", r, err)
	}
	// doctor sees the lost server: serving, with less redundancy.
	var got string
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); time.Sleep(time.Second) {
		if got = doctorCluster(); strings.Contains(got, "warn  cluster streams: serving, with less redundancy") && strings.Contains(got, "nats-1") {
			break
		}
	}
	if !strings.Contains(got, "warn  cluster streams: serving, with less redundancy") {
		t.Errorf("doctor after kill -9 of nats-1:\n%s", got)
	}

	if out, errOut, err := sh("down", dir); err != nil {
		t.Fatalf("local.sh down: %v\n%s%s", err, out, errOut)
	}
	for i, pid := range pids {
		if running(pid) {
			t.Errorf("nats-%d (pid %d) still runs after down", i, pid)
		}
		if _, err := os.Stat(filepath.Join(dir, "pids", fmt.Sprintf("nats-%d.pid", i))); !os.IsNotExist(err) {
			t.Errorf("nats-%d.pid left after down: %v", i, err)
		}
	}
}

// running reports a live process: one that exists and is not a zombie
// (the servers are reparented to init, which may not reap them here).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// freeBase picks a client port base whose 3 client, route and monitoring
// ports are free (local.sh uses base..+2, +2000.., +4000..). Its window,
// [10000, 20000), stays clear of freeNodeBase's and natskit's.
func freeBase(t *testing.T) int {
	return ports.Base(t, 10000, 10000, []int{0, 1, 2, 2000, 2001, 2002, 4000, 4001, 4002})
}

// localSh runs deploy/cluster/local.sh with env and returns its standard
// output and error.
func localSh(env []string) func(args ...string) (string, string, error) {
	script, _ := filepath.Abs("../../deploy/cluster/local.sh")
	return func(args ...string) (string, string, error) {
		cmd := exec.Command(script, args...)
		cmd.Env = env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String(), errb.String(), err
	}
}
