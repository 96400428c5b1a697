package detect_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/models/ner"
	"github.com/redactd/redactd/models/ort"
)

// TestDecisions runs the category decisions in testdata/decisions (one
// file per decision, pebble's datadriven format) through detect.Run with
// the detectors the service runs: the recognizers and the built-in NER
// model. Each case is
//
//	detect [categories=Person,Address] [include=term,...] [exclude=term,...]
//	input text (lines are page lines)
//	----
//	Category: masked words
//
// Adding a case needs no Go; `go test -run TestDecisions ./engine/detect/
// -rewrite` rewrites the expectations from what the code does (read the
// diff before committing it). Where ONNX Runtime is not installed the
// files that need the model (first line "# needs: ner") are skipped and the
// others run on the recognizers alone (their categories are the
// recognizers').
func TestDecisions(t *testing.T) {
	ds, withNER := serviceDetectors(t)
	datadriven.Walk(t, "testdata/decisions", func(t *testing.T, path string) {
		if b, err := os.ReadFile(path); err == nil && strings.HasPrefix(string(b), "# needs: ner") && !withNER {
			t.Skip("needs the NER model; ONNX Runtime is not installed (run `make setup`)")
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "detect" {
				d.Fatalf(t, "unknown command %q", d.Cmd)
			}
			var opts detect.Options
			for _, a := range d.CmdArgs {
				switch a.Key {
				case "categories":
					for _, v := range a.Vals {
						c, ok := page.ParseCategory(v)
						if !ok {
							d.Fatalf(t, "unknown category %q", v)
						}
						opts.Categories = append(opts.Categories, c)
					}
				case "include":
					opts.Included = a.Vals
				case "exclude":
					opts.Excluded = a.Vals
				default:
					d.Fatalf(t, "unknown argument %q", a.Key)
				}
			}
			p, _ := detect.PageFromText(d.Input)
			spans, err := detect.Run(context.Background(), p, ds, opts)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			var b strings.Builder
			for _, s := range spans {
				fmt.Fprintf(&b, "%s: %s\n", s.Category, spanText(p, s))
			}
			if b.Len() == 0 {
				return "nothing\n"
			}
			return b.String()
		})
	})
}

// spanText is the masked text of s: its words joined by single spaces,
// cut at the span's rune offsets in its first and last word.
func spanText(p *page.Page, s page.Span) string {
	var ws []string
	for i := s.First; i <= s.Last; i++ {
		r := []rune(p.Words[i].Text)
		a, b := 0, len(r)
		if i == s.First {
			a = min(s.Start, b)
		}
		if i == s.Last && s.End > 0 {
			b = min(s.End, b)
		}
		ws = append(ws, string(r[a:max(a, b)]))
	}
	return strings.Join(ws, " ")
}

var (
	nerOnce sync.Once
	nerDs   []detect.Detector
	nerErr  error
)

// serviceDetectors are the recognizers and the built-in NER model, as
// engine/pipeline wires them, and true; the recognizers alone and false
// where ONNX Runtime is not installed.
func serviceDetectors(t *testing.T) ([]detect.Detector, bool) {
	if _, err := ort.FindLibrary(""); err != nil {
		rs, err := detect.Recognizers()
		if err != nil {
			t.Fatal(err)
		}
		return rs, false
	}
	nerOnce.Do(func() {
		if nerErr = ort.Init(ort.Options{Threads: 1}); nerErr != nil {
			return
		}
		m, err := ner.Load(ner.Builtin, ner.Options{})
		if err != nil {
			nerErr = err
			return
		}
		nerDs, nerErr = pipeline.Detectors(m, nil)
	})
	if nerErr != nil {
		t.Fatal(nerErr)
	}
	return nerDs, true
}

