package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/redactd/redactd/bench/internal/daemon"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/models/ocr"
	"github.com/redactd/redactd/models/ort"
)

// machine describes this computer from /proc.
func machine() report.Machine {
	m := report.Machine{CPUs: runtime.NumCPU(), CPUModel: "unknown", Kernel: "unknown"}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				f := strings.Fields(v)
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					m.MemBytes = n << 10
				}
			}
		}
	}
	m.LoadStart = loadAvg()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	return m
}

// loadAvg is the 1-minute load average.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(b) + " unknown")[0]
}

// versions lists what ran: redactd's build (none when srv is nil), the
// bench's Go, ONNX Runtime (the library the OCR leak check, the OCR
// comparison and the server find) and the peers.
func versions(cfg *config, srv *server, peers []report.Peer) [][2]string {
	out := [][2]string{}
	switch {
	case srv == nil: // no server in this run (--only)
	case srv.d != nil:
		out = append(out, [2]string{"redactd", cfg.redactd + " (" + daemon.Version(cfg.redactd) + ")"})
	default:
		out = append(out, [2]string{"redactd", "running server at " + cfg.url})
	}
	if v := gitDescribe(); v != "" {
		out = append(out, [2]string{"source tree (git describe)", v})
	}
	out = append(out, [2]string{"bench (Go)", runtime.Version()})
	if lib, err := ort.FindLibrary(""); err == nil {
		out = append(out, [2]string{"ONNX Runtime library", localPath(lib)})
	} else {
		out = append(out, [2]string{"ONNX Runtime library", "not found"})
	}
	if dir, err := ocr.ModelDir(""); err == nil {
		out = append(out, [2]string{"OCR models", localPath(dir)})
	}
	seen := map[string]bool{}
	for _, p := range peers {
		if seen[p.Result.Name] {
			continue
		}
		seen[p.Result.Name] = true
		v := p.Result.Version
		if p.Result.Missing != "" {
			v = "missing: " + p.Result.Missing
		}
		out = append(out, [2]string{p.Result.Name, v})
	}
	return out
}

// gitDescribe names the source tree's commit ("" outside a checkout),
// as it was when the bench started: the tree may change during a run of
// several minutes, and the report must name what was built and measured.
var gitDescribe = sync.OnceValue(func() string {
	b, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

// localPath writes a path under the working directory (the checkout the
// bench runs from) relative to it, so the report holds no path of the
// machine that ran it; an installed path (/usr/lib/redactd) stays whole.
func localPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(wd, p)
	if err != nil || !filepath.IsAbs(p) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}
