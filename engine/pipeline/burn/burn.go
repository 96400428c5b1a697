// Package burn turns detections into masks and burns them into page
// pixels. Masks are opaque black rectangles written into the raster before
// it is encoded, so nothing under them survives in the output.
package burn

import (
	"math"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/kernels"
)

// DefaultPad is the usual padding around masked characters, in points:
// enough to cover anti-aliasing and small misalignments between the text
// layer (or OCR boxes) and the rendered glyphs.
const DefaultPad = 1.5

// verticalGrow is the extra height added above and below each character,
// as a fraction of its height, so that ascenders and descenders outside a
// tight OCR box are covered too.
const verticalGrow = 0.1

// Box is one mask: a rectangle in page points and where it came from.
type Box struct {
	Rect       page.Rect
	Category   page.Category
	Source     page.Source // producer of the first word in the box
	Recognizer string
	Score      float32
}

// Boxes maps spans to masks: for each span, one box per line it touches,
// the union of the quads of the covered characters, each padded by pad
// points along and across its own direction (and grown a little across
// it), so rotated text gets the axis-aligned bound of its padded quads.
// When a word has per-character quads, a span that starts or ends inside
// it covers only its own characters; otherwise the whole word is covered.
// Spans reaching outside p.Words are clipped to the words that exist; a
// span with First > Last is ignored. Boxes are clipped to the page.
func Boxes(p *page.Page, spans []page.Span, pad float64) []Box {
	var out []Box
	for _, s := range spans {
		first, last := max(s.First, 0), min(s.Last, len(p.Words)-1)
		if first > last {
			continue
		}
		start := len(out)
		lineIndex := map[int]int{} // Word.Line -> index in out
		for i := first; i <= last; i++ {
			w := &p.Words[i]
			from, to := 0, -1 // rune range; to < 0 means the end
			if i == s.First {
				from = s.Start
			}
			if i == s.Last && s.End > 0 {
				to = s.End
			}
			r := wordRect(w, from, to, pad)
			if r.Empty() {
				continue
			}
			j, ok := lineIndex[w.Line]
			if !ok {
				j = len(out)
				lineIndex[w.Line] = j
				out = append(out, Box{Category: s.Category, Source: w.Source, Recognizer: s.Recognizer, Score: s.Score})
			}
			out[j].Rect = out[j].Rect.Union(r)
		}
		if p.Width > 0 && p.Height > 0 {
			pg := page.Rect{X1: p.Width, Y1: p.Height}
			kept := out[:start]
			for _, b := range out[start:] {
				if b.Rect = b.Rect.Intersect(pg); !b.Rect.Empty() {
					kept = append(kept, b)
				}
			}
			out = kept
		}
	}
	return out
}

// wordRect is the padded bound of runes [from, to) of w (to < 0: to the
// end), using per-character quads when w has one per rune.
func wordRect(w *page.Word, from, to int, pad float64) page.Rect {
	n := utf8.RuneCountInString(w.Text)
	if to < 0 || to > n {
		to = n
	}
	from = max(from, 0)
	partial := from > 0 || to < n
	if !partial || len(w.Chars) != n || from >= to {
		// Whole word: no partial span, no per-character quads to cut
		// with, or a range that makes no sense (masking more is safe).
		return padQuad(w.Quad, pad)
	}
	var r page.Rect
	for _, q := range w.Chars[from:to] {
		r = r.Union(padQuad(q, pad))
	}
	return r
}

// padQuad grows q by pad along its baseline and by pad plus verticalGrow
// of its height across it, then returns the axis-aligned bound.
func padQuad(q page.Quad, pad float64) page.Rect {
	ux, uy, _ := unit(q.UR.X-q.UL.X, q.UR.Y-q.UL.Y, 1, 0)    // along the text
	vx, vy, h := unit(q.LL.X-q.UL.X, q.LL.Y-q.UL.Y, -uy, ux) // downwards
	a := pad                                                 // along
	c := pad + verticalGrow*h                                // across
	pts := [4]page.Point{
		{X: q.UL.X - ux*a - vx*c, Y: q.UL.Y - uy*a - vy*c},
		{X: q.UR.X + ux*a - vx*c, Y: q.UR.Y + uy*a - vy*c},
		{X: q.LL.X - ux*a + vx*c, Y: q.LL.Y - uy*a + vy*c},
		{X: q.LR.X + ux*a + vx*c, Y: q.LR.Y + uy*a + vy*c},
	}
	r := page.Rect{X0: pts[0].X, Y0: pts[0].Y, X1: pts[0].X, Y1: pts[0].Y}
	for _, p := range pts[1:] {
		r.X0, r.Y0 = min(r.X0, p.X), min(r.Y0, p.Y)
		r.X1, r.Y1 = max(r.X1, p.X), max(r.Y1, p.Y)
	}
	if math.IsNaN(r.X0+r.Y0+r.X1+r.Y1) || math.IsInf(r.X0+r.Y0+r.X1+r.Y1, 0) {
		return page.Rect{}
	}
	return r
}

// unit normalises (x, y), returning its length too; a zero vector becomes
// the fallback direction (dx, dy), which is assumed to be a unit vector.
func unit(x, y, dx, dy float64) (float64, float64, float64) {
	l := math.Hypot(x, y)
	if l < 1e-9 {
		return dx, dy, 0
	}
	return x / l, y / l, l
}

// Burn paints every box opaque black into r, a raster of the page at dpi,
// rounding outwards to whole pixels.
func Burn(r *page.Raster, dpi float64, boxes []Box) {
	for _, b := range boxes {
		x0, y0, x1, y1 := page.PixelRect(b.Rect, dpi, r.W, r.H)
		kernels.FillRect(r.Pix, r.Stride, r.Channels, x0, y0, x1, y1, 0)
	}
}
