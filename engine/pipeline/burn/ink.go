package burn

import (
	"math"

	"github.com/redactd/redactd/engine/page"
)

// Masks cover the ink. A font may draw its glyphs outside the boxes it
// declares (Type3 fonts of old TeX output declare a box a tenth of their
// height), so a mask made from declared boxes can leave the letters above
// it readable. GrowToInk grows each box, side by side, over the rendered
// ink that continues from it: rows (then columns) just outside the box
// that hold ink within its span are added while they last, up to a
// limit, and a box never shrinks. A row inked across nearly its whole
// span is a rule or a border, not glyphs, and stops the growth. Boxes of
// OCR words are left as they are: they were found on the ink itself (the
// detector's boxes are grown around it), and on a scan with tight lines
// growing them would run into the next line.
const (
	// inkLevel: a pixel whose darkest channel is below it is ink.
	inkLevel = 160
	// ruleShare: a row or column inked over this share of its span is a
	// rule, not part of a glyph.
	ruleShare = 0.9
	// growMinPt is the least growth allowed across the text, in points,
	// whatever the box's height (a 2-pt declared box over 20-pt glyphs).
	growMinPt = 24
)

// GrowToInk returns boxes grown over the ink of r (the page at dpi) that
// continues from them: across the text by up to max(2 x the box's
// height, growMinPt), along it by up to half the box's height. Growth
// never enters a word of words (the page's word boxes, in points) that
// lies beyond the box on that side: that ink is the other word's, as on a
// line above set with tight leading. It reads r only; boxes are grown
// from the same unburnt pixels.
func GrowToInk(r *page.Raster, dpi float64, boxes []Box, words []page.Rect) []Box {
	if r == nil || dpi <= 0 {
		return boxes
	}
	s := dpi / 72
	out := make([]Box, len(boxes))
	for i, b := range boxes {
		out[i] = b
		if b.Source == page.SourceOCR {
			continue
		}
		x0, y0, x1, y1 := page.PixelRect(b.Rect, dpi, r.W, r.H)
		if x1 <= x0 || y1 <= y0 {
			continue
		}
		h := y1 - y0
		across := max(2*h, int(growMinPt*s))
		lim := wordLimits(b.Rect, words)
		top, bottom := pixelLimit(lim.Y0, s, 0, r.H), pixelLimit(lim.Y1, s, 0, r.H)
		ny0, ny1 := y0, y1
		for ny0 > top && y0-ny0 < across && rowInk(r, ny0-1, x0, x1) {
			ny0--
		}
		for ny1 < bottom && ny1-y1 < across && rowInk(r, ny1, x0, x1) {
			ny1++
		}
		along := max(h/2, 1)
		left, right := pixelLimit(lim.X0, s, 0, r.W), pixelLimit(lim.X1, s, 0, r.W)
		nx0, nx1 := x0, x1
		for nx0 > left && x0-nx0 < along && colInk(r, nx0-1, ny0, ny1) {
			nx0--
		}
		for nx1 < right && nx1-x1 < along && colInk(r, nx1, ny0, ny1) {
			nx1++
		}
		g := page.Rect{X0: float64(nx0) / s, Y0: float64(ny0) / s, X1: float64(nx1) / s, Y1: float64(ny1) / s}
		out[i].Rect = b.Rect.Union(g)
	}
	return out
}

// wordLimits returns how far, in points, box b may grow on each side
// before it enters a word that lies beyond it on that side: a word
// overlapping b's span whose centre is above b's top edge bounds growth
// upwards at its bottom edge, and likewise below, left and right. Words
// whose centre lies inside b's span are b's own.
func wordLimits(b page.Rect, words []page.Rect) page.Rect {
	lim := page.Rect{X0: math.Inf(-1), Y0: math.Inf(-1), X1: math.Inf(1), Y1: math.Inf(1)}
	for _, w := range words {
		cx, cy := (w.X0+w.X1)/2, (w.Y0+w.Y1)/2
		if w.X0 < b.X1 && w.X1 > b.X0 { // shares b's columns
			if cy < b.Y0 {
				lim.Y0 = max(lim.Y0, w.Y1)
			} else if cy > b.Y1 {
				lim.Y1 = min(lim.Y1, w.Y0)
			}
		}
		if w.Y0 < b.Y1 && w.Y1 > b.Y0 { // shares b's rows
			if cx < b.X0 {
				lim.X0 = max(lim.X0, w.X1)
			} else if cx > b.X1 {
				lim.X1 = min(lim.X1, w.X0)
			}
		}
	}
	return lim
}

// pixelLimit converts a limit in points (possibly infinite) to a pixel
// index clamped to [lo, hi].
func pixelLimit(pt, s float64, lo, hi int) int {
	v := math.Round(pt * s)
	if v <= float64(lo) {
		return lo
	}
	if v >= float64(hi) {
		return hi
	}
	return int(v)
}

// rowInk reports whether row y holds glyph ink between x0 and x1: some
// inked pixels, but not a rule across the span.
func rowInk(r *page.Raster, y, x0, x1 int) bool {
	n := 0
	row := r.Pix[y*r.Stride:]
	for x := x0; x < x1; x++ {
		if isInk(row[x*r.Channels:], r.Channels) {
			n++
		}
	}
	return n > 0 && float64(n) < ruleShare*float64(x1-x0)
}

// colInk is rowInk for column x between rows y0 and y1.
func colInk(r *page.Raster, x, y0, y1 int) bool {
	n := 0
	for y := y0; y < y1; y++ {
		if isInk(r.Pix[y*r.Stride+x*r.Channels:], r.Channels) {
			n++
		}
	}
	return n > 0 && float64(n) < ruleShare*float64(y1-y0)
}

func isInk(p []byte, channels int) bool {
	for c := range channels {
		if p[c] < inkLevel {
			return true
		}
	}
	return false
}
