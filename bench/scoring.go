package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/bench/internal/ocrread"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/runner"
	"github.com/redactd/redactd/bench/internal/score"
)

// scoreAll scores every corpus's kept outputs into its report entry,
// with OCR leak checks when the OCR models load. It returns a note when
// OCR was wanted but could not run.
func scoreAll(ctx context.Context, cfg *config, corpora []*corpus.Corpus, outputs map[string]*runner.Result, rcs []*report.Corpus) string {
	opts := score.Options{OCRPages: cfg.ocrPages}
	note := ""
	if cfg.ocr {
		r, err := ocrread.New("")
		if err != nil {
			note = fmt.Sprintf("OCR leak checks not done: %v", err)
		} else {
			defer r.Close()
			opts.OCR = r
		}
	}
	for i, cp := range corpora {
		res := outputs[cp.Name]
		if res == nil {
			continue
		}
		s := score.NewResult()
		scoreCorpus(ctx, cfg, res, s, opts)
		rcs[i].Score = s
	}
	return note
}

func scoreCorpus(ctx context.Context, cfg *config, res *runner.Result, s *score.Result, opts score.Options) {
	jobs := make(chan runner.Job)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if j.Status != "redacted" {
					s.Invalidf(j.Doc, "%s: %s", j.Status, j.Err)
					continue
				}
				if err := s.Doc(ctx, j.Doc, j.Output, opts); err != nil {
					cfg.log.Warn("scoring", "doc", j.Doc.Name, "err", err)
					s.Invalidf(j.Doc, "scoring: %v", err)
				}
			}
		}()
	}
	for _, j := range res.Jobs {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	for _, l := range s.Leaked {
		cfg.log.Debug("leak", "doc", l.Doc, "category", l.Cat, "channel", l.Channel, "entity", l.Text)
	}
	for _, l := range s.Unmasked {
		cfg.log.Debug("unmasked", "doc", l.Doc, "category", l.Cat, "word", l.Text)
	}
}
