package ocr

import "testing"

// TestKeepTurnedLoneGlyph: a lone letter whose reading turned over is
// surer ("n" turned is "u") keeps its reading as cut on an image whose
// longer lines read as they stand, and goes turned where they go turned;
// longer lines keep the surer reading either way.
func TestKeepTurnedLoneGlyph(t *testing.T) {
	l := func(s string, c float32) Line { return Line{Text: s, Conf: c} }
	for _, c := range []struct {
		name  string
		lines []Line
		again []Line
		idx   []int
		want  []bool
	}{
		{"upright page", []Line{l("File of the client", 0.99), l("n", 0.86), l("h", 0.84), l("The quarterly review", 0.97)},
			[]Line{l("u", 0.98), l("ų", 0.95)}, []int{1, 2}, []bool{false, false, false, false}},
		{"upright page, a long line surer turned", []Line{l("File of the client", 0.99), l("n", 0.86), l("SMITH", 0.4), l("The quarterly review", 0.97)},
			[]Line{l("u", 0.98), l("HTIWS", 0.9)}, []int{1, 2}, []bool{false, false, true, false}},
		{"upside-down label", []Line{l("ǝɯɐu", 0.3), l("n", 0.86), l("ssǝɹppɐ", 0.35)},
			[]Line{l("name", 0.97), l("u", 0.98), l("address", 0.96)}, []int{0, 1, 2}, []bool{true, true, true}},
		{"lone letters only", []Line{l("n", 0.86)}, []Line{l("u", 0.98)}, []int{0}, []bool{true}},
	} {
		got := keepTurned(c.lines, c.again, c.idx)
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: line %d %q: kept turned %v, want %v", c.name, i, c.lines[i].Text, got[i], c.want[i])
			}
		}
	}
}
