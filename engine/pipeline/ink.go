package pipeline

import (
	"slices"
	"sync"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/kernels"
)

// Ink the text layer does not explain. On a page whose fonts passed their
// check, what the layer's words cover is read already; anything else
// inked may be text too: an image of any size (images are always read,
// whatever words lie over them) (a pasted screenshot, a
// signature line), text drawn as outlines (logos, letterheads, PDFs
// printed to outlines), glyphs drawn outside their declared boxes. The
// page is cut into inkBlock-pixel blocks; blocks under a word (grown a
// little, for anti-aliasing) are explained; the rest are grouped into
// 8-connected components, and the text-like ones are read by OCR. Thin
// components (rules, table borders, underlines, specks) and solid ones
// (filled areas) are skipped without reading them.
const (
	inkBlock = 4  // block side in pixels
	inkTol   = 40 // a block whose mean is this far from the paper holds ink
	// minInkSide is the least a component's both sides must span, in
	// blocks, to be read: 3 blocks is 12 px, the height of 6-pt capitals
	// at 150 dpi; a rule or border is one or two blocks thick.
	minInkSide = 3
	// solidShare and solidSpread tell a filled area: most blocks of its
	// box (all but the partly covered edges) inked to within solidSpread
	// of its deepest.
	solidShare  = 0.8
	solidSpread = 12
	// knockMin and knockShare: a filled area with at least this many
	// light blocks inside, and this share of its box, has content knocked
	// out of it (knockedOut) and is read.
	knockMin   = 25
	knockShare = 0.03
	// minMarkSide: a component smaller than this many blocks both ways
	// (20 px, 9.6 pt at 150 dpi) holds at most a mark or a glyph or two
	// (check boxes, bullets, icons): nothing legible to hide.
	minMarkSide = 5
	// ruleRun is the length in blocks from which a run of ink at most
	// ruleThick blocks thick is a rule or a border, not text, and is left
	// out before components are formed (so a form's grid does not join
	// everything on the page into one component).
	ruleRun   = 20
	ruleThick = 2
	// frameShare: a component at least ruleRun blocks both ways that inks
	// less than this share of its box is a frame (rounded or double
	// borders, panels), whose text, if any, is a component of its own.
	frameShare = 0.06
	// faintMean and faintPeak catch light print: gray text's thin strokes
	// cover a block only in part, so 70% gray outlines (a letterhead's or
	// footer's light gray) averaged 25-38 levels a block, under inkTol,
	// and were never read. A block whose mean is over faintMean holds ink
	// when its deepest pixel is over faintPeak (80% gray is 51 off white).
	// Light shading and tints (under faintPeak) stay paper.
	faintMean = 6
	faintPeak = 44
	// pictureInkPeak is faintPeak inside images (and under invisible
	// text), which are always read, where any block mean will do: a
	// picture of 6-pt text in 70% gray peaks at about 40, and a pale
	// picture costs one more region.
	pictureInkPeak = 20
	// inkPad is the margin, in pixels, by which words explain the blocks
	// around them.
	inkPad = 2
	// maxInkRegions bounds the regions read on one page; a page with
	// more is read whole (one detector pass is cheaper than many).
	maxInkRegions = 24
)

// inkMap is a page's ink that no word explains, rules left out, by
// blocks of inkBlock pixels: what OCR has to read there. A text line
// the detector finds in a region with none of it (a trusted word caught
// in the region's margin or inside a drawing's box) says only what the
// layer says already, and is not read again (OCR.Recognize's known).
type inkMap struct {
	gw, gh int
	ink    []bool
}

// explains reports whether r (raster pixels) holds no block of the
// map's ink.
func (m *inkMap) explains(r PixelRect) bool {
	// A line may reach past the raster (it was found on white paper put
	// around the region): there is no ink out there.
	x0, y0 := min(max(0, r.X0/inkBlock), m.gw), max(0, r.Y0/inkBlock)
	x1, y1 := min(m.gw-1, (r.X1-1)/inkBlock), min(m.gh-1, (r.Y1-1)/inkBlock)
	for y := y0; y <= y1; y++ {
		for _, in := range m.ink[y*m.gw+x0 : y*m.gw+max(x0, x1+1)] {
			if in {
				return false
			}
		}
	}
	return true
}

