package main

import (
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/score"
	"github.com/redactd/redactd/engine/page"
)

func TestDetectionTargets(t *testing.T) {
	corpus := func(plainMasked int, words map[page.Category][2]int) *report.Corpus {
		s := score.NewResult()
		for cat, n := range words {
			s.Words[cat] = &score.Count{Total: n[0], Masked: n[1]}
		}
		s.Plain = score.Count{Total: 10000, Masked: plainMasked}
		return &report.Corpus{Name: "text", Score: s}
	}
	good := map[page.Category][2]int{
		page.Person: {1000, 980}, page.PhoneNumber: {100, 96}, page.Email: {50, 50}, page.IBAN: {20, 20},
		page.CreditCard: {30, 30}, page.Address: {800, 760}, page.IncludedTerm: {10, 0}, // terms do not count
	}
	for _, c := range []struct {
		name string
		c    *report.Corpus
		want []string // recall, exact, person/phone, precision
	}{
		{"all met", corpus(100, good), []string{"pass", "pass", "pass", "pass"}},
		{"too many other words masked", corpus(400, good), []string{"pass", "pass", "pass", "FAIL"}},
		{"an IBAN missed, a name too many", corpus(100, map[page.Category][2]int{
			page.Person: {1000, 940}, page.PhoneNumber: {100, 96}, page.Email: {50, 50}, page.IBAN: {20, 19},
			page.CreditCard: {30, 30}, page.Address: {800, 790}}), []string{"pass", "FAIL", "FAIL", "pass"}},
		{"not scored", nil, []string{"", "", "", ""}},
	} {
		ts := detectionTargets(c.c)
		if len(ts) != len(c.want) {
			t.Fatalf("%s: %d targets", c.name, len(ts))
		}
		for i, tg := range ts {
			if tg.Status != c.want[i] {
				t.Errorf("%s: %s: %q (%s), want %q", c.name, tg.Name, tg.Status, tg.Measured, c.want[i])
			}
		}
	}
}

// TestOCRTargetsJudgeTheDefault: the OCR targets judge the first redactd
// system (the default recogniser), not the other one listed after
// Tesseract; the gate row compares redactd-latin with PP-OCRv4.
func TestOCRTargetsJudgeTheDefault(t *testing.T) {
	sys := func(name string, cer, recall float64, pages int) report.OCRSystem {
		return report.OCRSystem{Name: name, Pages: pages, Wall: time.Duration(pages) * time.Second, CER: cer, WordRecall: recall, Chars: 1000}
	}
	o := &report.OCR{Systems: []report.OCRSystem{
		sys("redactd OCR (models/ocr, ppocrv4)", 0.018, 0.919, 24),
		sys("tesseract", 0.07, 0.85, 12),
		sys("redactd OCR (models/ocr, redactd-latin)", 0.05, 0.80, 24),
	}}
	ts := ocrTargets(o)
	if len(ts) != 3 {
		t.Fatalf("%d targets, want CER, speed and the recogniser gate", len(ts))
	}
	if ts[0].Status != "pass" || !strings.Contains(ts[0].Measured, "1.80%") {
		t.Errorf("CER target judged the wrong system: %+v", ts[0])
	}
	if g := ts[2]; g.Status != "FAIL" || !strings.Contains(g.Measured, "+3.20") || !strings.Contains(g.Measured, "-11.9") {
		t.Errorf("gate: %+v", g)
	}
	o.Systems[2] = sys("redactd OCR (models/ocr, redactd-latin)", 0.022, 0.912, 24)
	if g := ocrTargets(o)[2]; g.Status != "pass" {
		t.Errorf("gate within 0.5 and 1 point: %+v", g)
	}
}

// TestRecogniserTarget: the gate through the service fails when the
// default recogniser masks fewer words than PP-OCRv4 in any category of
// any OCR'd corpus, and holds on a tie.
func TestRecogniserTarget(t *testing.T) {
	scored := func(name string, person, address int) *report.Corpus {
		s := score.NewResult()
		s.Words[page.Person] = &score.Count{Total: 195, Masked: person}
		s.Words[page.Address] = &score.Count{Total: 370, Masked: address}
		return &report.Corpus{Name: name, Score: s}
	}
	rep := func(own, ref []*report.Corpus) *report.Report {
		return &report.Report{Corpora: own, Recogniser: &report.Recogniser{Model: "ppocrv4", Corpora: ref}}
	}
	for _, c := range []struct {
		name     string
		r        *report.Report
		want     string
		measured string
	}{
		{"more and tied", rep([]*report.Corpus{scored("scan", 190, 360), scored("photo", 193, 351)},
			[]*report.Corpus{scored("scan", 190, 358), scored("photo", 193, 350)}), "pass", "photo 544 vs 543"},
		{"one Person word short on photos", rep([]*report.Corpus{scored("scan", 190, 360), scored("photo", 192, 351)},
			[]*report.Corpus{scored("scan", 190, 358), scored("photo", 193, 350)}), "FAIL", "photo Person 192 < 193 of 195"},
		{"reference not run", &report.Report{}, "", ""},
	} {
		g := recogniserTarget(c.r)
		if g.Status != c.want || !strings.Contains(g.Measured, c.measured) {
			t.Errorf("%s: %+v, want %q with %q", c.name, g, c.want, c.measured)
		}
	}
}

// TestScanLoadTarget: the memory target of 16 concurrent scan jobs fails
// over 1 GiB or with a failed job, and says so when the run under load
// did not happen.
func TestScanLoadTarget(t *testing.T) {
	load := func(rss int64, failed, conc int) *report.Corpus {
		return &report.Corpus{Name: "scan", Load: &report.Load{Jobs: 20, Concurrency: conc, PagesPerSec: 3.1, Failed: failed, PeakRSS: rss}}
	}
	for _, c := range []struct {
		name, want, note string
		scan             *report.Corpus
	}{
		{"within", "pass", "", load(900<<20, 0, 16)},
		{"over 1 GiB", "FAIL", "", load(1100<<20, 0, 16)},
		{"a job failed", "FAIL", "", load(900<<20, 1, 16)},
		{"lighter load", "pass", "fewer than 16", load(900<<20, 0, 8)},
		{"not run", "", "not run", &report.Corpus{Name: "scan"}},
		{"no scan corpus", "", "not run", nil},
	} {
		g := scanLoadTarget(c.scan)
		if g.Status != c.want || !strings.Contains(g.Note, c.note) {
			t.Errorf("%s: %+v, want %q with note %q", c.name, g, c.want, c.note)
		}
	}
}
