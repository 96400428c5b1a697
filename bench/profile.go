package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/redactd/redactd/bench/internal/cpuprof"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/runner"
)

// With --profile DIR the servers the bench starts serve pprof on their
// admin sockets, and every corpus's runs (and the baseline's) are
// profiled from start to end: DIR/CORPUS.pb.gz (DIR/baseline-CORPUS.pb.gz)
// for go tool pprof, and the CPU by stage per page in the report (issue
// 45: where a page's time goes, before and after, in one run).

// profiling is a CPU recording of a server over a corpus's runs; its
// zero value (no --profile, or a server whose admin socket the bench
// does not know) records nothing.
type profiling struct {
	rec *cpuprof.Recording
}

// startProfile starts recording srv's CPU profile when the bench was
// asked for profiles and knows srv's admin socket.
func startProfile(ctx context.Context, cfg *config, srv *server) profiling {
	if cfg.profile == "" || srv.admin == "" {
		return profiling{}
	}
	chunk := cpuprof.DefaultChunk
	if cfg.quick {
		chunk = time.Second // the quick corpora run for seconds: a shorter idle tail
	}
	return profiling{rec: cpuprof.Start(ctx, srv.admin, chunk)}
}

// abandon ends a recording that will not be read (a run failed); it does
// nothing after stop, so a deferred abandon guards every early return.
func (p profiling) abandon() {
	if p.rec != nil {
		p.rec.Abandon()
	}
}

// stop ends the recording, writes it to the profile folder as name.pb.gz
// and splits it by stage over the pages runs redacted; nil when nothing
// was recorded.
func (p profiling) stop(cfg *config, name string, runs []*runner.Result) (*report.Profile, error) {
	if p.rec == nil {
		return nil, nil
	}
	prof, err := p.rec.Stop()
	if err != nil {
		return nil, fmt.Errorf("profile of %s: %w", name, err)
	}
	if err := os.MkdirAll(cfg.profile, 0o755); err != nil {
		return nil, err
	}
	file := filepath.Join(cfg.profile, name+".pb.gz")
	if err := cpuprof.WriteFile(file, prof); err != nil {
		return nil, fmt.Errorf("profile of %s: %w", name, err)
	}
	total, stages, err := cpuprof.Split(prof, cpuprof.Stages)
	if err != nil {
		return nil, fmt.Errorf("profile of %s: %w", name, err)
	}
	out := &report.Profile{File: file, Total: total, Stages: stages}
	for _, r := range runs {
		out.Pages += r.Pages()
	}
	return out, nil
}