// appendBits appends the map's blocks inside r (raster pixels), one byte
// each, to b: what a reading of r skipping known lines depends on besides
// its pixels (regions.go).
func (m *inkMap) appendBits(b []byte, r PixelRect) []byte {
	for y := max(0, r.Y0/inkBlock); y <= min(m.gh-1, (r.Y1-1)/inkBlock); y++ {
		for x := max(0, r.X0/inkBlock); x <= min(m.gw-1, (r.X1-1)/inkBlock); x++ {
			v := byte(0)
			if m.ink[y*m.gw+x] {
				v = 1
			}
			b = append(b, v)
		}
	}
	return b
}

// unexplainedInk returns the pixel rectangles of the page's text-like ink
// that no word of pg.Words covers, each with a margin of half its height
// (at least inkBlock*2 pixels), and the map of that ink.
func unexplainedInk(pg *page.Page) ([]PixelRect, *inkMap) {
	r := pg.Raster
	gw, gh := (r.W+inkBlock-1)/inkBlock, (r.H+inkBlock-1)/inkBlock
	sc := getInkScratch(gw * gh)
	defer putInkScratch(sc)
	explained, blocks, ink := sc.explained, sc.blocks, sc.ink
	s := pg.DPI / 72
	// Words explain no ink inside images (a layer over a picture may be
	// invisible, or hidden under it, and say anything) nor under
	// invisible text (it draws nothing: whatever ink lies there, outlines
	// or another font's glyphs, is not what it says).
	var inImage []bool
	if len(pg.ImageRegions)+len(pg.HiddenText) > 0 {
		inImage = make([]bool, gw*gh)
	}
	for _, ir := range append(slices.Clip(pg.ImageRegions), pg.HiddenText...) {
		x0, y0, x1, y1 := page.PixelRect(ir, pg.DPI, r.W, r.H)
		for y := y0 / inkBlock; y < min(gh, (y1+inkBlock-1)/inkBlock); y++ {
			for x := x0 / inkBlock; x < min(gw, (x1+inkBlock-1)/inkBlock); x++ {
				inImage[y*gw+x] = true
			}
		}
	}
	for _, w := range pg.Words {
		b := w.Quad.Bounds()
		x0 := max(0, (int(b.X0*s)-inkPad)/inkBlock)
		y0 := max(0, (int(b.Y0*s)-inkPad)/inkBlock)
		x1 := min(gw-1, (int(b.X1*s)+inkPad)/inkBlock)
		y1 := min(gh-1, (int(b.Y1*s)+inkPad)/inkBlock)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				explained[y*gw+x] = inImage == nil || !inImage[y*gw+x]
			}
		}
	}
	paper := kernels.PaperLevel(r.Pix, r.W, r.H, r.Stride, r.Channels, 96, 0)
	if r.Channels == 1 && paper[0] == 255 {
		inkBlocksOnWhite(blocks, r, explained)
	} else {
		kernels.InkBlocks(blocks, r.Pix, r.W, r.H, r.Stride, r.Channels, paper, inkBlock)
	}
	inked := 0
	for i, d := range blocks {
		if explained[i] {
			continue
		}
		mean, peak := uint8(faintMean), faintPeak
		if inImage != nil && inImage[i] {
			mean, peak = 0, pictureInkPeak
		}
		if d > inkTol || (d > mean && blockPeak(r, paper, i%gw, i/gw) > peak) {
			ink[i] = true
			inked++
		}
	}
	if inked == 0 {
		return nil, nil // every mark on the page is under a word
	}
	sc.ink = nil // kept by the map returned
	dropRules(ink, gw, gh)
	seen := clearedBools(sc.seen, gw*gh)
	sc.seen = seen
	var out []PixelRect
	var stack, comp []int
	for start := range blocks {
		if seen[start] || !ink[start] {
			continue
		}
		// One component: its box, block count and depth range.
		seen[start] = true
		stack = append(stack[:0], start)
		x0, y0, x1, y1 := gw, gh, -1, -1
		comp = comp[:0]
		hi := uint8(0)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			bx, by := i%gw, i/gw
			x0, y0, x1, y1 = min(x0, bx), min(y0, by), max(x1, bx), max(y1, by)
			comp = append(comp, i)
			hi = max(hi, blocks[i])
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := bx+dx, by+dy
					if nx < 0 || ny < 0 || nx >= gw || ny >= gh {
						continue
					}
					j := ny*gw + nx
					if !seen[j] && ink[j] {
						seen[j] = true
						stack = append(stack, j)
					}
				}
			}
		}
		w, h := x1-x0+1, y1-y0+1
		if w < minInkSide || h < minInkSide || (w < minMarkSide && h < minMarkSide) {
			continue // a rule, a border, a speck, a box or bullet
		}
		deep, holes, ring := 0, 0, 0
		for _, i := range comp {
			if int(blocks[i])+solidSpread >= int(hi) {
				deep++
			}
			if bx, by := i%gw, i/gw; bx == x0 || bx == x1 || by == y0 || by == y1 {
				ring++
			}
		}
		if ring == len(comp) && w >= minInkSide+2 && h >= minInkSide+2 {
			continue // a frame: a check box, a cell border
		}
		if w >= ruleRun && h >= ruleRun && float64(len(comp)) < frameShare*float64(w*h) {
			continue // a large sparse drawing: panels, rounded or double borders
		}
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				if explained[y*gw+x] {
					holes++
				}
			}
		}
		if float64(deep) >= solidShare*float64(w*h-holes) && !knockedOut(blocks, ink, explained, gw, x0, y0, x1, y1, hi) {
			continue // a filled area (words on it explained apart)
		}
		out = append(out, inkRegion(r, x0, y0, x1, y1))
	}
	out = append(out, inkedImages(pg, ink, gw)...)
	return mergeRects(out), &inkMap{gw: gw, gh: gh, ink: ink}
}