// TestRuleExamples checks the rule registry: names are unique, every
// rule says what it is and touches, and switching a rule off changes the
// spans of its own example (so an example cannot rot into one the rule
// no longer affects, and a rule that does nothing shows).
func TestRuleExamples(t *testing.T) {
	ds, withNER := serviceDetectors(t)
	recognizers := ds
	if withNER {
		recognizers = ds[:len(ds)-1]
	}
	seen := map[string]bool{}
	for _, r := range detect.Rules {
		if r.Name == "" || seen[r.Name] || r.Kind == "" || r.Example == "" || r.Effect == "" || r.Scope == "" {
			t.Errorf("rule %+v: empty or repeated field", r.Name)
		}
		seen[r.Name] = true
		p, _ := detect.PageFromText(r.Example)
		rds := ds
		switch r.Name {
		case "drop-amount-rows":
			// The built-in model no longer reads invoice rows as
			// addresses; the rule guards the models a user brings.
			rds = append(slices.Clip(ds), modelReads{c: page.Address})
		case "grow-organization":
			// No input was found where the built-in stack needs it:
			// a model that reads only "Google Public Data" stands in
			// alone.
			rds = []detect.Detector{modelReads{c: page.Organization, word: "Google Public Data"}}
		case "drop-common-words":
			// The built-in model reads a lone "Notes" as an
			// organisation since it trained on page windows; a model
			// that reads it as a person stands in beside the
			// recognizers.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Person, word: "Notes"})
		case "affiliations":
			// The built-in model reads "Muckrockcom" between the two
			// people as a third one; a model that reads only the two
			// people stands in.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Person, word: ">Haley Fukunaga"},
				modelReads{c: page.Person, word: ">Christopher Roseby"})
		case "trim-lowercase-names":
			// A model that runs a name on into the Portuguese words
			// after it stands in beside the recognizers.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Person, word: "a Maria Santos e"})
		case "trim-noun-of":
			// A model that reads the noun and its article into the
			// name stands in beside the recognizers.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Organization, word: "Fläche der Volksrepublik China"})
		case "trim-german-clauses":
			// A model that reads a German headline as one firm's name
			// stands in beside the recognizers.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Organization, word: "Lufthansa streicht acht Prozent der Arbeitsplätze"})
		case "trim-portfolios":
			// A model that reads the portfolio and the minister's name
			// as one person stands in beside the recognizers.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Person, word: "Financiën, Gerrit Zalm,"})
		case "trim-address-sentences":
			// A model that runs an address on into the French sentence
			// after it stands in beside the recognizers.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Address,
				word: "161 bis impasse de la République, 89332 Marignane, la commission a décidé de faire droit"})
		case "trim-pattern-edges":
			// A model that reads a DNI's label and number as an address
			// stands in beside the recognizers.
			rds = append(slices.Clip(recognizers), modelReads{c: page.Address, word: "con DNI n.º 42957217W"})
		case "address-blocks":
			// The built-in model finds such blocks itself.
			rds = recognizers
		}
		on, err := detect.Run(context.Background(), p, rds, detect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		off, err := detect.Run(context.Background(), p, rds, detect.Options{DisabledRules: []string{r.Name}})
		if err != nil {
			t.Fatal(err)
		}
		render := func(ss []page.Span) string {
			var b strings.Builder
			for _, s := range ss {
				fmt.Fprintf(&b, "%s: %s; ", s.Category, spanText(p, s))
			}
			return b.String()
		}
		if render(on) == render(off) {
			if !withNER {
				continue // the example may need the model's spans
			}
			t.Errorf("rule %s: its example %q gives %q with or without it", r.Name, r.Example, render(on))
			continue
		}
		t.Logf("%s: %q: %q without it, %q with it", r.Name, r.Example, render(off), render(on))
	}
}

// modelReads is a detector named as the NER model's that reads the whole
// page (or each occurrence of the words of word) as one span of its
// category.
type modelReads struct {
	c    page.Category
	word string
}

func (modelReads) Name() string { return "ner" }

func (m modelReads) Detect(_ context.Context, p *page.Page) ([]page.Span, error) {
	if len(p.Words) == 0 {
		return nil, nil
	}
	if m.word == "" {
		return []page.Span{{First: 0, Last: len(p.Words) - 1, Category: m.c, Score: 0.8, Recognizer: "ner"}}, nil
	}
	var out []page.Span
	ws := strings.Fields(m.word)
	for i := 0; i+len(ws) <= len(p.Words); i++ {
		match := true
		for k, w := range ws {
			match = match && p.Words[i+k].Text == w
		}
		if match {
			out = append(out, page.Span{First: i, Last: i + len(ws) - 1, Category: m.c, Score: 0.8, Recognizer: "ner"})
		}
	}
	return out, nil
}
