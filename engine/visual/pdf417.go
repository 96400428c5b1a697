package visual

import (
	"image"
	"sort"
)

// PDF417 (the stacked code of driving licences, boarding passes and
// shipping labels) has no reader in gozxing v0.1.1, so it is found, not
// read: every row of a symbol opens with the same start pattern (bars and
// spaces 8 1 1 1 1 1 1 3 modules wide) and, but in the compact form,
// closes with the same stop pattern (7 1 1 3 1 1 1 2 1). A column of rows
// that open with the start pattern at one place is a symbol; its box runs
// to the stop patterns beside it or, without them, to the end of the ink
// on its rows. Found codes are not decoded, so they are masked (a code that
// cannot be read is masked: docs/behaviour.md).

var (
	pdf417Start = []float64{8, 1, 1, 1, 1, 1, 1, 3}
	pdf417Stop  = []float64{7, 1, 1, 3, 1, 1, 1, 2, 1}
)

// pdf417Hit is a start or stop pattern found on row y from x0 to x1, of
// module width m.
type pdf417Hit struct {
	x0, x1, y int
	m         float64
}

// pdf417Column is a run of hits of one pattern, one above the other.
type pdf417Column struct {
	x0, x1, y0, y1, rows int
	m                    float64
}

// FindPDF417 returns the boxes of the PDF417 symbols in im (dark: under
// 128), upright or turned by a few degrees.
func FindPDF417(im *image.Gray) []Box {
	var starts, stops []pdf417Hit
	runs := make([]int, 0, 256)
	for y := 0; y < im.Rect.Dy(); y++ {
		row := im.Pix[y*im.Stride : y*im.Stride+im.Rect.Dx()]
		runs = rowRuns(row, runs[:0])
		starts = matchRuns(runs, pdf417Start, 2, y, starts)
		stops = matchRuns(runs, pdf417Stop, 0.5, y, stops)
	}
	if len(starts) == 0 {
		return nil
	}
	var out []Box
	stopCols := columns(stops)
	for _, c := range columns(starts) {
		// At least three rows of the symbol (each two modules high or
		// more), and as high as the pattern is wide at least half.
		h := c.y1 - c.y0 + 1
		if c.rows < 6 || float64(h) < 6*c.m {
			continue
		}
		right := -1
		for _, s := range stopCols {
			if s.x0 > c.x1 && s.m > 0.7*c.m && s.m < 1.4*c.m && rowsOverlap(c.y0, c.y1, s.y0, s.y1) > h/2 && (right < 0 || s.x1 < right) {
				right = s.x1
			}
		}
		if right < 0 {
			right = inkEnd(im, c)
		}
		m := int(c.m + 0.5)
		out = append(out, clip(Box{c.x0 - 2*m, c.y0 - m, right + 2*m, c.y1 + m + 1}, im.Rect.Dx(), im.Rect.Dy()))
	}
	return out
}

// rowRuns appends the widths of row's runs to runs, starting with a light
// run (zero wide when the row starts dark).
func rowRuns(row []uint8, runs []int) []int {
	dark, n := false, 0
	for _, v := range row {
		if (v < 128) != dark {
			runs = append(runs, n)
			dark, n = !dark, 0
		}
		n++
	}
	return append(runs, n)
}

// matchRuns appends to hits the places on row y where the runs spell
// pattern (its first run dark), with a light run of at least quiet
// modules before it (the start pattern's quiet zone is two).
func matchRuns(runs []int, pattern []float64, quiet float64, y int, hits []pdf417Hit) []pdf417Hit {
	var total float64
	for _, e := range pattern {
		total += e
	}
	x := 0
	for i := 0; i+len(pattern) <= len(runs); i++ {
		if i%2 == 1 { // runs[i] is dark
			w := 0
			for _, r := range runs[i : i+len(pattern)] {
				w += r
			}
			m := float64(w) / total
			if m >= 1 && float64(runs[i-1]) >= quiet*m && fits(runs[i:i+len(pattern)], pattern, m) {
				hits = append(hits, pdf417Hit{x0: x, x1: x + w - 1, y: y, m: m})
			}
		}
		x += runs[i]
	}
	return hits
}

// fits reports whether each run is its pattern width in modules of m,
// within half a module and a pixel of antialiasing.
func fits(runs []int, pattern []float64, m float64) bool {
	for j, r := range runs {
		d := float64(r) - pattern[j]*m
		if d < 0 {
			d = -d
		}
		if d > 0.5*m+1 {
			return false
		}
	}
	return true
}

// columns groups hits into columns: a hit joins the column whose last
// row is at most two modules above it and whose start is within two
// modules of its own, so a symbol turned by a few degrees stays one.
func columns(hits []pdf417Hit) []pdf417Column {
	sort.Slice(hits, func(i, j int) bool { return hits[i].y < hits[j].y || hits[i].y == hits[j].y && hits[i].x0 < hits[j].x0 })
	var cols []pdf417Column
	var lastX []int
	for _, h := range hits {
		joined := false
		for k := range cols {
			c := &cols[k]
			if h.y-c.y1 <= int(2*c.m)+1 && max(h.x0-lastX[k], lastX[k]-h.x0) <= int(2*c.m)+1 && h.y > c.y1 {
				c.x0, c.x1, c.y1 = min(c.x0, h.x0), max(c.x1, h.x1), h.y
				c.m = (c.m*float64(c.rows) + h.m) / float64(c.rows+1)
				c.rows++
				lastX[k] = h.x0
				joined = true
				break
			}
		}
		if !joined {
			cols = append(cols, pdf417Column{x0: h.x0, x1: h.x1, y0: h.y, y1: h.y, rows: 1, m: h.m})
			lastX = append(lastX, h.x0)
		}
	}
	return cols
}

// inkEnd is where the ink of the column's rows ends on the right: the
// last dark pixel before a light gap of ten modules on the middle row.
func inkEnd(im *image.Gray, c pdf417Column) int {
	y := (c.y0 + c.y1) / 2
	row := im.Pix[y*im.Stride : y*im.Stride+im.Rect.Dx()]
	gap, end := int(10*c.m), c.x1
	for x := c.x1 + 1; x < len(row) && x-end <= gap; x++ {
		if row[x] < 128 {
			end = x
		}
	}
	return end
}

// rowsOverlap is how many rows [a0, a1] and [b0, b1] share.
func rowsOverlap(a0, a1, b0, b1 int) int { return min(a1, b1) - max(a0, b0) + 1 }
