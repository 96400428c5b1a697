package detect

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/redactd/redactd/engine/page"
)

// TestRuleCases runs the cases of the context rules and recognizers in
// testdata/rules (one file per rule family) and of the pattern recognizers
// in testdata/patterns (one file per recognizer), in pebble's datadriven
// format, without the NER model (TestDecisions runs the service's
// detectors). Each case is
//
//	run [recognizers] [recognizer=email] [categories=Person,Address]
//	Person: Jacob Smith
//	--
//	Please ask Dr. Jacob Smith today.
//	----
//	Person: Dr. Jacob Smith
//
// The lines before "--" (optional, with the "--") mark the words a
// detector found, as the NER model would: "Category: words" is one span
// over the first run of those exact words (score 0.9), so a rule is
// tested apart from the model. "Person by=ner score=0.7: words" gives the
// span a recognizer's name (the drop rules single out the NER model's,
// "ner") and a score; "Person runes=3: Don't" ends it inside its last
// word, as the model's "Don" of "Don't". "recognizers" adds every
// recognizer, "recognizer=email" the one named; without them only the
// marks are detected. categories is Options.Categories. What follows is
// the page's text, one page line per line. The expected output is one
// line per final span, "Category: text", a line break inside a span
// written as \n; "nothing" when no span is left.
//
//	recognize address
//	text
//
// runs the named recognizer alone (no merge, no rules) and prints its
// spans the same way.
//
// Both take "layout" to give the words geometry on a Letter page (6 pt a
// character, lines 14 pt apart from the top margin): a line ending in
// " |" is set so that the page's right edge cuts its last word (the "|"
// is not text), and "layout=bottom" sets the last line across the
// bottom edge. Without it words have no geometry.
//
// A file of testdata/rules named after a rule of the registry holds that
// rule's cases (rules.TestRegistryFiles requires one for every rule), and
// one of its run cases must give other spans with the rule switched off
// (Options.DisabledRules), so that the file tests the rule it is named
// after.
//
// Adding a case needs no Go; `go test -run TestRuleCases ./engine/detect/
// -rewrite` rewrites the expectations from what the code does (read the
// diff before committing it).
func TestRuleCases(t *testing.T) {
	for _, dir := range []string{"testdata/rules", "testdata/patterns"} {
		t.Run(filepath.Base(dir), func(t *testing.T) { ruleCases(t, dir) })
	}
}

func ruleCases(t *testing.T, dir string) {
	datadriven.Walk(t, dir, func(t *testing.T, path string) {
		rule := registeredRule(filepath.Base(path))
		changed := false
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "run":
				out := runCase(t, d, nil)
				if rule != "" && !changed {
					changed = runCase(t, d, []string{rule}) != out
				}
				return out
			case "recognize":
				return recognizeCase(t, d)
			}
			d.Fatalf(t, "unknown command %q", d.Cmd)
			return ""
		})
		if rule != "" && !changed {
			t.Errorf("%s: no case's spans change when rule %s is off", path, rule)
		}
	})
}

// registeredRule returns name when it names a rule of the registry
// (Rules), else "". A rule's datadriven file is named after it
// (rules.TestRegistryFiles requires one for every rule), and one of its
// run cases must give other spans with the rule switched off, so that
// the file tests the rule it is named after.
func registeredRule(name string) string {
	for _, r := range Rules {
		if r.Name == name {
			return name
		}
	}
	return ""
}

// runCase runs a run case with the rules named in off switched off.
func runCase(t *testing.T, d *datadriven.TestData, off []string) string {
	var (
		ds     []Detector
		opts   = Options{DisabledRules: off}
		layout bool
		bottom bool
	)
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "recognizers":
			ds = append(allRecs(t), ds...)
		case "recognizer":
			for _, v := range a.Vals {
				ds = append(rec(t, v), ds...)
			}
		case "layout":
			layout = true
			bottom = len(a.Vals) > 0 && a.Vals[0] == "bottom"
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
		for _, l := range strings.Split(marks, "\n") {
			m, err := parseMark(l)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			ds = append(ds, m)
		}
	}
	p := casePage(text, layout, bottom)
	spans, err := Run(context.Background(), p, ds, opts)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	return renderSpans(p, spans)
}

