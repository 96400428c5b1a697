package ocr

import (
	"context"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
)

// Comb fields on a scan. A form printed one character per box, in black
// box walls, reads badly whatever groups its pieces: the detector boxes
// each glyph alone or runs a box's walls into its neighbours' glyphs,
// and the recogniser reads a "1" beside a wall as "L" or "|", a date of
// birth 14/03/1986 as "14/03|" and "986". The rules say where the boxes
// are, though: CombRows finds rows of evenly pitched boxes between two
// rules, and ReadComb reads their glyphs, cut out of their boxes, walls
// left out, set side by side at a text's spacing, as one line: what the
// recogniser reads well.

const (
	// combBoxMinPt and combBoxMaxPt bound a comb box's height (the rows'
	// gap between their rules), in points: 6-pt print's boxes up to a
	// large form's.
	combBoxMinPt = 9
	combBoxMaxPt = 48
	// combWallShare is the share of a box's height a column of rule
	// pixels must span to be a wall.
	combWallShare = 0.8
	// combPitchTol is how far, as a share of their median, a box's width
	// may stray from its row's.
	combPitchTol = 0.15
	// combMinCells is the fewest boxes of a comb row (as package
	// engine/page/layout's combs).
	combMinCells = 4
	// combMinAspect and combMaxAspect bound a box's width over its
	// height: a box holds one character.
	combMinAspect = 0.4
	combMaxAspect = 2.5
	// combGlyphGap is the blank columns, in recogniser pixels (48 a
	// line), added to the widest glyph for a box's slot: glyphs as
	// tightly set as print. (At 6, a "/" of a form turned a degree on
	// the glass read as "1"; at 20, "I" as "|".) An empty box is a word
	// gap, combSpaceGap.
	combGlyphGap = 2
	combSpaceGap = 32
)

// CombRow is a row of evenly pitched boxes of a form: Cells are their
// insides, left to right, walls and rules left out (pixels of the image
// it was found in).
type CombRow struct {
	Cells []image.Rectangle
}

// Quad is cell i as a quad.
func (c CombRow) Quad(i int) Quad {
	r := c.Cells[i]
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	return Quad{UL: Point{x0, y0}, UR: Point{x1, y0}, LL: Point{x0, y1}, LR: Point{x1, y1}}
}

// Bounds is the smallest rectangle holding the row's boxes.
func (c CombRow) Bounds() image.Rectangle { return c.frame() }

// frame is the smallest rectangle holding the row's cells.
func (c CombRow) frame() image.Rectangle {
	var b image.Rectangle
	for _, r := range c.Cells {
		b = b.Union(r)
	}
	return b
}

// hRule is a piece of a horizontal rule: rows y0..y1-1, columns
// x0..x1-1.
type hRule struct{ x0, x1, y0, y1 int }

// hChain is a horizontal rule as pieces, left to right: a rule on a
// page turned a little on the scanner's glass steps from row to row.
type hChain []hRule

func (c hChain) x0() int { return c[0].x0 }
func (c hChain) x1() int { return c[len(c)-1].x1 }

// at is the piece of c over column x, or the nearest.
func (c hChain) at(x int) hRule {
	best, bestD := c[0], math.MaxInt
	for _, p := range c {
		d := max(p.x0-x, x-(p.x1-1), 0)
		if d < bestD {
			best, bestD = p, d
		}
	}
	return best
}

// CombRows returns the rows of boxes ruled in img (dpi: its pixels per
// inch, 0 for 200), top to bottom: two horizontal rules, one above the
// other, a box's height apart, and between them at least combMinCells
// boxes of one width walled by vertical rules. The rules may rise or fall
// along the row, as on a page turned up to about a degree on the
// scanner's glass (steeper, a rule's runs along a row of pixels are
// shorter than a rule).
func CombRows(img Image, dpi float64) []CombRow {
	if img.W <= 0 || img.H <= 0 || (img.Channels != 1 && img.Channels != 3) {
		return nil
	}
	if dpi <= 0 {
		dpi = 200
	}
	mask, _ := inkMask(img)
	if !hasRun(mask, img.W, img.H, rulePx(ruleHPt, dpi)) {
		return nil // no ink as long as a rule: a page of text (most scans)
	}
	return combRowsIn(mask, img.W, img.H, dpi)
}