// inkScratch is unexplainedInk's working memory, pooled: four maps of a
// page's blocks (about 130 000 at 150 dpi) were most of what a text page
// allocated.
type inkScratch struct {
	explained, ink, seen []bool
	blocks               []uint8
}

var inkScratchPool sync.Pool // *inkScratch

// maxPooledInkBlocks keeps a freak page's maps out of the pool (a
// Letter page at 150 dpi has 132 000 blocks).
const maxPooledInkBlocks = 4 << 20

// getInkScratch returns scratch maps of n blocks: explained and ink all
// false; blocks and seen not cleared (every block is written; seen is
// cleared where it is used).
func getInkScratch(n int) *inkScratch {
	sc, _ := inkScratchPool.Get().(*inkScratch)
	if sc == nil {
		sc = new(inkScratch)
	}
	sc.explained = clearedBools(sc.explained, n)
	sc.ink = clearedBools(sc.ink, n)
	if cap(sc.blocks) < n {
		sc.blocks = make([]uint8, n)
	}
	sc.blocks = sc.blocks[:n]
	return sc
}

func putInkScratch(sc *inkScratch) {
	if cap(sc.explained) <= maxPooledInkBlocks {
		inkScratchPool.Put(sc)
	}
}

func clearedBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// inkRegion is the pixel rectangle read for the blocks (x0, y0)-(x1, y1):
// their box with a margin of half its height, at least 2 blocks.
func inkRegion(r *page.Raster, x0, y0, x1, y1 int) PixelRect {
	m := max((y1-y0+1)*inkBlock/2, 2*inkBlock)
	return PixelRect{
		X0: max(0, x0*inkBlock-m), Y0: max(0, y0*inkBlock-m),
		X1: min(r.W, (x1+1)*inkBlock+m), Y1: min(r.H, (y1+1)*inkBlock+m),
	}
}

// inkedImages returns a region for each image of the page, whole, that
// holds any ink and is at least minInkSide blocks both ways (room for a
// line of 6-pt text). Components are cut by size and shape; an image is
// read whatever its ink's shapes: a picture of small, light text (6-pt
// in 70% gray) breaks into specks too small to keep, but is text all the
// same.
func inkedImages(pg *page.Page, ink []bool, gw int) []PixelRect {
	r := pg.Raster
	gh := len(ink) / gw
	var out []PixelRect
	for _, ir := range pg.ImageRegions {
		px0, py0, px1, py1 := page.PixelRect(ir, pg.DPI, r.W, r.H)
		x0, y0 := px0/inkBlock, py0/inkBlock
		x1, y1 := min(gw-1, (px1-1)/inkBlock), min(gh-1, (py1-1)/inkBlock)
		if x1-x0+1 < minInkSide || y1-y0+1 < minInkSide {
			continue
		}
		inked := false
		for y := y0; y <= y1 && !inked; y++ {
			inked = slices.Contains(ink[y*gw+x0:y*gw+x1+1], true)
		}
		if inked {
			out = append(out, inkRegion(r, x0, y0, x1, y1))
		}
	}
	return out
}

