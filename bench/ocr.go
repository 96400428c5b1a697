package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/redactd/redactd/bench/internal/ocreval"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/models/ocr"
	"github.com/redactd/redactd/models/ort"
)

// ocrDPI is the resolution of the OCR comparison's renders, the one the
// OCR targets are stated at.
const ocrDPI = 200.0

// ocrDevPages bounds the pages Prepare selects for --ocr-eval-dev; the
// shared documents hold 34 usable ones (24 for the comparison, 10 dev).
const ocrDevPages = 200

// runOCR compares redactd's OCR with Tesseract on clean renders of real
// PDF pages, scored against their text layer: Tesseract first, then
// redactd with each recogniser, each alone on the machine. It runs before the server starts,
// so nothing else of the bench competes for the cores.
func runOCR(ctx context.Context, cfg *config, dir string) *report.OCR {
	out := &report.OCR{DPI: ocrDPI}
	cfg.log.Info("ocr comparison: selecting and rendering pages", "pages", cfg.ocrEvalN)
	n := cfg.ocrEvalN
	if cfg.ocrDev {
		n = ocrDevPages
	}
	pages, err := ocreval.Prepare(ctx, ocreval.Spec{Dir: filepath.Join(cfg.data, "documents"), Out: dir, DPI: ocrDPI, Pages: n})
	if err != nil {
		out.Err = err.Error()
		return out
	}
	if cfg.ocrDev {
		// Pages are taken one per document in turn: the first
		// ocrEvalN are the comparison's, the rest its dev pages.
		pages = pages[min(cfg.ocrEvalN, len(pages)):]
	}
	if len(pages) == 0 {
		out.Err = "no page with a usable text layer under " + filepath.Join(cfg.data, "documents")
		return out
	}
	// Every recogniser, the default first: the default's figures are the
	// ones the targets judge, the other's stand beside them (the gate a
	// recogniser passes to become the default, models/ocr/README.md).
	models := []string{ocr.DefaultModel}
	for _, m := range []string{ocr.ModelPPOCRv4, ocr.ModelLatin} {
		if m != ocr.DefaultModel {
			models = append(models, m)
		}
	}
	out.LoadStart = loadAvg()
	cfg.log.Info("ocr comparison: tesseract", "pages", len(pages))
	tess := ocreval.Tesseract(ctx, pages, runtime.NumCPU())
	var runs []ocreval.Run
	for _, m := range models {
		runs = append(runs, ocrRun(ctx, cfg, m, pages))
	}
	// The default first in the report, then Tesseract (the pair the
	// report's ratio and the targets compare), then the other recogniser.
	runs = append(runs[:1], append([]ocreval.Run{tess}, runs[1:]...)...)
	out.LoadEnd = loadAvg()

	for _, p := range pages {
		out.Dropped += p.Dropped
		out.Pages = append(out.Pages, report.OCRPage{Name: p.Name, Lines: len(p.Lines), Chars: p.Chars()})
	}
	for _, r := range runs {
		total, byPage := ocreval.Evaluate(pages, r)
		out.Systems = append(out.Systems, report.OCRSystem{Name: r.Name, Version: r.Version, How: r.How, Missing: r.Missing, Err: r.Err,
			Pages: r.Pages, Wall: r.Wall, CPU: r.CPU, Chars: total.Chars, Edits: total.Edits, TruthWords: total.TruthWords, Found: total.Found,
			Extra: total.Extra, CER: total.CER(), WordRecall: total.Recall()})
		for i := range out.Pages {
			v := math.NaN()
			if byPage != nil {
				v = byPage[i].CER()
			}
			out.Pages[i].CER = append(out.Pages[i].CER, v)
		}
		cfg.log.Info("ocr comparison", "system", r.Name, "pages_per_s", fmt.Sprintf("%.3f", r.PagesPerSec()),
			"cer", fmt.Sprintf("%.4f", total.CER()), "word_recall", fmt.Sprintf("%.4f", total.Recall()), "err", r.Err+r.Missing)
	}
	return out
}

// ocrRun reads the pages with redactd's OCR using recogniser model.
func ocrRun(ctx context.Context, cfg *config, model string, pages []*ocreval.Page) ocreval.Run {
	name := "redactd OCR (models/ocr, " + model + ")"
	eng, err := ocrEngine(model)
	if err != nil {
		return ocreval.Run{Name: name, Err: "not loaded: " + err.Error()}
	}
	defer eng.Close()
	cfg.log.Info("ocr comparison: redactd", "model", model, "pages", len(pages), "in_flight", cfg.ocrInFl)
	r := ocreval.Redactd(ctx, eng, pages, cfg.ocrInFl)
	r.Name = name
	r.How = strings.Replace(r.How, "ocr.Options{}", "ocr.Options{Model: \""+model+"\"}", 1)
	if v := gitDescribe(); v != "" {
		r.Version = "source " + v
	}
	return r
}

// ocrEngine loads redactd's OCR as the server does by default: ONNX
// Runtime on the CPU with one intra-op thread per core, default
// ocr.Options (those of engine/config's defaults) but for the recogniser.
func ocrEngine(model string) (*ocr.Engine, error) {
	lib, err := ort.FindLibrary("")
	if err != nil {
		return nil, err
	}
	if !ort.Initialized() {
		if err := ort.Init(ort.Options{LibPath: lib}); err != nil {
			return nil, err
		}
	}
	return ocr.New("", ocr.Options{Model: model})
}
