package visual

import (
	"slices"
)

// Handwriting (issue 47): ink that is handwriting rather than print. A
// picture's ink that no print explains (the words a text layer or OCR
// read with confidence, given as boxes) is grouped into candidates, each
// the ink of a word or a stroke group; models/hand's classifier scores
// each candidate's patches and the pipeline decides (engine/pipeline
// hand.go). The cut here is the one models/hand/train/synth.py trains
// on; the two change together.

// PatchH and PatchW are the classifier's input, in pixels: ink = 1,
// paper = 0.
const (
	PatchH = 32
	PatchW = 128
)

// Candidate grouping, in units of the raster's resolution (dpi):
const (
	// handBlockIn is the side of the blocks ink is mapped by: 1/75 in,
	// 2 px at 150 dpi.
	handBlockIn = 1.0 / 75
	// handGapXIn, handGapYIn: strokes this close join one candidate (a
	// pen lift inside a word, the loops of a capital above the line).
	handGapXIn = 0.07
	handGapYIn = 0.04
	// handMinIn: a candidate's box is at least this tall or wide (a
	// speck, a dot, a full stop are not handwriting worth masking).
	handMinIn = 0.08
	// handRuleIn: a straight run of ink (along one row or column of
	// blocks) at most two blocks thick and this long is a rule (a
	// signature line, a form's border, or the piece of one that a pasted
	// image left) and is left out before grouping, so that a line does
	// not join all it crosses. A pen's strokes do not run that straight
	// that long: even a flourish under a name drifts across rows.
	handRuleIn = 0.2
	// handDense: a candidate whose box is inked over this share at its
	// ink's core (coreLevel) is a filled area or a photo, not pen
	// strokes. It was 0.45 of the pixels darker than the paper's
	// threshold, which a small blurred date fails (its halo fills the
	// gaps between its loops: 0.61 of its box; 0.46 at the core). 0.5
	// at the core was chosen on the dev corpus (seed 12's noisy scanned
	// form); a filled area is inked over 0.9 of its box at its core.
	handDense = 0.5
	// handSparse: one inked under this share is specks scattered over
	// paper (a noisy scan's), not strokes; handMinInk is the least ink,
	// in square inches, of a candidate (45 px at 150 dpi).
	handSparse = 0.03
	handMinInk = 0.002
	// handMaxCands bounds the candidates of one picture: a page of print
	// nobody read (OCR off) is not classified word by word.
	handMaxCands = 96
)

