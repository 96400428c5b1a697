package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/redactd/redactd/bench/internal/client"
	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/runner"
	"github.com/redactd/redactd/bench/internal/score"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/models/ocr"
)

// The recogniser gate through the service (issue 48): the default
// recogniser must mask at least as many PII words as PP-OCRv4 in every
// category of the scanned and photographed corpora, end to end. The main
// run already scored the default recogniser's outputs; runRecogniserGate
// runs those corpora once more on a server started with
// --ocr-model=ppocrv4 and scores its outputs the same way (no OCR leak
// reading: only the masked words are compared).

// gateCorpora are the corpora the gate compares: those OCR reads.
var gateCorpora = map[string]bool{"scan": true, "photo": true}

// runRecogniserGate returns the reference recogniser's scores on the
// gate's corpora, or nil with a note when the gate cannot run.
func runRecogniserGate(ctx context.Context, cfg *config, corpora []*corpus.Corpus, work string) (*report.Recogniser, string) {
	cs := pick(corpora, gateCorpora)
	switch {
	case len(cs) == 0:
		return nil, ""
	case cfg.url != "":
		return nil, "recogniser gate not run: the bench did not start the server (--url)"
	}
	for _, a := range cfg.serverArgs {
		if strings.HasPrefix(a, "--ocr-model") {
			return nil, "recogniser gate not run: --server-arg chose the recogniser (" + a + ")"
		}
	}
	ref := *cfg
	ref.serverArgs = append(append([]string{}, cfg.serverArgs...), "--ocr-model="+ocr.ModelPPOCRv4)
	srv, err := connect(ctx, &ref, work)
	if err != nil {
		return nil, "recogniser gate not run: " + err.Error()
	}
	defer srv.stop()
	c := client.New(srv.url, srv.key, 2*cfg.conc)
	defer c.Close()
	c.Request = client.Options{Categories: categories(), Included: includedTerms}

	out := &report.Recogniser{Model: ocr.ModelPPOCRv4}
	for _, cp := range cs {
		cfg.log.Info("recogniser gate", "corpus", cp.Name, "model", ocr.ModelPPOCRv4)
		opts := busyPoll
		opts.Concurrency, opts.Upload, opts.KeepOutput = cfg.conc, cfg.upload, true
		res := runner.Run(ctx, c, cp.Docs, opts)
		if ctx.Err() != nil {
			return nil, "recogniser gate: " + ctx.Err().Error()
		}
		s := score.NewResult()
		scoreCorpus(ctx, cfg, res, s, score.Options{})
		out.Corpora = append(out.Corpora, &report.Corpus{Name: cp.Name, Docs: len(cp.Docs), Pages: cp.Pages(), Score: s})
	}
	return out, ""
}

// recogniserTarget compares the default recogniser's masked PII words
// per category with the reference's, corpus by corpus.
func recogniserTarget(r *report.Report) report.Target {
	t := report.Target{Name: "PII words masked through the service: " + ocr.DefaultModel + " vs " + ocr.ModelPPOCRv4,
		Goal: "≥ in every category of the scan and photo corpora"}
	if r.Recogniser == nil {
		return t
	}
	own := map[string]*score.Result{}
	for _, c := range r.Corpora {
		own[c.Name] = c.Score
	}
	var short, checked []string
	for _, rc := range r.Recogniser.Corpora {
		a, b := own[rc.Name], rc.Score
		if a == nil || b == nil || len(a.Invalid) > 0 || len(b.Invalid) > 0 {
			t.Note = "a corpus has invalid outputs: " + rc.Name
			return t
		}
		for _, cat := range page.Categories {
			x, y := a.Words[cat], b.Words[cat]
			if x == nil || y == nil || y.Total == 0 {
				continue
			}
			if x.Masked < y.Masked {
				short = append(short, fmt.Sprintf("%s %s %d < %d of %d", rc.Name, cat, x.Masked, y.Masked, y.Total))
			}
		}
		ra, rb := a.Recall(), b.Recall()
		checked = append(checked, fmt.Sprintf("%s %d vs %d of %d words", rc.Name, ra.Masked, rb.Masked, rb.Total))
	}
	t.Measured = strings.Join(checked, "; ")
	if len(short) > 0 {
		t.Measured += "; short: " + strings.Join(short, ", ")
	}
	t.Status = passFail(len(short) == 0)
	return t
}
