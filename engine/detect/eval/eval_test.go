package eval

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"

	"github.com/redactd/redactd/internal/shareddata"
)

var (
	presidioPath = flag.String("presidio", shareddata.Path("pii", "presidio_research", "generated_large.json"), "presidio-research generated_large.json")
	examples     = flag.Int("examples", 0, "print this many missed and false words per category")
)

func loadOrSkip(t *testing.T) []Record {
	t.Helper()
	if _, err := os.Stat(*presidioPath); err != nil {
		t.Skipf("presidio data not available: %v", err)
	}
	recs, err := LoadPresidio(*presidioPath)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestPresidioEval prints the word-level scores of the pattern recognizers
// on presidio-research's synthetic corpus. The NER detector joins them in
// models/ner's evaluation.
func TestPresidioEval(t *testing.T) {
	recs := loadOrSkip(t)
	ds, err := detect.Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), ds, recs, Options{Examples: *examples})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s\nrun time %v for %d records", rep.Markdown(), rep.Elapsed, rep.Records)
	for _, c := range page.Categories {
		for _, m := range rep.Misses[c] {
			t.Logf("miss %s: %s", c, m)
		}
		for _, m := range rep.FalseHits[c] {
			t.Logf("false %s: %s", c, m)
		}
	}
	// The validated recognizers must do their job on this corpus; the
	// floors are far below the measured values (see the report) and
	// catch a recognizer that broke, not a small regression.
	for c, floor := range map[page.Category]float64{page.Email: 0.9, page.IBAN: 0.9, page.CreditCard: 0.9, page.Date: 0.5, page.PhoneNumber: 0.3} {
		if r := rep.PerCategory[c].Recall(); r < floor {
			t.Errorf("%s recall %.3f below %.2f", c, r, floor)
		}
	}
}

var wikigoldPath = flag.String("wikigold", shareddata.Path("ner", "wikigold", "wikigold.conll.txt"), "wikigold CoNLL file")

// TestWikigoldEval measures the gazetteer person and organization
// recognizers on real Wikipedia text, where capitalised words that are not
// names abound: it is the false-positive check for them.
func TestWikigoldEval(t *testing.T) {
	if _, err := os.Stat(*wikigoldPath); err != nil {
		t.Skipf("wikigold not available: %v", err)
	}
	recs, err := LoadCoNLL(*wikigoldPath)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := detect.Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), ds, recs, Options{Examples: *examples, Categories: []page.Category{page.Person, page.Organization}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep.Markdown())
	for _, c := range []page.Category{page.Person, page.Organization} {
		for _, m := range rep.Misses[c] {
			t.Logf("miss %s: %s", c, m)
		}
		for _, m := range rep.FalseHits[c] {
			t.Logf("false %s: %s", c, m)
		}
	}
	if p := rep.PerCategory[page.Person].Precision(); p < 0.5 {
		t.Errorf("person precision %.3f on wikigold: the gazetteer rules mask too many ordinary words", p)
	}
}