// InkCandidates returns the boxes, in g's pixels, of g's ink that the
// boxes in known (print, in g's pixels) do not explain, grouped as pen strokes
// group, at dpi pixels per inch. Rules are left out of the grouping (not
// out of the boxes' pixels).
func InkCandidates(g Gray, known []Box, dpi float64) []Box {
	if g.W < 8 || g.H < 8 {
		return nil
	}
	paper := percentile(g, Box{0, 0, g.W, g.H}, 0.75)
	thr := inkThreshold(paper)
	if thr <= 0 {
		return nil
	}
	bs := max(1, int(dpi*handBlockIn+0.5))
	bw, bh := (g.W+bs-1)/bs, (g.H+bs-1)/bs
	// A block holds ink with two dark pixels: a lone one is a speck of
	// the scan's noise.
	cnt := make([]uint8, bw*bh)
	for y := 0; y < g.H; y++ {
		row := g.Pix[y*g.Stride : y*g.Stride+g.W]
		by := y / bs
		for x, v := range row {
			if int(v) < thr && cnt[by*bw+x/bs] < 255 {
				cnt[by*bw+x/bs]++
			}
		}
	}
	ink := make([]bool, bw*bh)
	for i, c := range cnt {
		ink[i] = c >= 2
	}
	for _, b := range known {
		for by := max(b.Y0/bs, 0); by < min((b.Y1+bs-1)/bs, bh); by++ {
			for bx := max(b.X0/bs, 0); bx < min((b.X1+bs-1)/bs, bw); bx++ {
				ink[by*bw+bx] = false
			}
		}
	}
	runLen := max(4, int(dpi*handRuleIn/float64(bs)))
	dropThinRuns(ink, bw, bh, runLen)
	// Grouping: the ink map grown by the gaps, its components.
	gx, gy := max(1, int(dpi*handGapXIn/float64(bs)+0.5)), max(1, int(dpi*handGapYIn/float64(bs)+0.5))
	grown := dilate(ink, bw, bh, gx, gy)
	minSide := max(2, int(dpi*handMinIn/float64(bs)+0.5))
	var out []Box
	for _, c := range components(grown, bw, bh) {
		// The component's ink box (the growth taken off).
		ib := Box{bw, bh, 0, 0}
		n := 0
		for by := c.Y0; by < c.Y1; by++ {
			for bx := c.X0; bx < c.X1; bx++ {
				if ink[by*bw+bx] {
					ib = Box{min(ib.X0, bx), min(ib.Y0, by), max(ib.X1, bx+1), max(ib.Y1, by+1)}
					n++
				}
			}
		}
		if n == 0 || ib.X1-ib.X0 < minSide && ib.Y1-ib.Y0 < minSide || ib.Y1-ib.Y0 < 2 {
			continue
		}
		px := Box{ib.X0 * bs, ib.Y0 * bs, min(ib.X1*bs, g.W), min(ib.Y1*bs, g.H)}
		dark, a := float64(darkIn(g, px, thr)), float64(area(px))
		if dark < handSparse*a || dark < handMinInk*dpi*dpi || float64(darkIn(g, px, coreLevel(g, px, paper, thr))) > handDense*a {
			continue
		}
		out = append(out, px)
	}
	if len(out) > handMaxCands {
		// The largest are kept: a signature is among a page's largest
		// strokes; specks and stray glyphs are many and small.
		slices.SortFunc(out, func(a, b Box) int { return area(b) - area(a) })
		out = out[:handMaxCands]
	}
	return out
}

func area(b Box) int { return (b.X1 - b.X0) * (b.Y1 - b.Y0) }

// inkThreshold is the gray level under which a pixel is ink on paper of
// level paper (a candidate's or a page's 75th percentile).
func inkThreshold(paper uint8) int { return int(paper) - max(48, int(paper)/4) }

// coreLevel is the gray level under which b's ink is its strokes' core:
// halfway between the paper and the ink (b's 2nd percentile), or thr when
// that is lighter: at the midpoint of a blurred edge lies the edge. A
// filled area is as dark across as at its core; a blurred pen stroke's
// halo is not (a small date on a noisy scan, its loops blurred together,
// is inked over 0.61 of its box at thr and 0.46 at its core).
func coreLevel(g Gray, b Box, paper uint8, thr int) int {
	return min(thr, (int(paper)+int(percentile(g, b, 0.02)))/2)
}

// darkIn counts b's pixels darker than thr.
func darkIn(g Gray, b Box, thr int) int {
	n := 0
	for y := b.Y0; y < b.Y1; y++ {
		for _, v := range g.Pix[y*g.Stride+b.X0 : y*g.Stride+b.X1] {
			if int(v) < thr {
				n++
			}
		}
	}
	return n
}

