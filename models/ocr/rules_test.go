package ocr

import (
	"bytes"
	"testing"
)

// page is a white gray image for the rule eraser's tests, at 200 dpi:
// 12-pt print's capitals are 24 pixels tall, its stems 3 wide.
func page(w, h int) Image {
	img := Image{W: w, H: h, Channels: 1, Stride: w, Pix: bytes.Repeat([]byte{255}, w*h)}
	return img
}

// fill paints x0..x1, y0..y1 (exclusive) in v.
func fill(img Image, x0, y0, x1, y1 int, v byte) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			img.Pix[y*img.Stride+x] = v
		}
	}
}

// one draws a "1" of 12-pt print with its top-left at (x, y): a stem and
// a flag.
func one(img Image, x, y int) {
	fill(img, x+4, y, x+7, y+24, 0)
	fill(img, x, y+3, x+5, y+6, 0)
}

func TestRuleErasedBoxedDigits(t *testing.T) {
	for _, th := range []int{2, 6} {
		boxedDigits(t, th)
	}
}

// boxedDigits: a comb field as a 200-dpi scan prints it, boxes of 72 x
// 67 pixels (26 x 24 pt) in black rules th pixels thick (0.8 pt is 2; a
// redacted output, rendered again, blurs them to 5 or 6), a "1" centred
// in each, no glyph touching a wall: the walls go, the glyphs stay.
func boxedDigits(t *testing.T, th int) {
	t.Helper()
	img := page(600, 120)
	const x0, y0, cell, boxH, n = 20, 20, 72, 67, 7
	fill(img, x0, y0, x0+n*cell+th, y0+th, 0)
	fill(img, x0, y0+boxH, x0+n*cell+th, y0+boxH+th, 0)
	for k := 0; k <= n; k++ {
		fill(img, x0+k*cell, y0, x0+k*cell+th, y0+boxH+th, 30)
	}
	glyphs := page(600, 120) // the same glyphs alone: what must stay
	for k := range n {
		one(img, x0+k*cell+30, y0+22)
		one(glyphs, x0+k*cell+30, y0+22)
	}
	out := RuleErased(img, 200)
	if &out.Pix[0] == &img.Pix[0] {
		t.Fatalf("rules %d px: no rules found", th)
	}
	if bad := diff(out, glyphs); bad > 0 {
		t.Errorf("rules %d px: %d pixels differ from the glyphs alone", th, bad)
	}
	if img.Pix[y0*img.Stride+x0] != 30 {
		t.Error("the input was painted")
	}
}

func TestRuleErasedLeavesText(t *testing.T) {
	// Strokes of text, none of them a rule: "1"s, "l"s (3 x 25), a
	// heading's "l" (6 x 48), "—" (em dash of 12-pt print, 33 x 3),
	// "-", "_" and "I", over several lines. Nothing is painted.
	img := page(500, 200)
	for k := range 6 {
		one(img, 10+k*20, 10)
		fill(img, 140+k*12, 8, 143+k*12, 33, 0)
	}
	fill(img, 230, 20, 263, 23, 0) // —
	fill(img, 270, 20, 280, 23, 0) // -
	fill(img, 290, 33, 313, 36, 0) // _
	fill(img, 320, 9, 323, 33, 0)  // I
	fill(img, 10, 60, 16, 108, 0)  // a 24-pt "l"
	fill(img, 30, 100, 63, 103, 0) // a dash under text, as long as an em
	for k := range 10 {            // a line of "l-l-l-": strokes that touch
		fill(img, 100+k*12, 60, 103+k*12, 85, 0)
		fill(img, 103+k*12, 72, 112+k*12, 75, 0)
	}
	if out := RuleErased(img, 200); &out.Pix[0] != &img.Pix[0] {
		t.Errorf("text taken for rules: %d pixels painted", diff(out, img))
	}
}

func TestRuleErasedSignatureLine(t *testing.T) {
	// A rule under a name (a signature line, 0.8 pt at 200 dpi): the
	// rule goes, the name's strokes stay, with the bit of the rule
	// under each (their run across the rule is a stroke's length).
	img := page(400, 80)
	text := page(400, 80)
	for _, im := range []Image{img, text} {
		for k := range 8 {
			fill(im, 20+k*14, 20, 23+k*14, 44, 0)
		}
	}
	for k := range 8 {
		fill(text, 20+k*14, 44, 23+k*14, 46, 0)
	}
	fill(img, 10, 44, 390, 46, 0)
	out := RuleErased(img, 200)
	if bad := diff(out, text); bad > 0 {
		t.Errorf("%d pixels differ from the name alone", bad)
	}
}

// diff counts the pixels of a and b (same size) that differ.
func diff(a, b Image) int {
	n := 0
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			n++
		}
	}
	return n
}
