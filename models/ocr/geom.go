package ocr

import (
	"math"
	"slices"

	"github.com/redactd/redactd/kernels"
)

// Point is a position in image pixels (x right, y down).
type Point struct{ X, Y float64 }

// Quad is a text-aligned quadrilateral in image pixels: upper-left,
// upper-right, lower-left, lower-right relative to the text's own
// direction (the same convention as engine/page.Quad), so a line read
// upside down has UL at the bottom right of the image.
type Quad struct{ UL, UR, LL, LR Point }

// Bounds returns the axis-aligned box around q as x0, y0, x1, y1.
func (q Quad) Bounds() (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = q.UL.X, q.UL.Y, q.UL.X, q.UL.Y
	for _, p := range [...]Point{q.UR, q.LL, q.LR} {
		x0, y0 = math.Min(x0, p.X), math.Min(y0, p.Y)
		x1, y1 = math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	return
}

// Width is the length of the text direction (mean of top and bottom).
func (q Quad) Width() float64 { return (dist(q.UL, q.UR) + dist(q.LL, q.LR)) / 2 }

// Height is the extent across the text (mean of left and right sides).
func (q Quad) Height() float64 { return (dist(q.UL, q.LL) + dist(q.UR, q.LR)) / 2 }

// flip turns q by 180 degrees: the text is read the other way up.
func (q Quad) flip() Quad { return Quad{UL: q.LR, UR: q.LL, LL: q.UR, LR: q.UL} }

// sub returns the part of q between fractions t0 and t1 of its width,
// interpolating along the top and bottom edges.
func (q Quad) sub(t0, t1 float64) Quad {
	return Quad{
		UL: lerp(q.UL, q.UR, t0), UR: lerp(q.UL, q.UR, t1),
		LL: lerp(q.LL, q.LR, t0), LR: lerp(q.LL, q.LR, t1),
	}
}

// mapPoints applies f to every corner.
func (q Quad) mapPoints(f func(Point) Point) Quad {
	return Quad{UL: f(q.UL), UR: f(q.UR), LL: f(q.LL), LR: f(q.LR)}
}

// homography maps crop pixels [0,w]x[0,h] onto q.
func (q Quad) homography(w, h float64) (kernels.Homography, bool) {
	return kernels.QuadToRect(w, h, [2]float64{q.UL.X, q.UL.Y}, [2]float64{q.UR.X, q.UR.Y},
		[2]float64{q.LR.X, q.LR.Y}, [2]float64{q.LL.X, q.LL.Y})
}

func dist(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

func lerp(a, b Point, t float64) Point { return Point{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t} }

// rect is a rotated rectangle: centre, unit axis U (the text direction),
// and full lengths along U (L) and across it (S).
type rect struct {
	C    Point
	U    Point
	L, S float64
}

// quad returns the rectangle's corners with UL..LR relative to U; the
// across-text direction V is U turned 90 degrees clockwise on screen
// (y grows downwards), so text along +x has its lower side at +y.
func (r rect) quad() Quad {
	v := Point{-r.U.Y, r.U.X}
	hl, hs := r.L/2, r.S/2
	at := func(a, b float64) Point { return Point{r.C.X + r.U.X*a + v.X*b, r.C.Y + r.U.Y*a + v.Y*b} }
	return Quad{UL: at(-hl, -hs), UR: at(hl, -hs), LL: at(-hl, hs), LR: at(hl, hs)}
}

// convexHull returns the hull of pts counter-clockwise (monotone chain).
func convexHull(pts []Point) []Point {
	if len(pts) < 3 {
		return pts
	}
	slices.SortFunc(pts, func(a, b Point) int {
		if a.X != b.X {
			if a.X < b.X {
				return -1
			}
			return 1
		}
		if a.Y < b.Y {
			return -1
		} else if a.Y > b.Y {
			return 1
		}
		return 0
	})
	cross := func(o, a, b Point) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	hull := make([]Point, 0, 2*len(pts))
	for _, p := range pts {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		p := pts[i]
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull[:len(hull)-1]
}

// minAreaRect is the smallest rectangle around a convex hull (rotating
// calipers: one side of the optimum lies along a hull edge). The returned
// U is the longer side's direction, pointing right (or up for vertical
// rectangles), so L >= S.
func minAreaRect(hull []Point) rect {
	best := rect{L: math.Inf(1), S: math.Inf(1)}
	bestArea := math.Inf(1)
	n := len(hull)
	for i := 0; i < n; i++ {
		a, b := hull[i], hull[(i+1)%n]
		ex, ey := b.X-a.X, b.Y-a.Y
		l := math.Hypot(ex, ey)
		if l == 0 {
			continue
		}
		ux, uy := ex/l, ey/l
		minU, maxU, minV, maxV := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			pu := p.X*ux + p.Y*uy
			pv := -p.X*uy + p.Y*ux
			minU, maxU = math.Min(minU, pu), math.Max(maxU, pu)
			minV, maxV = math.Min(minV, pv), math.Max(maxV, pv)
		}
		area := (maxU - minU) * (maxV - minV)
		if area < bestArea {
			bestArea = area
			cu, cv := (minU+maxU)/2, (minV+maxV)/2
			best = rect{
				C: Point{cu*ux - cv*uy, cu*uy + cv*ux},
				U: Point{ux, uy},
				L: maxU - minU, S: maxV - minV,
			}
		}
	}
	if math.IsInf(bestArea, 1) { // fewer than two distinct points
		if len(hull) > 0 {
			return rect{C: hull[0], U: Point{1, 0}}
		}
		return rect{U: Point{1, 0}}
	}
	return canonical(best)
}

// canonical makes U the long axis and orients it for reading: rightwards
// for lines closer to horizontal, upwards for vertical ones (the usual
// direction of sideways text; the direction classifier fixes the rest).
// Nearly square boxes are treated as horizontal.
func canonical(r rect) rect {
	if r.S > r.L {
		r.U = Point{-r.U.Y, r.U.X}
		r.L, r.S = r.S, r.L
	}
	vertical := math.Abs(r.U.Y) > math.Abs(r.U.X)
	if vertical && r.L < 1.5*r.S {
		// Short box: read it along the horizontal-ish axis.
		r.U = Point{-r.U.Y, r.U.X}
		r.L, r.S = r.S, r.L
		vertical = false
	}
	if vertical {
		if r.U.Y > 0 {
			r.U = Point{-r.U.X, -r.U.Y}
		}
	} else if r.U.X < 0 {
		r.U = Point{-r.U.X, -r.U.Y}
	}
	return r
}

// rotation is a page turn by a multiple of 90 degrees clockwise.
type rotation int

// apply maps a point of an image w x h (before the turn) into the turned
// image.
func (r rotation) apply(p Point, w, h float64) Point {
	switch r {
	case 90:
		return Point{h - p.Y, p.X}
	case 180:
		return Point{w - p.X, h - p.Y}
	case 270:
		return Point{p.Y, w - p.X}
	}
	return p
}

// invert maps a point of the turned image back into the original w x h.
func (r rotation) invert(p Point, w, h float64) Point {
	switch r {
	case 90:
		return Point{p.Y, h - p.X}
	case 180:
		return Point{w - p.X, h - p.Y}
	case 270:
		return Point{w - p.Y, p.X}
	}
	return p
}
