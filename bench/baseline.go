package main

import (
	"context"

	"github.com/redactd/redactd/bench/internal/client"
	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/bench/internal/daemon"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/runner"
	"github.com/redactd/redactd/bench/internal/score"
)

// A before and after in one run (issue 45: "the binary of the commit
// before your first change, and yours"): with --baseline BIN, once the
// main server has run every corpus, runBaseline starts BIN the same way
// on a fresh data directory and runs the throughput corpora through it
// at the same concurrency, timing and scoring them as the main run does
// (no OCR leak reading: the masked words are compared). The server's
// CPU time per page is the figure to compare: unlike pages/s, it barely
// moves with other work on the machine between the two runs.

// baselineCorpora are the corpora a baseline runs: those of the
// throughput targets (text, long documents, scans).
var baselineCorpora = map[string]bool{"text": true, "long": true, "scan": true}

// runBaseline returns the baseline binary's run, or nil with a note when
// it cannot run.
func runBaseline(ctx context.Context, cfg *config, corpora []*corpus.Corpus, work string) (*report.Baseline, string) {
	cs := pick(corpora, baselineCorpora)
	switch {
	case cfg.baseline == "" || len(cs) == 0:
		return nil, ""
	case cfg.url != "":
		return nil, "baseline not run: the bench did not start the server (--url)"
	}
	base := *cfg
	base.redactd = cfg.baseline
	srv, err := connect(ctx, &base, work)
	if err != nil {
		return nil, "baseline not run: " + err.Error()
	}
	defer srv.stop()
	c := client.New(srv.url, srv.key, 2*max(cfg.conc, cfg.longConc))
	defer c.Close()
	c.MetricsURL = srv.metricsURL
	c.Request = client.Options{Categories: categories(), Included: includedTerms}
	if docs := cs[0].Docs; len(docs) >= 2 {
		if err := warmUp(ctx, c, docs); err != nil {
			return nil, "baseline not run: warm-up job: " + err.Error()
		}
	}

	out := &report.Baseline{Binary: cfg.baseline, Version: daemon.Version(cfg.baseline)}
	for _, cp := range cs {
		conc := concurrencyOf(cfg, cp)
		cfg.log.Info("baseline", "corpus", cp.Name, "bin", cfg.baseline, "concurrency", conc)
		rec := startProfile(ctx, &base, srv)
		m, err := measureOnce(ctx, &base, c, srv, cp.Docs, conc, true)
		if err != nil {
			rec.abandon()
			return nil, "baseline: corpus " + cp.Name + ": " + err.Error()
		}
		rc := corpusReport(cfg, cp, conc, m)
		if rc.Profile, err = rec.stop(&base, "baseline-"+cp.Name, []*runner.Result{m.res}); err != nil {
			return nil, "baseline: corpus " + cp.Name + ": " + err.Error()
		}
		rc.Score = score.NewResult()
		scoreCorpus(ctx, cfg, m.res, rc.Score, score.Options{})
		out.Corpora = append(out.Corpora, rc)
	}
	return out, ""
}

// pick returns the corpora whose names set holds, in their order: those
// a second server (the baseline, the recogniser gate's) runs again.
func pick(corpora []*corpus.Corpus, set map[string]bool) []*corpus.Corpus {
	var out []*corpus.Corpus
	for _, cp := range corpora {
		if set[cp.Name] {
			out = append(out, cp)
		}
	}
	return out
}
