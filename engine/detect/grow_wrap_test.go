package detect

import (
	"context"
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestFlowsOn: lines at the usual leading flow on; a paragraph gap, or
// the last line, does not; words without geometry always flow on.
func TestFlowsOn(t *testing.T) {
	word := func(text string, line int, top float64) page.Word {
		q := page.Quad{UL: page.Point{X: 0, Y: top}, UR: page.Point{X: 40, Y: top},
			LL: page.Point{X: 0, Y: top + 12}, LR: page.Point{X: 40, Y: top + 12}}
		return page.Word{Text: text, Line: line, Quad: q, Conf: 1}
	}
	for _, tc := range []struct {
		name   string
		second float64 // top of the second line; the first is at 0
		want   bool
	}{
		{"same paragraph", 15, true},
		{"paragraph break", 24, false},
	} {
		p := &page.Page{Words: []page.Word{word("Mr.", 0, 0), word("Allen", 0, 0), word("Tazuka?", 1, tc.second)}}
		v := PageView(p)
		if got := v.FlowsOn(0); got != tc.want {
			t.Errorf("%s: flowsOn = %v, want %v", tc.name, got, tc.want)
		}
		if v.FlowsOn(1) {
			t.Errorf("%s: the last line flows on", tc.name)
		}
		spans, err := Run(context.Background(), p, allRecs(t), Options{Categories: []page.Category{page.Person}})
		if err != nil {
			t.Fatal(err)
		}
		got := describe(p, spans)
		want := []string{"Person:Mr. Allen"}
		if tc.want {
			want = []string{"Person:Mr. Allen\nTazuka"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, want)
		}
	}
	p, _ := PageFromText("one\ntwo")
	if !PageView(p).FlowsOn(0) {
		t.Error("plain text lines do not flow on")
	}
}
