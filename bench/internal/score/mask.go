package score

import (
	"math"

	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/engine/page"
)

// Core insets: a word's box spans the font's ascender and descender and
// its advance widths, while masks drawn from OCR boxes hug the ink. The
// core measured is the middle 80% across and 60% down (from about the
// x-height to just below the baseline), which every honest mask covers.
const (
	insetX = 0.10
	insetY = 0.20
)

type pt struct{ x, y float64 }

// masked returns the share of dark pixels in the core of the word box q
// (normalised coordinates) on raster r.
func masked(r *page.Raster, q corpus.Quad, dark uint8) float64 {
	w, h := float64(r.W), float64(r.H)
	var c [4]pt
	for i, p := range q {
		c[i] = pt{p.X * w, p.Y * h}
	}
	// Bilinear position inside the quad: u across, v down.
	at := func(u, v float64) pt {
		top := pt{c[0].x + (c[1].x-c[0].x)*u, c[0].y + (c[1].y-c[0].y)*u}
		bot := pt{c[3].x + (c[2].x-c[3].x)*u, c[3].y + (c[2].y-c[3].y)*u}
		return pt{top.x + (bot.x-top.x)*v, top.y + (bot.y-top.y)*v}
	}
	core := [4]pt{at(insetX, insetY), at(1-insetX, insetY), at(1-insetX, 1-insetY), at(insetX, 1-insetY)}

	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range core {
		x0, y0, x1, y1 = min(x0, p.x), min(y0, p.y), max(x1, p.x), max(y1, p.y)
	}
	ix0, iy0 := max(int(math.Floor(x0)), 0), max(int(math.Floor(y0)), 0)
	ix1, iy1 := min(int(math.Ceil(x1)), r.W), min(int(math.Ceil(y1)), r.H)
	var in, d int
	for y := iy0; y < iy1; y++ {
		for x := ix0; x < ix1; x++ {
			if !inside(core, pt{float64(x) + 0.5, float64(y) + 0.5}) {
				continue
			}
			in++
			if lum(r, x, y) <= dark {
				d++
			}
		}
	}
	if in == 0 { // a core thinner than a pixel: look at its centre
		m := at(0.5, 0.5)
		x, y := int(m.x), int(m.y)
		if x < 0 || y < 0 || x >= r.W || y >= r.H {
			return 0
		}
		if lum(r, x, y) <= dark {
			return 1
		}
		return 0
	}
	return float64(d) / float64(in)
}

func lum(r *page.Raster, x, y int) uint8 {
	i := y*r.Stride + x*r.Channels
	if r.Channels < 3 {
		return r.Pix[i]
	}
	return uint8((299*int(r.Pix[i]) + 587*int(r.Pix[i+1]) + 114*int(r.Pix[i+2])) / 1000)
}

// inside reports whether p lies in the convex quadrilateral q (corners in
// order, either orientation).
func inside(q [4]pt, p pt) bool {
	var pos, neg bool
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		cross := (b.x-a.x)*(p.y-a.y) - (b.y-a.y)*(p.x-a.x)
		pos = pos || cross > 0
		neg = neg || cross < 0
	}
	return !(pos && neg)
}
