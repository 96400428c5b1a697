package detect

import (
	"context"
	"fmt"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// spanTexts runs ds through Run on text and returns "Category:text" for
// every final span, the text being what the span covers.
func spanTexts(t testing.TB, text string, ds []Detector, opts Options) []string {
	t.Helper()
	p, _ := PageFromText(text)
	spans, err := Run(context.Background(), p, ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	return describe(p, spans)
}

func describe(p *page.Page, spans []page.Span) []string {
	v := PageView(p)
	var out []string
	for _, s := range spans {
		b, e, ok := v.ByteRange(s)
		if !ok {
			out = append(out, fmt.Sprintf("%s:<bad %+v>", s.Category, s))
			continue
		}
		out = append(out, fmt.Sprintf("%s:%s", s.Category, v.Text[b:e]))
	}
	return out
}

// recognizer returns the named recognizer.
func rec(t testing.TB, name string) []Detector {
	t.Helper()
	rs, err := Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Name() == name {
			return []Detector{r}
		}
	}
	t.Fatalf("no recognizer %q", name)
	return nil
}

func allRecs(t testing.TB) []Detector {
	t.Helper()
	rs, err := Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