// dropThinRuns clears, in every horizontal run of at least n inked
// blocks, the blocks where the ink across the run is at most two blocks
// thick (a rule, and not what crosses it: a signature over its line
// keeps its strokes), and the same for vertical runs.
//
// The horizontal runs go first, and the vertical ones are found on what
// is left, so that a box's corner (thick across both ways) goes with its
// sides.
func dropThinRuns(ink []bool, w, h, n int) {
	thin := func(x, y, dx, dy int) bool { // the ink across (x, y) is at most 2 blocks
		k := 0
		for s := -3; s <= 3; s++ {
			xx, yy := x+s*dy, y+s*dx
			if xx >= 0 && yy >= 0 && xx < w && yy < h && ink[yy*w+xx] {
				k++
			}
		}
		return k <= 3
	}
	for _, d := range [][2]int{{1, 0}, {0, 1}} {
		clear := make([]bool, len(ink))
		dx, dy := d[0], d[1]
		outer, inner := h, w
		if dy == 1 {
			outer, inner = w, h
		}
		at := func(o, i int) (int, int) {
			if dy == 1 {
				return o, i
			}
			return i, o
		}
		for o := range outer {
			// A run goes on over a gap of one block: a scan's noise and a
			// faint rule's anti-aliasing break a rule into pieces shorter
			// than n, which would be left as strokes.
			start, last := -1, -1
			for i := 0; i <= inner; i++ {
				on := false
				if i < inner {
					x, y := at(o, i)
					on = ink[y*w+x]
				}
				if on {
					if start < 0 {
						start = i
					}
					last = i
					continue
				}
				if start >= 0 && (i == inner || i-last > 1) {
					if last+1-start >= n {
						for j := start; j <= last; j++ {
							if x, y := at(o, j); ink[y*w+x] && thin(x, y, dx, dy) {
								clear[y*w+x] = true
							}
						}
					}
					start = -1
				}
			}
		}
		for i, c := range clear {
			if c {
				ink[i] = false
			}
		}
	}
}

// dilate grows set by gx blocks left and right and gy up and down: rows
// first, then columns.
func dilate(set []bool, w, h, gx, gy int) []bool {
	tmp := make([]bool, len(set))
	for y := range h {
		spread(tmp, set, y*w, 1, w, gx)
	}
	out := make([]bool, len(set))
	for x := range w {
		spread(out, tmp, x, w, h, gy)
	}
	return out
}

// spread sets in dst every element of one line of src (n elements from
// start, step apart) that lies within g elements of a set one.
func spread(dst, src []bool, start, step, n, g int) {
	last := -1 << 30
	for k := 0; k < n; k++ { // distance to the last set element before
		if src[start+k*step] {
			last = k
		}
		if k-last <= g {
			dst[start+k*step] = true
		}
	}
	last = 1 << 30
	for k := n - 1; k >= 0; k-- {
		if src[start+k*step] {
			last = k
		}
		if last-k <= g {
			dst[start+k*step] = true
		}
	}
}

// percentile is the gray level under which share q of b's pixels lie.
func percentile(g Gray, b Box, q float64) uint8 {
	var h [256]int
	for y := b.Y0; y < b.Y1; y++ {
		for _, v := range g.Pix[y*g.Stride+b.X0 : y*g.Stride+b.X1] {
			h[v]++
		}
	}
	return histLevel(&h, q)
}

func histLevel(h *[256]int, q float64) uint8 {
	n := 0
	for _, c := range h {
		n += c
	}
	want, c := q*float64(n), 0
	for v := range 256 {
		c += h[v]
		if float64(c) > want {
			return uint8(v)
		}
	}
	return 255
}

