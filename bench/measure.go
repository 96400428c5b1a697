package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/redactd/redactd/bench/internal/client"
	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/bench/internal/daemon"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/runner"
)

// server is the redactd under test: one the bench started, or one at
// --url.
type server struct {
	url, key, desc string
	metricsURL     string
	pid            int
	admin          string // its admin socket where it serves pprof (--profile), else ""
	d              *daemon.Daemon
	once           sync.Once
	stopErr        error
}

func connect(ctx context.Context, cfg *config, work string) (*server, error) {
	if cfg.url != "" {
		return &server{url: cfg.url, metricsURL: cfg.metricsURL, key: cfg.key, pid: cfg.pid, admin: cfg.adminSock,
			desc: "running server at " + cfg.url}, nil
	}
	args := append([]string{fmt.Sprintf("--dpi=%g", cfg.dpi)}, cfg.serverArgs...)
	admin := ""
	if cfg.profile != "" {
		args = append(args, "--pprof=true")
		admin = filepath.Join(work, "data", "admin.sock")
	}
	cfg.log.Info("starting redactd", "bin", cfg.redactd)
	d, err := daemon.Start(ctx, cfg.redactd, filepath.Join(work, "data"), filepath.Join(work, "redactd.log"), args)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", cfg.redactd, err)
	}
	return &server{url: d.URL, metricsURL: d.MetricsURL, key: d.Key, pid: d.PID(), d: d, admin: admin,
		desc: fmt.Sprintf("`%s serve` started by the bench on a fresh data directory (settings: defaults, --rate-limit 0, %s)", cfg.redactd, strings.Join(args, " "))}, nil
}

// stop stops a server the bench started; it is safe to call twice.
func (s *server) stop() error {
	s.once.Do(func() {
		if s.d != nil {
			s.stopErr = s.d.Stop()
		}
	})
	return s.stopErr
}

// measured is one timed run of a corpus.
type measured struct {
	res     *runner.Result
	stages  []client.Stage
	ocrWork client.OCRWork
	peak    int64
	peakHow string
	ocrRan  bool
	cpu     time.Duration // the server's CPU time during the run, 0 if unknown
}

// measureCorpus runs a corpus at its concurrency (keeping outputs for
// scoring) and, for the text corpus, at every level of the sweep.
func measureCorpus(ctx context.Context, cfg *config, c *client.Client, srv *server, cp *corpus.Corpus) (*report.Corpus, []report.Point, *runner.Result, error) {
	conc := concurrencyOf(cfg, cp)
	var sweep []int
	if cp.Name == "text" {
		sweep = cfg.sweep
	}
	levels := slices.Clone(sweep)
	if !slices.Contains(levels, conc) {
		levels = append(levels, conc)
	}
	slices.Sort(levels)

	var points []report.Point
	var main measured
	var extra []*runner.Result // the runs besides the main one, for the profile's pages
	rec := startProfile(ctx, cfg, srv)
	defer rec.abandon()
	for _, n := range levels {
		cfg.log.Info("running corpus", "corpus", cp.Name, "docs", len(cp.Docs), "pages", cp.Pages(), "concurrency", n)
		m, err := measureOnce(ctx, cfg, c, srv, cp.Docs, n, n == conc)
		if err != nil {
			return nil, nil, nil, err
		}
		cfg.log.Info("corpus done", "corpus", cp.Name, "concurrency", n, "pages_per_s", fmt.Sprintf("%.1f", m.res.PagesPerSecond()), "failed", m.res.Failed())
		if slices.Contains(sweep, n) {
			points = append(points, report.Point{Corpus: cp.Name, Concurrency: n, PagesPerSec: m.res.PagesPerSecond(),
				P50: runner.Percentile(m.res.Latencies(""), 50)})
		}
		if n == conc {
			main = m
		} else {
			extra = append(extra, m.res)
		}
	}

	rc := corpusReport(cfg, cp, conc, main)
	if cp.Name == "scan" && cfg.scanLoad > 0 && !cfg.quick {
		docs := loadDocs(cp.Docs, cfg.scanLoad)
		cfg.log.Info("running corpus under load", "corpus", cp.Name, "jobs", len(docs), "concurrency", cfg.scanLoad)
		m, err := measureOnce(ctx, cfg, c, srv, docs, cfg.scanLoad, false)
		if err != nil {
			return nil, nil, nil, err
		}
		rc.Load = &report.Load{Jobs: len(docs), Concurrency: cfg.scanLoad, PagesPerSec: m.res.PagesPerSecond(),
			Failed: m.res.Failed(), PeakRSS: m.peak, RSSHow: m.peakHow}
		extra = append(extra, m.res)
	}
	prof, err := rec.stop(cfg, cp.Name, append(extra, main.res))
	if err != nil {
		return nil, nil, nil, err
	}
	rc.Profile = prof
	for _, j := range main.res.Jobs {
		if j.Status == "redacted" {
			rc.OutBytes += int64(j.OutSize)
			rc.OutPages += j.Doc.Pages
			rc.InBytesDone += int64(len(j.Doc.Data))
		} else if len(rc.FailSamples) < 5 {
			rc.FailSamples = append(rc.FailSamples, fmt.Sprintf("%s: %s %s", j.Doc.Name, j.Status, j.Err))
		}
	}
	return rc, points, main.res, nil
}

