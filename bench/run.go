package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/redactd/redactd/bench/internal/client"
	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/bench/internal/peers"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/runner"
	"github.com/redactd/redactd/engine/page"
)

// Polling: short intervals for the idle-latency jobs, where the interval
// is part of what is measured; longer ones under load.
var (
	idlePoll = runner.Options{Concurrency: 1, Poll: 3 * time.Millisecond, MaxPoll: 20 * time.Millisecond}
	busyPoll = runner.Options{Poll: 20 * time.Millisecond, MaxPoll: 250 * time.Millisecond}
)

// run does the whole benchmark and returns its report.
func run(ctx context.Context, cfg *config) (*report.Report, error) {
	rep := &report.Report{Started: time.Now(), Quick: cfg.quick, DPI: cfg.dpi, Machine: machine(),
		Command: "bench " + strings.Join(os.Args[1:], " ")}
	if cfg.quick {
		rep.Command = "bench --quick"
	}
	work := cfg.work
	if work == "" {
		var err error
		if work, err = os.MkdirTemp("", "redactd-bench-"); err != nil {
			return nil, err
		}
		if !cfg.keep {
			defer os.RemoveAll(work)
		}
	}
	sz := sizesFor(cfg.quick)

	if cfg.only == "ocr" {
		rep.Only = "ocr"
		rep.OCR = runOCR(ctx, cfg, filepath.Join(work, "ocr"))
		return finish(cfg, rep, nil), nil
	}

	cfg.log.Info("building corpora")
	corpora, idleDocs, err := buildCorpora(ctx, cfg, sz)
	if err != nil {
		return nil, fmt.Errorf("corpora: %w", err)
	}
	if cfg.peers {
		if rep.Peers, err = runPeers(ctx, cfg, corpora, filepath.Join(work, "peers")); err != nil {
			return nil, err
		}
	}

	if cfg.ocrEval {
		rep.OCR = runOCR(ctx, cfg, filepath.Join(work, "ocr"))
	}

	srv, err := connect(ctx, cfg, work)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	rep.Server = srv.desc
	c := client.New(srv.url, srv.key, 2*max(cfg.conc, cfg.longConc, slices.Max(cfg.sweep)))
	defer c.Close()
	c.MetricsURL = srv.metricsURL
	c.Request = client.Options{Categories: categories(), Included: includedTerms}

	if err := warmUp(ctx, c, idleDocs[:2]); err != nil {
		return nil, fmt.Errorf("warm-up job: %w", err)
	}
	cfg.log.Info("idle latency", "jobs", len(idleDocs)-2)
	idle := idlePoll
	idle.Upload = cfg.upload
	ir := runner.Run(ctx, c, idleDocs[2:], idle)
	rep.Idle = &report.Idle{Pages: 1, Multipart: ir.Latencies(runner.Multipart), Direct: ir.Latencies(runner.Direct)}
	cfg.log.Info("large uploads", "jobs", sz.uploads, "bytes", sz.uploadBytes)
	if rep.Uploads, err = measureUploads(ctx, cfg, c, srv, sz.uploads, sz.uploadBytes); err != nil {
		return nil, fmt.Errorf("large uploads: %w", err)
	}

	outputs := map[string]*runner.Result{}
	for _, cp := range corpora {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rc, points, res, err := measureCorpus(ctx, cfg, c, srv, cp)
		if err != nil {
			return nil, fmt.Errorf("corpus %s: %w", cp.Name, err)
		}
		rep.Corpora = append(rep.Corpora, rc)
		rep.Sweep = append(rep.Sweep, points...)
		outputs[cp.Name] = res
	}
	if err := srv.stop(); err != nil {
		rep.Notes = append(rep.Notes, "server stop: "+err.Error())
	}

	cfg.log.Info("scoring outputs")
	if note := scoreAll(ctx, cfg, corpora, outputs, rep.Corpora); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	if cfg.recGate {
		rg, note := runRecogniserGate(ctx, cfg, corpora, filepath.Join(work, "recogniser-gate"))
		rep.Recogniser = rg
		if note != "" {
			rep.Notes = append(rep.Notes, note)
		}
	}
	if b, note := runBaseline(ctx, cfg, corpora, filepath.Join(work, "baseline")); b != nil || note != "" {
		rep.Baseline = b
		if note != "" {
			rep.Notes = append(rep.Notes, note)
		}
	}
	for i := range rep.Peers {
		for _, rc := range rep.Corpora {
			if rc.Name == rep.Peers[i].Corpus {
				rep.Peers[i].Redactd = rc.PagesPerSec
			}
		}
	}
	return finish(cfg, rep, srv), nil
}

// finish adds what is known at the end of a run: versions, the targets'
// verdicts, the closing load average and the duration.
func finish(cfg *config, rep *report.Report, srv *server) *report.Report {
	rep.Versions = versions(cfg, srv, rep.Peers)
	rep.Targets, rep.Notes = targets(rep, rep.Notes)
	rep.Machine.LoadEnd = loadAvg()
	rep.Took = time.Since(rep.Started)
	return rep
}

func categories() []string {
	out := make([]string, len(page.Categories))
	for i, c := range page.Categories {
		out[i] = string(c)
	}
	return out
}

// warmUp runs one job through each upload path, unmeasured, so lazily
// loaded models and cold caches do not count against the first job.
func warmUp(ctx context.Context, c *client.Client, docs []*corpus.Doc) error {
	for i, path := range []string{runner.Multipart, runner.Direct} {
		o := idlePoll
		o.Upload = path
		r := runner.Run(ctx, c, docs[i:i+1], o)
		if j := r.Jobs[0]; j.Status != "redacted" {
			return fmt.Errorf("%s upload: %s %s", path, j.Status, j.Err)
		}
	}
	return nil
}

// runPeers times the peers on the corpora they are compared on: mutool
// on text, long-document and scan pages, the OCR peers on the scans.
func runPeers(ctx context.Context, cfg *config, corpora []*corpus.Corpus, dir string) ([]report.Peer, error) {
	var out []report.Peer
	workers := runtime.NumCPU()
	for _, cp := range corpora {
		if cp.Name != "text" && cp.Name != "long" && cp.Name != "scan" {
			continue
		}
		files, err := cp.WriteFiles(dir)
		if err != nil {
			return nil, err
		}
		cfg.log.Info("peers", "corpus", cp.Name, "files", len(files))
		out = append(out, report.Peer{Corpus: cp.Name, Result: peers.Mutool(ctx, files, cfg.dpi, dir)})
		if cp.Scanned {
			out = append(out,
				report.Peer{Corpus: cp.Name, Result: peers.Tesseract(ctx, files, cfg.dpi, workers, dir)},
				report.Peer{Corpus: cp.Name, Result: peers.OCRmyPDF(ctx, files, workers, dir)})
		}
	}
	return out, nil
}