func recognizeCase(t *testing.T, d *datadriven.TestData) string {
	var name string
	layout, bottom := false, false
	for _, a := range d.CmdArgs {
		if a.Key == "layout" {
			layout = true
			bottom = len(a.Vals) > 0 && a.Vals[0] == "bottom"
		} else if name == "" {
			name = a.Key
		} else {
			d.Fatalf(t, "recognize takes one recognizer's name")
		}
	}
	vd, ok := rec(t, name)[0].(ViewDetector)
	if !ok {
		d.Fatalf(t, "%s is no ViewDetector", name)
	}
	p := casePage(d.Input, layout, bottom)
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

// mark is a detector that returns one span over the first run of the
// given words: the stand-in for whatever detector found an entity, so a
// rule is tested apart from the model.
type mark struct {
	cat   page.Category
	words string // exact text of consecutive words
	rec   string // the span's Recognizer ("" unless by= is given)
	score float32
	runes int // when > 0, the span ends after this rune of its last word
}

func (m mark) Name() string { return "mark" }

func (m mark) Detect(_ context.Context, p *page.Page) ([]page.Span, error) {
	want := strings.Fields(m.words)
	for i := 0; i+len(want) <= len(p.Words); i++ {
		ok := true
		for k, w := range want {
			ok = ok && p.Words[i+k].Text == w
		}
		if ok {
			return []page.Span{{First: i, Last: i + len(want) - 1, End: m.runes, Category: m.cat, Score: m.score, Recognizer: m.rec}}, nil
		}
	}
	return nil, nil
}

// parseMark reads a mark line: "Category[ by=recognizer][ score=S][
// runes=N]: words". The score is 0.9 unless given.
func parseMark(line string) (mark, error) {
	head, words, ok := strings.Cut(line, ": ")
	f := strings.Fields(head)
	if !ok || len(f) == 0 || strings.TrimSpace(words) == "" {
		return mark{}, fmt.Errorf("mark %q: want \"Category[ by=rec][ score=S][ runes=N]: words\"", line)
	}
	c, known := page.ParseCategory(f[0])
	if !known {
		return mark{}, fmt.Errorf("mark %q: unknown category %q", line, f[0])
	}
	m := mark{cat: c, words: words, score: 0.9}
	for _, kv := range f[1:] {
		k, v, _ := strings.Cut(kv, "=")
		var err error
		switch k {
		case "by":
			m.rec = v
		case "score":
			var x float64
			x, err = strconv.ParseFloat(v, 32)
			m.score = float32(x)
		case "runes":
			m.runes, err = strconv.Atoi(v)
		default:
			err = fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return mark{}, fmt.Errorf("mark %q: %w", line, err)
		}
	}
	return m, nil
}

// casePage is the page of a case's text: PageFromText's, and with layout
// the geometry described at TestRuleCases.
func casePage(text string, layout, bottom bool) *page.Page {
	if !layout {
		p, _ := PageFromText(text)
		return p
	}
	lines := strings.Split(text, "\n")
	cut := make([]bool, len(lines))
	for i, l := range lines {
		if t, ok := strings.CutSuffix(l, " |"); ok {
			lines[i], cut[i] = t, true
		}
	}
	text = strings.Join(lines, "\n")
	p, offs := PageFromText(text)
	p.Width, p.Height = 612, 792
	const char, height, lead, margin = 6.0, 10.0, 14.0, 72.0
	lineStart := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lineStart = append(lineStart, i+1)
		}
	}
	for i := range p.Words {
		w := &p.Words[i]
		l := w.Line
		x := margin + char*float64(offs[i]-lineStart[l])
		if cut[l] {
			// The line's end lies 3 pt past the right edge.
			x += p.Width + 3 - (margin + char*float64(len(lines[l])))
		}
		y := margin + lead*float64(l)
		if bottom && l == len(lines)-1 {
			y = p.Height - height/2
		}
		w.Quad = page.QuadFromRect(page.Rect{X0: x, Y0: y, X1: x + char*float64(len(w.Text)), Y1: y + height})
	}
	return p
}
