// Package daemon runs redactd as a subprocess for the benchmark: a fresh
// data directory, an API key made with `redactd keys create`, then
// `redactd serve` on a free local port, and reads the server process's
// memory high-water mark from /proc.
package daemon

import (
	"context"
	"debug/buildinfo"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Daemon is a running redactd serve.
type Daemon struct {
	// URL is the API, MetricsURL the metrics listener (metrics-listen).
	URL, MetricsURL, Key string
	cmd                  *exec.Cmd
	log                  *os.File
	exited               chan error
}

// Start creates a key in dataDir (a standard account with a quota large
// enough for any run), then serves on 127.0.0.1 with rate limiting off
// and extra settings appended, logging to logPath. It returns once
// /readyz answers 200.
func Start(ctx context.Context, bin, dataDir, logPath string, extra []string) (*Daemon, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, bin, "keys", "create", "--data", dataDir,
		"--email", "bench@redactd.invalid", "--plan", "standard", "--pages", "1000000000").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("redactd keys create: %w: %s", err, tail(out))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	key := strings.TrimSpace(lines[len(lines)-1])

	port, err := freePort()
	if err != nil {
		return nil, err
	}
	mport, err := freePort()
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	maddr := fmt.Sprintf("127.0.0.1:%d", mport)
	args := append([]string{"serve", "--data", dataDir, "--listen", addr, "--metrics-listen", maddr, "--rate-limit", "0",
		"--log-format", "text", "--log-level", "warn"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	// The server goes when the bench does, even if the bench is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("redactd serve: %w", err)
	}
	d := &Daemon{URL: "http://" + addr, MetricsURL: "http://" + maddr, Key: key, cmd: cmd, log: logf, exited: make(chan error, 1)}
	go func() { d.exited <- cmd.Wait() }()
	if err := d.waitReady(ctx, 2*time.Minute); err != nil {
		d.Stop()
		b, _ := os.ReadFile(logPath)
		return nil, fmt.Errorf("%w; log: %s", err, tail(b))
	}
	return d, nil
}

// PID is the server's process id.
func (d *Daemon) PID() int { return d.cmd.Process.Pid }

func (d *Daemon) waitReady(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-d.exited:
			d.exited <- err
			return fmt.Errorf("redactd serve exited: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		resp, err := http.Get(d.URL + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return errors.New("redactd serve not ready in time")
}

// Stop sends SIGTERM and waits up to 30 s before killing.
func (d *Daemon) Stop() error {
	defer d.log.Close()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("redactd serve: %w", err)
		}
		return nil
	case <-time.After(30 * time.Second):
		d.cmd.Process.Kill()
		<-d.exited
		return errors.New("redactd serve did not stop on SIGTERM; killed")
	}
}

// Version describes the binary from its embedded build information: Go
// version and VCS revision (redactd has no version flag of its own).
func Version(bin string) string {
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		return "unknown"
	}
	rev, dirty := "", ""
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s%s", bi.GoVersion, rev, dirty))
}

// ResetPeak resets the process's peak RSS (VmHWM) to its current RSS,
// so the next PeakRSS covers only what happens after (Linux 4.0+).
func ResetPeak(pid int) error {
	return os.WriteFile(filepath.Join("/proc", strconv.Itoa(pid), "clear_refs"), []byte("5"), 0)
}

// PeakRSS returns the process's VmHWM in bytes.
func PeakRSS(pid int) (int64, error) { return statusField(pid, "VmHWM:") }

// CPUTime returns the user and system CPU time the process has used
// (/proc/PID/stat), which other work on the machine barely changes.
func CPUTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// fields are counted after its closing one.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	var ticks int64
	for _, s := range f[11:13] { // utime and stime, fields 14 and 15
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's CPU
// times: 100 on every Linux architecture Go supports.
const clockTicks = 100

// RSS returns the process's VmRSS in bytes.
func RSS(pid int) (int64, error) { return statusField(pid, "VmRSS:") }

func statusField(pid int, field string) (int64, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(v)
			if len(f) == 2 && f[1] == "kB" {
				n, err := strconv.ParseInt(f[0], 10, 64)
				return n << 10, err
			}
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}