// concurrencyOf is the jobs at once a corpus's timed run has: the long
// documents' own setting, else the bench's.
func concurrencyOf(cfg *config, cp *corpus.Corpus) int {
	if cp.Name == "long" {
		return cfg.longConc
	}
	return cfg.conc
}

// corpusReport is the report entry of a corpus's timed run m at conc
// jobs at once (its outputs not yet scored).
func corpusReport(cfg *config, cp *corpus.Corpus, conc int, m measured) *report.Corpus {
	return &report.Corpus{Name: cp.Name, Desc: cp.Desc, Docs: len(cp.Docs), Pages: cp.Pages(), Concurrency: conc,
		Upload: cfg.upload, Wall: m.res.Wall, PagesPerSec: m.res.PagesPerSecond(), Latencies: m.res.Latencies(""),
		Failed: m.res.Failed(), InBytes: cp.Bytes(), PeakRSS: m.peak, RSSHow: m.peakHow, Stages: m.stages,
		OCRWork: m.ocrWork, OCRRanOnPages: m.ocrRan, CPU: m.cpu}
}

// loadDocs repeats docs until there are at least n of them, so that n
// jobs run at once.
func loadDocs(docs []*corpus.Doc, n int) []*corpus.Doc {
	if len(docs) == 0 {
		return nil
	}
	out := slices.Clone(docs)
	for len(out) < n {
		out = append(out, docs...)
	}
	return out
}

// measureOnce submits docs at concurrency n, with the server's metrics
// scraped before and after and its memory watched.
func measureOnce(ctx context.Context, cfg *config, c *client.Client, srv *server, docs []*corpus.Doc, n int, keep bool) (measured, error) {
	text, err := c.Metrics(ctx)
	if err != nil {
		return measured{}, fmt.Errorf("metrics: %w", err)
	}
	before := client.ParseMetrics(text)
	stopMem := watchMemory(ctx, srv, c)
	cpu0 := serverCPU(srv)
	opts := busyPoll
	opts.Concurrency, opts.Upload, opts.KeepOutput = n, cfg.upload, keep
	res := runner.Run(ctx, c, docs, opts)
	cpu1 := serverCPU(srv)
	peak, how := stopMem()
	if text, err = c.Metrics(ctx); err != nil {
		return measured{}, fmt.Errorf("metrics: %w", err)
	}
	after := client.ParseMetrics(text)
	m := measured{res: res, stages: client.Stages(before, after), ocrWork: client.OCRWorkBetween(before, after), peak: peak, peakHow: how}
	if cpu0 > 0 && cpu1 > cpu0 {
		m.cpu = cpu1 - cpu0
	}
	for _, s := range m.stages {
		m.ocrRan = m.ocrRan || (s.Name == "ocr" && s.Count > 0)
	}
	return m, nil
}

// serverCPU is the server's CPU time so far, 0 when its process is not
// known or cannot be read.
func serverCPU(srv *server) time.Duration {
	if srv.pid <= 0 {
		return 0
	}
	t, err := daemon.CPUTime(srv.pid)
	if err != nil {
		return 0
	}
	return t
}

// watchMemory starts watching the server's memory and returns a function
// that stops and reports the peak RSS and how it was measured: the
// kernel's high-water mark (reset at the start) when the process is
// known, else the largest process_resident_memory_bytes seen on
// /metrics every 200 ms.
func watchMemory(ctx context.Context, srv *server, c *client.Client) func() (int64, string) {
	if srv.pid > 0 {
		how := ""
		if err := daemon.ResetPeak(srv.pid); err != nil {
			how = " (process lifetime: reset failed)"
		}
		return func() (int64, string) {
			peak, err := daemon.PeakRSS(srv.pid)
			if err != nil {
				return 0, " (unavailable)"
			}
			return peak, how
		}
	}
	var (
		mu   sync.Mutex
		peak float64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			if text, err := c.Metrics(ctx); err == nil {
				v := client.ParseMetrics(text)["process_resident_memory_bytes"]
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() (int64, string) {
		close(done)
		wg.Wait()
		return int64(peak), " (sampled)"
	}
}
