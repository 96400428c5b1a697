package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/redactd/redactd/bench/internal/corpus"
)

// sizes are the corpus sizes of a mode.
type sizes struct {
	textDocs, textMin, textMax int
	scanDocs                   int // the first text documents, scanned
	photos                     int
	longDocs, longPages        int
	real                       int // 0: all
	idleJobs                   int
	uploads, uploadBytes       int // large multipart uploads sent at once, and their size
}

func sizesFor(quick bool) sizes {
	if quick {
		return sizes{textDocs: 6, textMin: 1, textMax: 2, scanDocs: 1, photos: 1, longDocs: 1, longPages: 100, real: 3, idleJobs: 6, uploads: 2, uploadBytes: 8 << 20}
	}
	return sizes{textDocs: 80, textMin: 1, textMax: 4, scanDocs: 10, photos: 10, longDocs: 16, longPages: 100, idleJobs: 30, uploads: 8, uploadBytes: 64 << 20}
}

// includedTerms are made-up words printed in page headers and sent as
// pii_included_terms: no detector would flag them, so masking them
// measures the included-terms feature alone.
var includedTerms = []string{"Kestrelvane", "Quillonmere", "Marrowby", "Thistlegard", "Osprechal"}

// buildCorpora builds the corpora cfg asks for and the one-page documents
// of the idle-latency run. The order is the order they run in: the
// text-layer corpora first, so the long documents' memory peak is taken
// before OCR has loaded its models into the server.
func buildCorpora(ctx context.Context, cfg *config, sz sizes) (cs []*corpus.Corpus, idle []*corpus.Doc, err error) {
	recs, err := corpus.LoadPresidio(filepath.Join(cfg.data, "pii", "presidio_research", "generated_large.json"))
	if err != nil {
		return nil, nil, err
	}
	text := corpus.TextDocs(recs, corpus.TextSpec{Prefix: "text", Docs: sz.textDocs, MinPages: sz.textMin, MaxPages: sz.textMax, Terms: includedTerms, Seed: cfg.seed})
	idle = corpus.TextDocs(recs, corpus.TextSpec{Prefix: "idle", Docs: sz.idleJobs + 2, MinPages: 1, MaxPages: 1, Terms: includedTerms, Seed: cfg.seed + 1})
	add := func(name, desc string, scanned bool, docs []*corpus.Doc) {
		cs = append(cs, &corpus.Corpus{Name: name, Desc: desc, Scanned: scanned, Docs: docs})
	}
	if cfg.corpora["text"] {
		add("text", fmt.Sprintf("text-layer PDFs (US Letter, 11pt Helvetica) laid out from presidio-research's labelled records (generated_large.json), %d to %d pages each, every page headed by an included term; truth word boxes from internal/testkit/testpdf", sz.textMin, sz.textMax), false, text)
	}
	if cfg.corpora["long"] {
		long := corpus.TextDocs(recs, corpus.TextSpec{Prefix: "long", Docs: sz.longDocs, MinPages: sz.longPages, MaxPages: sz.longPages, Terms: includedTerms, Seed: cfg.seed + 2})
		add("long", fmt.Sprintf("%d text-layer PDFs of %d pages, all submitted at once (the peak-RSS target)", sz.longDocs, sz.longPages), false, long)
	}
	if cfg.corpora["scan"] {
		cfg.log.Info("building scans")
		scans, err := corpus.Scans(ctx, text[:min(sz.scanDocs, len(text))], cfg.seed)
		if err != nil {
			return nil, nil, err
		}
		add("scan", fmt.Sprintf("the first text documents' pages rendered by MuPDF at %d dpi, turned up to 1.5°, grey paper, noise, gray JPEG (q75) in image-only PDFs; no text layer", corpus.ScanDPI), true, scans)
	}
	if cfg.corpora["photo"] {
		cfg.log.Info("building photos")
		photos, err := corpus.Photos(ctx, text, sz.photos, cfg.seed)
		if err != nil {
			return nil, nil, err
		}
		add("photo", fmt.Sprintf("single-page images of text pages at %d dpi: JPEG phone photos (page turned up to 3° on a desk, uneven light, noise) and clean gray PNGs, alternately", corpus.PhotoDPI), false, photos)
	}
	if cfg.corpora["real"] {
		real, err := corpus.Real(ctx, filepath.Join(cfg.data, "documents"), sz.real)
		if err != nil {
			return nil, nil, err
		}
		add("real", "real PDFs and PNGs from the shared data folder's documents/ (forms, invoices, public records); PII unlabelled, so only the share of their words masked is reported", false, real)
	}
	return cs, idle, nil
}