// combRowsIn returns the rows of boxes in ink mask (w*h).
func combRowsIn(mask []bool, w, h int, dpi float64) []CombRow {
	minH := rulePx(ruleHPt, dpi)
	thick := max(2, rulePx(ruleThickPt, dpi))
	rule := rules(mask, w, h, dpi)
	// Pieces of horizontal rules: runs of rule pixels a quarter of minH
	// long or more (a turned rule steps from row to row), joined over the
	// rows they share.
	var pieces []hRule
	type run struct{ x0, x1, piece int }
	var open, next []run // runs of the previous row, of this one
	for y := range h {
		next = next[:0]
		row := rule[y*w : (y+1)*w]
		for x := 0; x < w; {
			if !row[x] {
				x++
				continue
			}
			s := x
			for x < w && row[x] {
				x++
			}
			if x-s < minH/4 {
				continue
			}
			k := -1
			for _, r := range open {
				if min(x, r.x1)-max(s, r.x0) >= (x-s)/2 {
					k = r.piece
					break
				}
			}
			if k < 0 || pieces[k].y1-pieces[k].y0 >= thick+2 {
				pieces = append(pieces, hRule{s, x, y, y + 1})
				k = len(pieces) - 1
			} else {
				p := &pieces[k]
				p.x0, p.x1, p.y1 = min(p.x0, s), max(p.x1, x), y+1
			}
			next = append(next, run{s, x, k})
		}
		open, next = next, open
	}
	// Pieces end to end (gaps up to minH, where a turned rule's steps
	// were too short), their rows apart by a rule's thickness and its
	// slope at most, are one rule.
	slices.SortFunc(pieces, func(a, b hRule) int { return a.x0 - b.x0 })
	var chains []hChain
	for _, p := range pieces {
		joined := false
		for i, c := range chains {
			q := c[len(c)-1]
			gap := p.x0 - q.x1
			if gap > minH || float64(abs((p.y0+p.y1)-(q.y0+q.y1))) > 2*(float64(thick+2)+combMaxSlope*float64(max(gap, 0))) {
				continue
			}
			if p.x1 > q.x1 {
				chains[i] = append(c, p)
			} // else a band of the same rule, under the piece that holds it
			joined = true
			break
		}
		if !joined {
			chains = append(chains, hChain{p})
		}
	}
	minBox := int(combBoxMinPt * dpi / 72)
	maxBox := int(math.Ceil(combBoxMaxPt * dpi / 72))
	var out []CombRow
	for i, a := range chains {
		// The nearest rule below a that shares its columns.
		best, bestGap := -1, 0
		for j, b := range chains {
			x0, x1 := max(a.x0(), b.x0()), min(a.x1(), b.x1())
			if j == i || x1-x0 < minH {
				continue
			}
			xm := (x0 + x1) / 2
			gap := b.at(xm).y0 - a.at(xm).y1
			if gap > 0 && (best < 0 || gap < bestGap) {
				best, bestGap = j, gap
			}
		}
		if best < 0 || bestGap < minBox || bestGap > maxBox {
			continue
		}
		b := chains[best]
		top := func(x int) int { return a.at(x).y1 }
		bot := func(x int) int { return b.at(x).y0 }
		x0, x1 := max(a.x0(), b.x0()), min(a.x1(), b.x1())
		// Walls: columns of rule pixels over most of the box's height.
		var walls [][2]int
		for x := x0; x < x1; x++ {
			t, bt := top(x), bot(x)
			need := int(math.Ceil(combWallShare * float64(bt-t)))
			n := 0
			for y := t; y < bt; y++ {
				if rule[y*w+x] {
					n++
				}
			}
			if n < need {
				continue
			}
			if k := len(walls) - 1; k >= 0 && walls[k][1] == x {
				walls[k][1] = x + 1
			} else {
				walls = append(walls, [2]int{x, x + 1})
			}
		}
		walls = extendWalls(walls, mask, w, top, bot)
		for _, r := range combRuns(walls, top, bot) {
			out = addRow(out, r)
		}
	}
	slices.SortFunc(out, func(a, b CombRow) int {
		fa, fb := a.frame(), b.frame()
		if fa.Min.Y != fb.Min.Y {
			return fa.Min.Y - fb.Min.Y
		}
		return fa.Min.X - fb.Min.X
	})
	return out
}

// addRow adds r to rows, unless it is one of them found again (a rule
// thick or jagged enough to make two): of two rows sharing half the
// smaller's area, the one with more boxes stays.
func addRow(rows []CombRow, r CombRow) []CombRow {
	f := r.frame()
	for i, o := range rows {
		of := o.frame()
		in := f.Intersect(of)
		if 2*in.Dx()*in.Dy() >= min(f.Dx()*f.Dy(), of.Dx()*of.Dy()) {
			if len(r.Cells) > len(o.Cells) {
				rows[i] = r
			}
			return rows
		}
	}
	return append(rows, r)
}

func abs(v int) int { return max(v, -v) }

