package main

import (
	"context"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/models/ocr"

	"github.com/redactd/redactd/internal/shareddata"
)

// TestQuickBench runs the whole harness in quick mode against a real
// redactd subprocess built from ./cmd/redactd: corpora, server, both
// upload paths, metrics, scoring, report. It asserts that the harness
// measured something sane, not how fast anything was: every synthetic
// document came back as a valid flattened PDF, recall was computed, and
// no included term leaked. The peers have their own test.
func TestQuickBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds redactd and runs it end to end")
	}
	data := shareddata.Dir()
	if _, err := os.Stat(filepath.Join(data, "pii", "presidio_research", "generated_large.json")); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "redactd")
	build := exec.Command("go", "build", "-o", bin, "./cmd/redactd")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building redactd: %v\n%s", err, out)
	}

	out := filepath.Join(dir, "report", "RESULTS.md")
	os.MkdirAll(filepath.Dir(out), 0o755)
	// The same binary is its own baseline: the before-and-after run is
	// exercised, not a change measured.
	profiles := filepath.Join(dir, "profiles")
	rep := runBench(t, out, "--quick", "--redactd", bin, "--baseline", bin, "--peers=false", "--ocr-pages=1", "--ocr-eval-pages=1",
		"--data", data, "--out", out, "--work", filepath.Join(dir, "work"), "--timeout", "5m", "--profile", profiles)

	if rep.Idle == nil || len(rep.Idle.Multipart) == 0 || len(rep.Idle.Direct) == 0 {
		t.Errorf("idle latency not measured on both upload paths: %+v", rep.Idle)
	}
	seen := map[string]bool{}
	for _, c := range rep.Corpora {
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) { checkCorpus(t, c) })
	}
	for _, want := range []string{"text", "scan", "photo", "long", "real"} {
		if !seen[want] {
			t.Errorf("corpus %s missing from the report", want)
		}
	}
	if len(rep.Targets) == 0 {
		t.Error("no targets reported")
	}
	// The recogniser gate ran the OCR'd corpora again with PP-OCRv4 and
	// judged them (issue 48).
	if rep.Recogniser == nil || len(rep.Recogniser.Corpora) != 2 {
		t.Errorf("recogniser gate: %+v", rep.Recogniser)
	} else {
		for _, c := range rep.Recogniser.Corpora {
			if c.Score == nil || c.Score.Recall().Total == 0 || len(c.Score.Invalid) != 0 {
				t.Errorf("recogniser gate, %s with %s: not scored or invalid outputs", c.Name, rep.Recogniser.Model)
			}
		}
	}
	checkBaseline(t, rep)
	checkProfiles(t, rep)
	gate := false
	for _, tg := range rep.Targets {
		gate = gate || strings.HasPrefix(tg.Name, "PII words masked through the service") && tg.Status != ""
	}
	if !gate {
		t.Error("no verdict of the recogniser gate among the targets")
	}

	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Targets", "## Accuracy", "| scan with ppocrv4 |", "## Before and after", "| text before (baseline) |", "## CPU by stage", "## Time per stage", "## OCR accuracy and speed", report.ThroughputPNG, report.StagesPNG} {
		if !strings.Contains(string(md), want) {
			t.Errorf("RESULTS.md lacks %q", want)
		}
	}
	for _, name := range []string{report.ThroughputPNG, report.StagesPNG} {
		f, err := os.Open(filepath.Join(filepath.Dir(out), name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		f.Close()
	}
}

// checkBaseline: the baseline server ran the throughput corpora, each
// timed (pages/s and the server's CPU time) and scored.
func checkBaseline(t *testing.T, rep *report.Report) {
	t.Helper()
	if rep.Baseline == nil {
		t.Fatal("--baseline given, no baseline run in the report")
	}
	var names []string
	for _, c := range rep.Baseline.Corpora {
		names = append(names, c.Name)
		if c.PagesPerSec <= 0 || c.CPUPerPage() <= 0 || c.Failed != 0 {
			t.Errorf("baseline %s: %.2f pages/s, %v CPU a page, %d failed", c.Name, c.PagesPerSec, c.CPUPerPage(), c.Failed)
		}
		if c.Score == nil || c.Score.Recall().Total == 0 || len(c.Score.Invalid) != 0 {
			t.Errorf("baseline %s: not scored or invalid outputs", c.Name)
		}
	}
	if got := strings.Join(names, ","); got != "text,long,scan" {
		t.Errorf("baseline ran %s, want text,long,scan", got)
	}
	for _, c := range rep.Corpora {
		if c.CPUPerPage() <= 0 {
			t.Errorf("%s: server CPU a page not measured", c.Name)
		}
	}
}

// checkProfiles: with --profile every corpus, and every corpus of the
// baseline, has a CPU profile on disk over the pages it redacted, and
// the stages that must cost something on the corpora's pages do: a
// stage whose functions were renamed away from cpuprof.Stages reads 0
// and fails here.
func checkProfiles(t *testing.T, rep *report.Report) {
	t.Helper()
	// The stages are looked for in all the profiles together: a quick
	// run profiles a few pages at 100 samples a second, so a stage of a
	// few milliseconds a page may miss one corpus's samples by chance
	// (the text corpus's encode did once, on a loaded machine), while a
	// renamed function leaves its stage empty in every corpus.
	must := []string{"parse (load, words)", "render", "NER model runs", "encode", "OCR detector runs", "OCR recogniser runs"}
	cs := rep.Corpora
	if rep.Baseline != nil {
		cs = append(slices.Clone(cs), rep.Baseline.Corpora...)
	}
	got := map[string]time.Duration{}
	for _, c := range cs {
		pr := c.Profile
		if pr == nil || pr.Pages == 0 || pr.Total <= 0 {
			t.Errorf("%s: no CPU profile over its pages: %+v", c.Name, pr)
			continue
		}
		if _, err := os.Stat(pr.File); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		for _, s := range pr.Stages {
			got[s.Name] += s.CPU
		}
	}
	for _, name := range must {
		if got[name] <= 0 {
			t.Errorf("stage %q has no CPU in any corpus's profile (its functions renamed?)", name)
		}
	}
}

func checkCorpus(t *testing.T, c *report.Corpus) {
	if c.Pages == 0 || c.PagesPerSec <= 0 || len(c.Latencies) == 0 || c.Wall <= 0 {
		t.Errorf("nothing measured: %d pages at %.1f pages/s, %d latencies", c.Pages, c.PagesPerSec, len(c.Latencies))
	}
	s := c.Score
	if s == nil {
		t.Fatal("not scored")
	}
	if s.TextWords != 0 {
		t.Errorf("%d words extractable from the outputs: not flattened", s.TextWords)
	}
	if c.Name == "real" {
		// Real documents may legitimately fail (damaged or unsupported
		// files); the report counts them.
		if s.Unlabelled.Total == 0 && c.Failed < c.Docs {
			t.Error("no words of real documents measured")
		}
		return
	}
	if c.Failed != 0 || len(s.Invalid) != 0 {
		t.Errorf("%d jobs failed; invalid outputs: %v", c.Failed, s.Invalid)
	}
	if s.Docs != c.Docs || s.Pages != c.Pages {
		t.Errorf("scored %d docs / %d pages, corpus has %d / %d", s.Docs, s.Pages, c.Docs, c.Pages)
	}
	rc := s.Recall()
	if rc.Total == 0 || rc.Rate() < 0 || rc.Rate() > 1 {
		t.Errorf("recall not computed: %+v", rc)
	}
	if s.Plain.Total == 0 {
		t.Error("over-redaction not computed: no plain words")
	}
	inc := s.Words[page.IncludedTerm]
	if inc == nil || inc.Total == 0 {
		t.Fatal("no included terms in the corpus")
	}
	// On text-layer pages every included term must be masked; on images
	// that depends on OCR reading it, so there only leaks count.
	if textLayer := c.Name == "text" || c.Name == "long"; textLayer && inc.Masked != inc.Total {
		t.Errorf("included terms masked %d of %d", inc.Masked, inc.Total)
	}
	if s.LeaksText[page.IncludedTerm] != 0 || s.LeaksOCR[page.IncludedTerm] != 0 {
		t.Errorf("included terms leaked: %d by MuPDF, %d by OCR", s.LeaksText[page.IncludedTerm], s.LeaksOCR[page.IncludedTerm])
	}
	t.Logf("%s: %.1f pages/s, recall %.1f%%, over-redaction %.1f%%, OCR pages %d (%s)", c.Name, c.PagesPerSec,
		100*rc.Rate(), 100*s.Plain.Rate(), s.OCRPages, time.Duration(c.Wall).Round(time.Millisecond))
}

// TestOCRSection runs the OCR comparison alone (bench --only ocr) on two
// pages of the shared documents: redactd's OCR must have read them with a
// sane error rate, and Tesseract too where it is installed (it says it is
// missing otherwise); both rows and both targets must be in the report.
func TestOCRSection(t *testing.T) {
	if testing.Short() {
		t.Skip("runs redactd's OCR models")
	}
	data := shareddata.Dir()
	if _, err := os.Stat(filepath.Join(data, "documents")); err != nil {
		t.Skipf("shared documents not available: %v", err)
	}
	if _, err := ocr.ModelDir(""); err != nil {
		t.Skipf("OCR models not set up: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "OCR.md")
	rep := runBench(t, out, "--only", "ocr", "--ocr-eval-pages=2", "--data", data, "--out", out,
		"--work", filepath.Join(dir, "work"), "--timeout", "2m")
	o := rep.OCR
	if o == nil || o.Err != "" {
		t.Fatalf("OCR comparison did not run: %+v", o)
	}
	// The default recogniser, Tesseract, the other recogniser.
	if len(o.Pages) != 2 || len(o.Systems) != 3 {
		t.Fatalf("%d pages, %d systems; want 2 and 3", len(o.Pages), len(o.Systems))
	}
	for i, m := range []string{ocr.DefaultModel, "tesseract", ""} {
		if name := o.Systems[i].Name; m != "" && !strings.Contains(name, m) {
			t.Errorf("system %d is %q, want %s", i, name, m)
		}
	}
	if a, b := o.Systems[0].Name, o.Systems[2].Name; a == b || !strings.Contains(a+b, ocr.ModelLatin) || !strings.Contains(a+b, ocr.ModelPPOCRv4) {
		t.Errorf("recognisers compared: %q and %q", a, b)
	}
	for _, s := range o.Systems {
		if s.Missing != "" {
			t.Logf("%s: %s", s.Name, s.Missing)
			continue
		}
		// Clean renders of text pages: any working OCR reads most of them.
		if s.Err != "" || s.Pages != 2 || s.PagesPerSec() <= 0 || !(s.CER >= 0 && s.CER < 0.5) || !(s.WordRecall > 0.5) {
			t.Errorf("%s: %+v", s.Name, s)
		}
		t.Logf("%s: %.2f pages/s, CER %.2f%%, word recall %.1f%%", s.Name, s.PagesPerSec(), 100*s.CER, 100*s.WordRecall)
	}
	if s := o.Systems[0]; s.Missing != "" {
		t.Errorf("redactd's OCR reported missing: %s", s.Missing)
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## OCR accuracy and speed", "OCR CER on 200-dpi renders of shared documents", "OCR pages/s vs Tesseract", "| tesseract |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(string(md), "## Throughput") {
		t.Error("--only ocr report has the server sections")
	}
}

// runBench runs the bench with args, as its command line would, and
// writes the report to out.
func runBench(t *testing.T, out string, args ...string) *report.Report {
	t.Helper()
	cfg, err := parseFlags(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	rep, err := run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Write(out, rep); err != nil {
		t.Fatal(err)
	}
	return rep
}
