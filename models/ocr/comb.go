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
	// line), set between two boxes' glyphs, about a font's side bearings;
	// an empty box is a word gap, combSpaceGap.
	combGlyphGap = 6
	combSpaceGap = 32
)

// CombRow is a row of evenly pitched boxes of a form: Cells are their
// insides, left to right, walls and rules left out (pixels of the image
// it was found in).
type CombRow struct {
	Cells []image.Rectangle
}

// Bounds is the smallest rectangle holding the row's boxes.
func (c CombRow) Bounds() image.Rectangle {
	var b image.Rectangle
	for _, r := range c.Cells {
		b = b.Union(r)
	}
	return b
}

// hRule is a horizontal rule: rows y0..y1-1, columns x0..x1-1.
type hRule struct{ x0, x1, y0, y1 int }

// CombRows returns the rows of boxes ruled in img (dpi: its pixels per
// inch, 0 for 200): two horizontal rules, one above the other, a box's
// height apart, and between them at least combMinCells boxes of one
// width walled by vertical rules.
func CombRows(img Image, dpi float64) []CombRow {
	if img.W <= 0 || img.H <= 0 || (img.Channels != 1 && img.Channels != 3) {
		return nil
	}
	if dpi <= 0 {
		dpi = 200
	}
	w, h := img.W, img.H
	minH := rulePx(ruleHPt, dpi)
	thick := max(2, rulePx(ruleThickPt, dpi))
	mask, _ := inkMask(img)
	if !hasRun(mask, w, h, minH) {
		return nil // no ink as long as a rule: a page of text (most scans)
	}
	rule := rules(mask, w, h, dpi)
	// Horizontal rules: runs of rule pixels at least minH long, joined
	// over the rows they share.
	var rules []hRule
	open := map[[2]int]int{} // run (x0, x1) ending on the previous row -> rules index
	for y := range h {
		next := map[[2]int]int{}
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
			if x-s < minH {
				continue
			}
			k := -1
			for run, i := range open {
				if run[0] < x && s < run[1] && min(x, run[1])-max(s, run[0]) >= (x-s)/2 {
					k = i
					break
				}
			}
			if k < 0 || rules[k].y1-rules[k].y0 >= thick+2 {
				rules = append(rules, hRule{s, x, y, y + 1})
				k = len(rules) - 1
			} else {
				r := &rules[k]
				r.x0, r.x1, r.y1 = min(r.x0, s), max(r.x1, x), y+1
			}
			next[[2]int{s, x}] = k
		}
		open = next
	}
	minBox := int(combBoxMinPt * dpi / 72)
	maxBox := int(math.Ceil(combBoxMaxPt * dpi / 72))
	var out []CombRow
	for i, a := range rules {
		// The nearest rule below a that shares its columns.
		best := -1
		for j, b := range rules {
			if j == i || b.y0 < a.y1 || min(a.x1, b.x1)-max(a.x0, b.x0) < minH {
				continue
			}
			if best < 0 || b.y0 < rules[best].y0 {
				best = j
			}
		}
		if best < 0 {
			continue
		}
		b := rules[best]
		top, bot := a.y1, b.y0
		if bot-top < minBox || bot-top > maxBox {
			continue
		}
		x0, x1 := max(a.x0, b.x0), min(a.x1, b.x1)
		// Walls: columns of rule pixels over most of the box's height.
		need := int(math.Ceil(combWallShare * float64(bot-top)))
		var walls [][2]int
		for x := x0; x < x1; x++ {
			n := 0
			for y := top; y < bot; y++ {
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
		out = append(out, combRuns(walls, top, bot)...)
	}
	return out
}

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
// between walls (column ranges) of a row of boxes top..bot-1.
func combRuns(walls [][2]int, top, bot int) []CombRow {
	if len(walls) < combMinCells+1 {
		return nil
	}
	h := float64(bot - top)
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
				row.Cells = append(row.Cells, image.Rect(walls[c][1]+pad, top+pad, walls[c+1][0]-pad, bot-pad))
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
	b := row.Bounds().Intersect(image.Rect(0, 0, img.W, img.H))
	if b.Empty() {
		return out, 0, nil
	}
	// Each box's ink columns; the line's rows are the row's ink rows.
	type part struct {
		c    crop
		cell int
	}
	var parts []part
	y0, y1 := b.Max.Y, b.Min.Y
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
					y0, y1 = min(y0, y), max(y1, y+1)
				}
			}
		}
	}
	if y1 <= y0 {
		return out, 0, nil
	}
	// A margin of paper above and below the ink, as a line's box has.
	m := max(2, (y1-y0)/5)
	y0, y1 = max(y0-m, b.Min.Y), min(y1+m, b.Max.Y)
	for i, x := range inkX {
		if x[0] < 0 {
			continue
		}
		x0, x1 := max(x[0]-1, row.Cells[i].Min.X), min(x[1]+1, row.Cells[i].Max.X)
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
