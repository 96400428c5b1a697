package pipeline

import (
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestCombWords: a comb row's readings make one word per run of filled
// boxes (an empty box parts them), each rune's quad inside its box, a
// box read as two runes split between them.
func TestCombWords(t *testing.T) {
	cells := []string{"0", "1", "", "9", "", "", "4", "7|"}
	quads := make([]page.Quad, len(cells))
	for i := range quads {
		quads[i] = page.QuadFromRect(page.Rect{X0: float64(10 * i), Y0: 0, X1: float64(10*i + 8), Y1: 12})
	}
	ws := combWords(cells, quads, 0.9, 3)
	want := []struct {
		text  string
		boxes []int // the box of each rune
	}{{"01", []int{0, 1}}, {"9", []int{3}}, {"47|", []int{6, 7, 7}}}
	if len(ws) != len(want) {
		t.Fatalf("%d words %v, want %d", len(ws), ws, len(want))
	}
	for i, w := range ws {
		if w.Text != want[i].text || w.Line != 3 || w.Conf != 0.9 || w.Source != page.SourceOCR {
			t.Errorf("word %d: %q line %d conf %v source %v", i, w.Text, w.Line, w.Conf, w.Source)
		}
		if len(w.Chars) != len(want[i].boxes) {
			t.Errorf("word %q: %d char quads", w.Text, len(w.Chars))
			continue
		}
		for k, c := range w.Chars {
			b, box := c.Bounds(), quads[want[i].boxes[k]].Bounds()
			if b.X0 < box.X0 || b.X1 > box.X1 || b.X1-b.X0 <= 0 {
				t.Errorf("word %q rune %d: %v, not in its box %v", w.Text, k, b, box)
			}
		}
		first, last := quads[want[i].boxes[0]].Bounds(), quads[want[i].boxes[len(want[i].boxes)-1]].Bounds()
		if b := w.Quad.Bounds(); b.X0 != first.X0 || b.X1 != last.X1 {
			t.Errorf("word %q: quad %v, want %v to %v", w.Text, b, first.X0, last.X1)
		}
	}
}

// TestOneEach: a comb's boxes read a character each (one misread as two
// in four allowed); a table's evenly wide cells read words.
func TestOneEach(t *testing.T) {
	for _, c := range []struct {
		cells []string
		want  bool
	}{
		{[]string{"1", "4", "/", "0", "3", "", "1", "9", "8", "6"}, true},
		{[]string{"T", "O", "rn", "I"}, true},
		{[]string{"Mon", "Tue", "Wed", "Thu", "Fri"}, false},
		{[]string{"A", "lb", "cd", "E"}, false},
		{[]string{"", "", ""}, false},
	} {
		if got := oneEach(c.cells); got != c.want {
			t.Errorf("oneEach(%q) = %v, want %v", c.cells, got, c.want)
		}
	}
}