// inkBlocksOnWhite is kernels.InkBlocks with blocks of inkBlock pixels
// for a gray raster on white paper (255), as MuPDF renders text pages
// (kernels.InkBlocks4OnWhite: blank paper costs a few loads per four
// blocks). Blocks marked in skip (when not nil) are not measured and
// read 0.
func inkBlocksOnWhite(dst []uint8, r *page.Raster, skip []bool) {
	// The kernel's blocks are 4 pixels; this fails to compile otherwise.
	const _ = uint(inkBlock-4) + uint(4-inkBlock)
	kernels.InkBlocks4OnWhite(dst, r.Pix, r.W, r.H, r.Stride, skip)
}

// knockedOut reports whether the filled area in box (x0, y0)-(x1, y1)
// of the block map has light content inside it: text knocked out of a
// banner (white outlines or a picture of white text on a dark bar, as
// letterheads and invoice headers print names and addresses), which a
// reader sees as well as dark text on paper. Counted are the blocks,
// unexplained, that are paper or lighter than the area's deepest (hi)
// by more than solidSpread, between a row's first and last inked block,
// the box's first and last rows (anti-aliased edges) left out. A plain
// fill, rectangle or rounded, has next to none; knockedOut needs at
// least knockMin of them and knockShare of the box.
func knockedOut(blocks []uint8, ink, explained []bool, gw, x0, y0, x1, y1 int, hi uint8) bool {
	n := 0
	for y := y0 + 1; y < y1; y++ {
		row := y * gw
		first, last := -1, -1
		for x := x0; x <= x1; x++ {
			if ink[row+x] {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		for x := first + 1; x < last; x++ {
			i := row + x
			if !explained[i] && (!ink[i] || int(blocks[i])+solidSpread < int(hi)) {
				n++
			}
		}
	}
	return n >= knockMin && float64(n) >= knockShare*float64((x1-x0+1)*(y1-y0+1))
}

// blockPeak is the largest difference from paper of any pixel, in any
// channel, in block (bx, by) of r.
func blockPeak(r *page.Raster, paper [4]uint8, bx, by int) int {
	peak := 0
	for y := by * inkBlock; y < min(r.H, (by+1)*inkBlock); y++ {
		row := r.Pix[y*r.Stride:]
		for x := bx * inkBlock; x < min(r.W, (bx+1)*inkBlock); x++ {
			for c := range r.Channels {
				d := int(row[x*r.Channels+c]) - int(paper[c])
				peak = max(peak, d, -d)
			}
		}
	}
	return peak
}

// dropRules clears from ink (a gw x gh block map) the blocks of long thin
// runs: horizontal runs of at least ruleRun blocks where the ink is at
// most ruleThick blocks tall, and the same turned for vertical rules
// (kernels.ThinRuns, which the recogniser's rule eraser shares).
func dropRules(ink []bool, gw, gh int) {
	rule := make([]bool, gw*gh)
	kernels.ThinRuns(rule, ink, gw, gh, kernels.RuleSpec{MinH: ruleRun, MinV: ruleRun, Thick: ruleThick}, nil)
	for i, r := range rule {
		if r {
			ink[i] = false
		}
	}
}

// mergeRects unites overlapping rectangles until none overlap.
func mergeRects(rs []PixelRect) []PixelRect {
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(rs) && !merged; i++ {
			for j := i + 1; j < len(rs); j++ {
				a, b := rs[i], rs[j]
				if a.X0 < b.X1 && b.X0 < a.X1 && a.Y0 < b.Y1 && b.Y0 < a.Y1 {
					rs[i] = PixelRect{min(a.X0, b.X0), min(a.Y0, b.Y0), max(a.X1, b.X1), max(a.Y1, b.Y1)}
					rs = append(rs[:j], rs[j+1:]...)
					merged = true
					break
				}
			}
		}
	}
	return rs
}
