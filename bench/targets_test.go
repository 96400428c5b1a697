package main

import (
	"testing"

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
