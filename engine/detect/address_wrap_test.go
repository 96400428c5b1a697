package detect

import (
	"slices"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// addressOnly runs the address recognizer alone (no growth, no merge) on
// p and describes its spans, so that a test sees what the recognizer
// itself finds across a line break rather than what growth adds.
func addressOnly(t *testing.T, p *page.Page) []string {
	t.Helper()
	d, ok := rec(t, "address")[0].(ViewDetector)
	if !ok {
		t.Fatal("the address recognizer is no ViewDetector")
	}
	return describe(p, d.DetectView(PageView(p)))
}

// TestAddressRecognizerStopsAtParagraphs: the same street broken over two
// lines is one address when the lines flow on, and none when a paragraph
// gap parts them.
func TestAddressRecognizerStopsAtParagraphs(t *testing.T) {
	word := func(text string, line int, top, x float64) page.Word {
		q := page.Quad{UL: page.Point{X: x, Y: top}, UR: page.Point{X: x + 40, Y: top},
			LL: page.Point{X: x, Y: top + 12}, LR: page.Point{X: x + 40, Y: top + 12}}
		return page.Word{Text: text, Line: line, Quad: q, Conf: 1}
	}
	for _, tc := range []struct {
		name   string
		second float64 // top of the second line; the first is at 0
		want   []string
	}{
		{"same paragraph", 15, []string{"Address:2914 184th\nStreet"}},
		{"paragraph break", 24, nil},
	} {
		var ws []page.Word
		for i, s := range strings.Fields("We moved to 2914 184th") {
			ws = append(ws, word(s, 0, 0, float64(50*i)))
		}
		for i, s := range strings.Fields("Street plans were late") {
			ws = append(ws, word(s, 1, tc.second, float64(50*i)))
		}
		if got := addressOnly(t, &page.Page{Words: ws}); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