// extendWalls adds to walls (column ranges, left to right, of a row of
// boxes from top(x) to bot(x)-1) the walls one pitch on beyond either
// end, as long as there are: columns of ink (mask, w wide) over most of
// the box's height, within combPitchTol of a pitch from the last. A
// rule's end, where a page turned on the scanner steps it into runs too
// short for a rule, can stop the rules short of the last box.
func extendWalls(walls [][2]int, mask []bool, w int, top, bot func(int) int) [][2]int {
	if len(walls) < combMinCells {
		return walls
	}
	steps := make([]int, len(walls)-1)
	for k := range steps {
		steps[k] = walls[k+1][0] - walls[k][0]
	}
	slices.Sort(steps)
	pitch := steps[len(steps)/2]
	tol := max(1, int(combPitchTol*float64(pitch)))
	wall := func(x int) bool {
		if x < 0 || x >= w {
			return false
		}
		t, b := top(x), bot(x)
		n := 0
		for y := t; y < b; y++ {
			if mask[y*w+x] {
				n++
			}
		}
		return b > t && float64(n) >= combWallShare*float64(b-t)
	}
	// find returns the wall nearest x, within tol, or false.
	find := func(x int) ([2]int, bool) {
		for d := 0; d <= tol; d++ {
			for _, c := range []int{x - d, x + d} {
				if wall(c) {
					a, b := c, c+1
					for wall(a - 1) {
						a--
					}
					for wall(b) {
						b++
					}
					return [2]int{a, b}, true
				}
			}
		}
		return [2]int{}, false
	}
	for {
		last := walls[len(walls)-1]
		nw, ok := find(last[0] + pitch)
		if !ok || nw[0] <= last[1] {
			break
		}
		walls = append(walls, nw)
	}
	for {
		first := walls[0]
		nw, ok := find(first[0] - pitch)
		if !ok || nw[1] >= first[0] {
			break
		}
		walls = append([][2]int{nw}, walls...)
	}
	return walls
}

// combMaxSlope bounds the slope (rows per column) of a rule's steps
// taken for one rule: two degrees.
const combMaxSlope = 0.035

// hasRun reports whether mask (w*h) has a horizontal run of at least n.
func hasRun(mask []bool, w, h, n int) bool {
	for y := range h {
		run := 0
		for _, m := range mask[y*w : (y+1)*w] {
			if !m {
				run = 0
				continue
			}
			if run++; run >= n {
				return true
			}
		}
	}
	return false
}

// combRuns returns the runs of at least combMinCells boxes of one width
// between walls (column ranges) of a row of boxes from top(x) to
// bot(x)-1 in column x.
func combRuns(walls [][2]int, top, bot func(int) int) []CombRow {
	if len(walls) < combMinCells+1 {
		return nil
	}
	xm := (walls[0][0] + walls[len(walls)-1][1]) / 2
	h := float64(bot(xm) - top(xm))
	widths := make([]float64, len(walls)-1)
	for k := range widths {
		widths[k] = float64(walls[k+1][0] - walls[k][1])
	}
	sorted := slices.Clone(widths)
	slices.Sort(sorted)
	med := sorted[len(sorted)/2]
	if med < combMinAspect*h || med > combMaxAspect*h {
		return nil
	}
	pad := ruleFringe + 1
	var out []CombRow
	for k := 0; k < len(widths); {
		e := k
		for e < len(widths) && math.Abs(widths[e]-med) <= combPitchTol*med {
			e++
		}
		if e-k >= combMinCells {
			var row CombRow
			for c := k; c < e; c++ {
				xa, xb := walls[c][1]+pad, walls[c+1][0]-pad
				ya, yb := max(top(xa), top(xb))+pad, min(bot(xa), bot(xb))-pad
				row.Cells = append(row.Cells, image.Rect(xa, ya, xb, yb))
			}
			out = append(out, row)
		}
		k = max(e, k+1)
	}
	return out
}

