package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/redactd/redactd/engine/detect/eval"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/models/ner"
)

// tables holds what the service masks on one split of every corpus: the
// NER corpora (rows) and presidio's generated sets (scored on all
// categories).
type tables struct {
	split    string
	rows     []eval.DomainRow
	presidio []presidioRow
}

type presidioRow struct {
	name string
	rep  eval.Report
}

// presidioCats are the categories shown for the generated sets.
var presidioCats = []page.Category{page.Person, page.Organization, page.Address, page.Email,
	page.PhoneNumber, page.Date, page.IBAN, page.CreditCard}

// domainTables scores the service (recognizers + built-in model through
// detect.Run) on the test split (or, with dev, the dev split) of every
// NER corpus under root, and on presidio's generated_large and
// generated_small (both in full: generated_large is the set rules were
// tuned on until issue 14, generated_small is held out; neither has a dev
// part, so both show in either table).
func domainTables(m *ner.Model, root, large, small string, dev bool) (tables, error) {
	t := tables{split: "test"}
	if dev {
		t.split = "dev"
	}
	splits, err := eval.HeldOut(root)
	if err != nil {
		return t, err
	}
	ds, err := serviceDetectors(m)
	if err != nil {
		return t, err
	}
	ctx := context.Background()
	for _, s := range splits {
		recs, src := s.Records, s.Source
		if dev {
			recs, src = s.Dev, s.DevSource
		}
		if len(recs) == 0 {
			continue
		}
		rep, err := eval.EvaluateDomain(ctx, ds, recs)
		if err != nil {
			return t, err
		}
		t.rows = append(t.rows, eval.DomainRow{Name: s.Name, Domain: s.Domain, Split: src, Report: rep})
	}
	for _, f := range []struct{ name, path string }{{"generated_large", large}, {"generated_small", small}} {
		recs, err := eval.LoadPresidio(f.path)
		if err != nil {
			return t, err
		}
		rep, err := eval.Evaluate(ctx, ds, recs, eval.Options{})
		if err != nil {
			return t, err
		}
		t.presidio = append(t.presidio, presidioRow{f.name, rep})
	}
	return t, nil
}

// markdown renders both tables.
func (t tables) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nService masking on the %s split of every NER corpus (word level; place names not counted in masking):\n\n", t.split)
	b.WriteString(eval.DomainTable(t.rows))
	b.WriteString("\nService masking on presidio-research's generated sets (word level, all categories; R / P):\n\n| set | words |")
	for _, c := range presidioCats {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString(" masking |\n|---|---:|")
	for range presidioCats {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	for _, r := range t.presidio {
		fmt.Fprintf(&b, "| %s | %d |", r.name, r.rep.Words)
		for _, c := range presidioCats {
			k := r.rep.PerCategory[c]
			if k.TP+k.FN == 0 {
				b.WriteString(" – |")
				continue
			}
			fmt.Fprintf(&b, " %.3f / %.3f |", k.Recall(), k.Precision())
		}
		fmt.Fprintf(&b, " %.3f / %.3f |\n", r.rep.Masking.Recall(), r.rep.Masking.Precision())
	}
	return b.String()
}

// json is the tables as the manifest keeps them.
func (t tables) json() map[string]any {
	out := map[string]any{
		"what":  "word-level recall/precision of what the service masks (recognizers + NER through engine/detect.Run) on the " + t.split + " split of every corpus; NER corpora asked for Person, Organization and Address, place names counted apart (places_masked); generated sets on all categories",
		"split": t.split,
	}
	for _, r := range t.rows {
		out[r.Name] = map[string]any{
			"domain": r.Domain, "split": r.Split, "records": r.Report.Records, "words": r.Report.Words,
			"Person": catOf(r.Report.Person), "Organization": catOf(r.Report.Organization),
			"masking": catOf(r.Report.Masking), "places_masked": round(r.Report.Location.Recall()),
		}
	}
	for _, r := range t.presidio {
		per := map[string]catScore{}
		for c, k := range r.rep.PerCategory {
			per[string(c)] = catOf(k)
		}
		out[r.name] = map[string]any{"records": r.rep.Records, "words": r.rep.Words, "categories": per, "masking": catOf(r.rep.Masking)}
	}
	return out
}