// Patches cuts candidate b of g into the classifier's patches, as
// synth.py's cut does: the box with a margin of a tenth of its height (at
// least 2 px), contrast stretched (paper, the 75th percentile, to 0; ink,
// the 2nd, at least 48 levels under it, to 1), scaled to PatchH high (or
// PatchW wide) and centred; a box longer than PatchW/PatchH times its
// height is cut into windows of that shape overlapping by half. Each
// patch is PatchH*PatchW values, row by row.
func Patches(g Gray, b Box) [][]float32 {
	m := max(2, (b.Y1-b.Y0)/10)
	b = Box{max(b.X0-m, 0), max(b.Y0-m, 0), min(b.X1+m, g.W), min(b.Y1+m, g.H)}
	w, h := b.X1-b.X0, b.Y1-b.Y0
	if w < 2 || h < 2 {
		return nil
	}
	var hist [256]int
	for y := b.Y0; y < b.Y1; y++ {
		for _, v := range g.Pix[y*g.Stride+b.X0 : y*g.Stride+b.X1] {
			hist[v]++
		}
	}
	lo, hi := float32(histLevel(&hist, 0.02)), float32(histLevel(&hist, 0.75))
	span := max(hi-lo, 48)
	f := make([]float32, w*h)
	for y := range h {
		for x, v := range g.Pix[(b.Y0+y)*g.Stride+b.X0 : (b.Y0+y)*g.Stride+b.X1] {
			f[y*w+x] = min(max((hi-float32(v))/span, 0), 1)
		}
	}
	win := h * PatchW / PatchH
	type span2 struct{ x0, x1 int }
	var wins []span2
	if w <= win {
		wins = []span2{{0, w}}
	} else {
		step := max(1, win/2)
		for o := 0; o < w-win; o += step {
			wins = append(wins, span2{o, o + win})
		}
		wins = append(wins, span2{w - win, w})
	}
	out := make([][]float32, 0, len(wins))
	for _, s := range wins {
		cw := s.x1 - s.x0
		sc := min(float64(PatchH)/float64(h), float64(PatchW)/float64(cw))
		nw, nh := max(1, int(float64(cw)*sc+0.5)), max(1, int(float64(h)*sc+0.5))
		p := make([]float32, PatchH*PatchW)
		oy, ox := (PatchH-nh)/2, (PatchW-nw)/2
		boxResize(f[s.x0:], w, cw, h, p[oy*PatchW+ox:], PatchW, nw, nh)
		out = append(out, p)
	}
	return out
}

// boxResize scales the sw x sh values of src (rows of stride ss) to dw x
// dh values in dst (rows of stride ds) with PIL's BOX filter, as the
// recipe does (Image.resize(..., Image.BOX)): each value the mean of the
// source values whose centres lie in its box, a row pass then a column
// pass.
func boxResize(src []float32, ss, sw, sh int, dst []float32, ds, dw, dh int) {
	xs, xw := pilCoeffs(sw, dw)
	ys, yw := pilCoeffs(sh, dh)
	tmp := make([]float64, sh*dw)
	for y := range sh {
		row := src[y*ss:]
		for x := range dw {
			var v float64
			for k, w := range xw[x] {
				v += float64(row[xs[x]+k]) * w
			}
			tmp[y*dw+x] = v
		}
	}
	for y := range dh {
		for x := range dw {
			var v float64
			for k, w := range yw[y] {
				v += tmp[(ys[y]+k)*dw+x] * w
			}
			dst[y*ds+x] = float32(v)
		}
	}
}

// pilCoeffs are PIL's resampling coefficients for its BOX filter
// (precompute_coeffs in Pillow's Resample.c): for each output position,
// the first input position and the weights from it on.
func pilCoeffs(in, out int) ([]int, [][]float64) {
	scale := float64(in) / float64(out)
	fs := max(scale, 1)
	support := 0.5 * fs
	first := make([]int, out)
	ws := make([][]float64, out)
	for xx := range out {
		center := (float64(xx) + 0.5) * scale
		xmin := max(int(center-support+0.5), 0)
		xmax := min(int(center+support+0.5), in) - xmin
		w := make([]float64, max(xmax, 0))
		var sum float64
		for x := range w {
			if v := (float64(x+xmin) - center + 0.5) / fs; v > -0.5 && v <= 0.5 {
				w[x] = 1
				sum++
			}
		}
		for x := range w {
			if sum != 0 {
				w[x] /= sum
			}
		}
		first[xx], ws[xx] = xmin, w
	}
	return first, ws
}