// ReadComb reads row's boxes in img: each box's glyph, cut out at the
// row's height (walls and rules left out) and narrowed to its ink, set
// beside the next as a text's letters stand, an empty box as a space,
// and all read as one line. It returns each box's reading ("" for an
// empty box or one nothing was read in) and the line's confidence.
func (e *Engine) ReadComb(ctx context.Context, img Image, row CombRow) ([]string, float32, error) {
	if err := img.validate(); err != nil {
		return nil, 0, err
	}
	select {
	case <-e.closed:
		return nil, 0, ErrClosed
	default:
	}
	out := make([]string, len(row.Cells))
	if len(row.Cells) == 0 {
		return out, 0, nil
	}
	paper := imagePaper(img)
	pg := int(paper[0])
	if img.Channels == 3 {
		pg = (int(paper[0]) + int(paper[1]) + int(paper[2])) / 3
	}
	dark := func(x, y int) bool {
		o := y*img.Stride + x*img.Channels
		v := int(img.Pix[o])
		if img.Channels == 3 {
			v = (int(img.Pix[o]) + int(img.Pix[o+1]) + int(img.Pix[o+2])) / 3
		}
		return pg-v > 2*ruleInk
	}
	b := row.frame().Intersect(image.Rect(0, 0, img.W, img.H))
	if b.Empty() {
		return out, 0, nil
	}
	// Each box's ink columns, and the rows the boxes' ink spans, counted
	// from each box's top (on a page turned on the glass, the boxes of
	// a long row stand higher at one end): the line's rows.
	type part struct {
		c    crop
		cell int
	}
	var parts []part
	y0, y1 := math.MaxInt, math.MinInt
	inkX := make([][2]int, len(row.Cells))
	for i, r := range row.Cells {
		r = r.Intersect(b)
		inkX[i] = [2]int{-1, -1}
		for x := r.Min.X; x < r.Max.X; x++ {
			for y := r.Min.Y; y < r.Max.Y; y++ {
				if dark(x, y) {
					if inkX[i][0] < 0 {
						inkX[i][0] = x
					}
					inkX[i][1] = x + 1
					y0, y1 = min(y0, y-r.Min.Y), max(y1, y+1-r.Min.Y)
				}
			}
		}
	}
	if y1 <= y0 {
		return out, 0, nil
	}
	// A margin of paper above and below the ink, as a line's box has.
	m := max(2, (y1-y0)/5)
	y0, y1 = max(y0-m, 0), y1+m
	for i, x := range inkX {
		if x[0] < 0 {
			continue
		}
		cell := row.Cells[i]
		x0, x1 := max(x[0]-1, cell.Min.X), min(x[1]+1, cell.Max.X)
		y0, y1 := cell.Min.Y+y0, min(cell.Min.Y+y1, cell.Max.Y, img.H)
		q := Quad{UL: Point{float64(x0), float64(y0)}, UR: Point{float64(x1), float64(y0)}, LL: Point{float64(x0), float64(y1)}, LR: Point{float64(x1), float64(y1)}}
		c, ok := cropQuad(img, q)
		if ok {
			parts = append(parts, part{c, i})
		}
	}
	if len(parts) == 0 {
		return out, 0, nil
	}
	// Set side by side, each glyph centred in a slot as wide as the
	// widest glyph and a gap (as monospaced print): spans[k] is part
	// k's slot, so a character read is placed by its centre even when
	// the recogniser's centres stray.
	slot := 0
	for _, p := range parts {
		slot = max(slot, p.c.w+combGlyphGap)
	}
	spans := make([][2]int, len(parts))
	w := 0
	for k, p := range parts {
		if k > 0 && p.cell > parts[k-1].cell+1 {
			w += combSpaceGap
		}
		spans[k] = [2]int{w, w + slot}
		w += slot
	}
	ch := img.Channels
	line := crop{pix: make([]byte, w*recH*ch), w: w, ch: ch}
	for i := range line.pix {
		line.pix[i] = paper[i%ch]
	}
	for k, p := range parts {
		x := spans[k][0] + (slot-p.c.w)/2
		for y := 0; y < recH; y++ {
			copy(line.pix[(y*w+x)*ch:(y*w+x+p.c.w)*ch], p.c.pix[y*p.c.w*ch:(y+1)*p.c.w*ch])
		}
	}
	q := Quad{UL: Point{0, 0}, UR: Point{float64(w), 0}, LL: Point{0, recH}, LR: Point{float64(w), recH}}
	lines, err := e.read(ctx, []*lineJob{{quad: q, c: line}})
	if err != nil {
		return nil, 0, fmt.Errorf("ocr: read comb: %w", err)
	}
	// Each character goes to the box whose slot its centre falls in, or
	// the nearest.
	sb := make([]strings.Builder, len(row.Cells))
	for _, wd := range lines[0].Words {
		k := 0
		for _, r := range wd.Text {
			if k >= len(wd.Chars) {
				break
			}
			x0, _, x1, _ := wd.Chars[k].Bounds()
			k++
			cx := (x0 + x1) / 2
			best, bestD := 0, math.Inf(1)
			for j, s := range spans {
				d := math.Max(math.Max(float64(s[0])-cx, cx-float64(s[1])), 0)
				if d < bestD {
					best, bestD = j, d
				}
			}
			sb[parts[best].cell].WriteRune(r)
		}
	}
	for i := range out {
		out[i] = sb[i].String()
	}
	return out, lines[0].Conf, nil
}
