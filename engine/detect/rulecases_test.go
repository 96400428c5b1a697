package detect

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/redactd/redactd/engine/page"
)

// TestRuleCases runs the cases of the context rules and the address
// recognizer in testdata/rules, one file per rule family, in pebble's
// datadriven format, without the NER model (TestDecisions runs the
// service's detectors). Each case is
//
//	run [recognizers] [categories=Person,Address]
//	Person: Jacob Smith
//	--
//	Please ask Dr. Jacob Smith today.
//	----
//	Person: Dr. Jacob Smith
//
// The lines before "--" (optional, with the "--") mark the words a
// detector found, as the NER model would: "Category: words" is one span
// over the first run of those exact words, so a rule is tested apart from
// the model. "recognizers" adds every pattern recognizer; without it only
// the marks are detected. categories is Options.Categories. What follows
// is the page's text, one page line per line. The expected output is one
// line per final span, "Category: text", a line break inside a span
// written as \n; "nothing" when no span is left.
//
//	recognize address
//	text
//
// runs the named recognizer alone (no merge, no rules) and prints its
// spans the same way.
//
// Adding a case needs no Go; `go test -run TestRuleCases ./engine/detect/
// -rewrite` rewrites the expectations from what the code does (read the
// diff before committing it).
func TestRuleCases(t *testing.T) {
	datadriven.Walk(t, "testdata/rules", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "run":
				return runCase(t, d)
			case "recognize":
				return recognizeCase(t, d)
			}
			d.Fatalf(t, "unknown command %q", d.Cmd)
			return ""
		})
	})
}

func runCase(t *testing.T, d *datadriven.TestData) string {
	var (
		ds   []Detector
		opts Options
	)
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "recognizers":
			ds = append(allRecs(t), ds...)
		case "categories":
			for _, v := range strings.Split(strings.Join(a.Vals, ","), ",") {
				c, ok := page.ParseCategory(v)
				if !ok {
					d.Fatalf(t, "unknown category %q", v)
				}
				opts.Categories = append(opts.Categories, c)
			}
		default:
			d.Fatalf(t, "unknown argument %q", a.Key)
		}
	}
	text := d.Input
	if marks, rest, ok := strings.Cut(d.Input, "\n--\n"); ok {
		text = rest
		for _, m := range strings.Split(marks, "\n") {
			cat, words, ok := strings.Cut(m, ": ")
			c, known := page.ParseCategory(cat)
			if !ok || !known || words == "" {
				d.Fatalf(t, "mark %q: want \"Category: words\"", m)
			}
			ds = append(ds, wordsOf{c, words})
		}
	}
	p, _ := PageFromText(text)
	spans, err := Run(context.Background(), p, ds, opts)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	return renderSpans(p, spans)
}

func recognizeCase(t *testing.T, d *datadriven.TestData) string {
	if len(d.CmdArgs) != 1 {
		d.Fatalf(t, "recognize takes one recognizer's name")
	}
	vd, ok := rec(t, d.CmdArgs[0].Key)[0].(ViewDetector)
	if !ok {
		d.Fatalf(t, "%s is no ViewDetector", d.CmdArgs[0].Key)
	}
	p, _ := PageFromText(d.Input)
	return renderSpans(p, vd.DetectView(PageView(p)))
}

// renderSpans writes one line per span: its category and the text it
// covers, line breaks as \n; "nothing" for none.
func renderSpans(p *page.Page, spans []page.Span) string {
	var b strings.Builder
	for _, s := range describe(p, spans) {
		c, text, _ := strings.Cut(s, ":")
		fmt.Fprintf(&b, "%s: %s\n", c, strings.ReplaceAll(text, "\n", `\n`))
	}
	if b.Len() == 0 {
		return "nothing\n"
	}
	return b.String()
}

// wordsOf is a detector that returns the words given, as one span of one
// category: the stand-in for whatever detector found an entity's core,
// so growth is tested apart from the model.
type wordsOf struct {
	cat   page.Category
	words string // exact text of consecutive words
}

func (f wordsOf) Name() string { return "wordsOf" }

func (f wordsOf) Detect(_ context.Context, p *page.Page) ([]page.Span, error) {
	want := strings.Fields(f.words)
	for i := 0; i+len(want) <= len(p.Words); i++ {
		ok := true
		for k, w := range want {
			ok = ok && p.Words[i+k].Text == w
		}
		if ok {
			return []page.Span{{First: i, Last: i + len(want) - 1, Category: f.cat, Score: 0.9}}, nil
		}
	}
	return nil, nil
}
