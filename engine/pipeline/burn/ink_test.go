package burn

import (
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// whitePage is a w x h gray raster of white paper at 72 dpi (a pixel is
// a point).
func whitePage(w, h int) *page.Raster {
	r := &page.Raster{W: w, H: h, Channels: 1, Stride: w, Pix: make([]byte, w*h)}
	for i := range r.Pix {
		r.Pix[i] = 255
	}
	return r
}

func fill(r *page.Raster, x0, y0, x1, y1 int, v byte) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			r.Pix[y*r.Stride+x] = v
		}
	}
}

func TestGrowToInk(t *testing.T) {
	r := whitePage(200, 200)
	// Glyphs: vertical strokes from y 76 to 100 over x 50..90, with gaps
	// between them, standing on a declared box of y 96..100 (a Type3
	// font's thin box); and ink far above, beyond the growth's reach.
	for x := 50; x < 90; x += 6 {
		fill(r, x, 76, x+3, 100, 0)
	}
	// A rule under a second box, across its whole span, and a separate
	// word a blank row above it.
	fill(r, 120, 150, 180, 152, 0)
	fill(r, 120, 130, 180, 140, 0)
	boxes := []Box{
		{Rect: page.Rect{X0: 50, Y0: 96, X1: 90, Y1: 100}},
		{Rect: page.Rect{X0: 120, Y0: 152, X1: 180, Y1: 160}},
		{Rect: page.Rect{X0: 10, Y0: 10, X1: 30, Y1: 20}}, // no ink near
		{Rect: page.Rect{X0: 50, Y0: 96, X1: 90, Y1: 100}, Source: page.SourceOCR},
	}
	got := GrowToInk(r, 72, boxes, nil)
	if g := got[0].Rect; g.Y0 > 76 || g.Y1 < 100 || g.X0 > 50 || g.X1 < 90 {
		t.Errorf("Type3 box grew to %+v, want it to cover the strokes (50,76)-(90,100)", g)
	}
	if g := got[1].Rect; g.Y0 < 152 {
		t.Errorf("box under a rule grew over it to %+v", g)
	}
	if got[2].Rect != boxes[2].Rect {
		t.Errorf("box with no ink around changed: %+v", got[2].Rect)
	}
	if got[3].Rect != boxes[3].Rect {
		t.Errorf("OCR box grew to %+v", got[3].Rect)
	}
	for i := range boxes {
		if got[i].Rect.Union(boxes[i].Rect) != got[i].Rect {
			t.Errorf("box %d shrank: %+v from %+v", i, got[i].Rect, boxes[i].Rect)
		}
	}
}

// TestGrowToInkStopsAtOtherWords: a mask padded into the line above (tight
// leading) must not grow over that line's ink, which its own words
// explain. The bench's text corpus lost precision 0.934 -> 0.773 this way.
func TestGrowToInkStopsAtOtherWords(t *testing.T) {
	r := whitePage(200, 200)
	// Line 1: glyph ink y 40..51 (its word box 38..53); line 2: y 54..65
	// (word box 52..67). A mask over line 2 padded by 3 reaches y 49, into
	// line 1's ink.
	for x := 20; x < 120; x += 4 {
		fill(r, x, 40, x+2, 51, 0)
		fill(r, x, 54, x+2, 65, 0)
	}
	words := []page.Rect{{X0: 20, Y0: 38, X1: 120, Y1: 53}, {X0: 20, Y0: 52, X1: 120, Y1: 67}}
	mask := Box{Rect: page.Rect{X0: 17, Y0: 49, X1: 123, Y1: 70}}
	got := GrowToInk(r, 72, []Box{mask}, words)[0].Rect
	if got.Y0 < 49 {
		t.Errorf("mask of line 2 grew over line 1 to %+v", got)
	}
}