// Mirrored is how nearly patch p (PatchH*PatchW values, as Patches cuts
// them) is its own mirror image left to right: the correlation of its
// ink with its mirror's, the best of shifts by up to 2 px (a patch is
// centred to a pixel), 1 for a mirror-symmetric patch. Ornaments, seals
// and logos are often drawn symmetric; a hand never writes so.
func Mirrored(p []float32) float64 {
	var self float64
	for _, v := range p {
		self += float64(v) * float64(v)
	}
	if self == 0 {
		return 0
	}
	best := 0.0
	for s := -2; s <= 2; s++ {
		var c float64
		for y := range PatchH {
			row := p[y*PatchW : (y+1)*PatchW]
			for x, v := range row {
				// the mirror of row, shifted by s: x' = PatchW-1-x+s
				if m := PatchW - 1 - x + s; v != 0 && m >= 0 && m < PatchW {
					c += float64(v) * float64(row[m])
				}
			}
		}
		best = max(best, c/self)
	}
	return best
}

// Under a caption, in units of the raster's resolution (dpi): a
// caption's line is at most handCaptionIn high (a form's 7-12 pt
// caption), and the writing under it at least handCaptionBelow times as
// tall as that line.
const (
	handCaptionIn    = 0.2
	handCaptionBelow = 1.5
)

// BelowCaption finds, in candidate b of g (pixels, at dpi), a caption's
// line on top of the writing: a band of rows at b's top, at most
// handCaptionIn high, parted from the ink under it by a row inked at
// most a tenth as much as the band's mean row (the writing's loop that
// reaches up into the caption's line crosses there), the ink under it
// at least handCaptionBelow times as tall as the band. It returns the
// box of the ink under the band. A caption OCR did not read joins the
// signature written under it into one candidate, which then looks like
// neither (on a noisy scan's form, scored 0.41 where the signature alone
// scores over 0.9).
func BelowCaption(g Gray, b Box, dpi float64) (Box, bool) {
	h := b.Y1 - b.Y0
	maxBand := int(dpi * handCaptionIn)
	if h < 3 || b.X1-b.X0 < 3 {
		return Box{}, false
	}
	paper := percentile(g, b, 0.75)
	thr := inkThreshold(paper)
	// A column inked down four fifths of b is a box's side, not the
	// caption's nor the writing's: it is left out.
	w := b.X1 - b.X0
	cols := make([]int, w)
	for y := b.Y0; y < b.Y1; y++ {
		for x, v := range g.Pix[y*g.Stride+b.X0 : y*g.Stride+b.X1] {
			if int(v) < thr {
				cols[x]++
			}
		}
	}
	side := make([]bool, w)
	for x, n := range cols {
		if 5*n >= 4*h { // with its anti-aliased edges
			for k := max(x-1, 0); k <= min(x+1, w-1); k++ {
				side[k] = true
			}
		}
	}
	rows := make([]int, h)
	for y := range h {
		for x, v := range g.Pix[(b.Y0+y)*g.Stride+b.X0 : (b.Y0+y)*g.Stride+b.X1] {
			if int(v) < thr && !side[x] {
				rows[y]++
			}
		}
	}
	// the band: the first inked rows; the parting: the least inked row
	// after at least a third of the band's height
	best, at := 1<<30, -1
	for y := 3; y <= min(maxBand, h-1); y++ {
		if rows[y] < best {
			best, at = rows[y], y
		}
	}
	if at < 0 || float64(h-at) < handCaptionBelow*float64(at) {
		return Box{}, false
	}
	sum := 0
	for _, r := range rows[:at] {
		sum += r
	}
	if sum == 0 || 10*best*at > sum {
		return Box{}, false
	}
	// the ink under the parting, its box
	out := Box{b.X1, b.Y1, b.X0, b.Y0}
	for y := b.Y0 + at + 1; y < b.Y1; y++ {
		for x, v := range g.Pix[y*g.Stride+b.X0 : y*g.Stride+b.X1] {
			if int(v) < thr && !side[x] {
				out = Box{min(out.X0, b.X0+x), min(out.Y0, y), max(out.X1, b.X0+x+1), max(out.Y1, y+1)}
			}
		}
	}
	if out.X1 <= out.X0 || out.Y1-out.Y0 < 3 {
		return Box{}, false
	}
	return out, true
}
