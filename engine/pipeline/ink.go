package pipeline

import (
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/kernels"
)

// Ink the text layer does not explain. On a page whose fonts passed their
// check, what the layer's words cover is read already; anything else
// inked may be text too: an image of any size (a pasted screenshot, a
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
	// solidShare and solidSpread tell a filled area: nearly every block
	// of its box inked, and nearly all to the same depth.
	solidShare  = 0.95
	solidSpread = 12
	// inkPad is the margin, in pixels, by which words explain the blocks
	// around them.
	inkPad = 2
	// maxInkRegions bounds the regions read on one page; a page with
	// more is read whole (one detector pass is cheaper than many).
	maxInkRegions = 24
)

// unexplainedInk returns the pixel rectangles of the page's text-like ink
// that no word of pg.Words covers, each with a margin of half its height
// (at least inkBlock*2 pixels).
func unexplainedInk(pg *page.Page) []PixelRect {
	r := pg.Raster
	gw, gh := (r.W+inkBlock-1)/inkBlock, (r.H+inkBlock-1)/inkBlock
	blocks := make([]uint8, gw*gh)
	kernels.InkBlocks(blocks, r.Pix, r.W, r.H, r.Stride, r.Channels, paperLevel(r), inkBlock)
	explained := make([]bool, gw*gh)
	s := pg.DPI / 72
	for _, w := range pg.Words {
		b := w.Quad.Bounds()
		x0 := max(0, (int(b.X0*s)-inkPad)/inkBlock)
		y0 := max(0, (int(b.Y0*s)-inkPad)/inkBlock)
		x1 := min(gw-1, (int(b.X1*s)+inkPad)/inkBlock)
		y1 := min(gh-1, (int(b.Y1*s)+inkPad)/inkBlock)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				explained[y*gw+x] = true
			}
		}
	}
	seen := make([]bool, gw*gh)
	var out []PixelRect
	var stack []int
	for start := range blocks {
		if seen[start] || explained[start] || blocks[start] <= inkTol {
			continue
		}
		// One component: its box, block count and depth range.
		seen[start] = true
		stack = append(stack[:0], start)
		x0, y0, x1, y1 := gw, gh, -1, -1
		n, lo, hi := 0, uint8(255), uint8(0)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			bx, by := i%gw, i/gw
			x0, y0, x1, y1 = min(x0, bx), min(y0, by), max(x1, bx), max(y1, by)
			n++
			lo, hi = min(lo, blocks[i]), max(hi, blocks[i])
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := bx+dx, by+dy
					if nx < 0 || ny < 0 || nx >= gw || ny >= gh {
						continue
					}
					j := ny*gw + nx
					if !seen[j] && !explained[j] && blocks[j] > inkTol {
						seen[j] = true
						stack = append(stack, j)
					}
				}
			}
		}
		w, h := x1-x0+1, y1-y0+1
		if w < minInkSide || h < minInkSide {
			continue // a rule, a border, a speck
		}
		if float64(n) >= solidShare*float64(w*h) && hi-lo <= solidSpread {
			continue // a filled area
		}
		m := max(h*inkBlock/2, 2*inkBlock)
		out = append(out, PixelRect{
			X0: max(0, x0*inkBlock-m), Y0: max(0, y0*inkBlock-m),
			X1: min(r.W, (x1+1)*inkBlock+m), Y1: min(r.H, (y1+1)*inkBlock+m),
		})
	}
	return mergeRects(out)
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

// paperLevel is the most common value of each channel on a sample of the
// raster's pixels: the paper's colour.
func paperLevel(r *page.Raster) [4]uint8 {
	var hist [4][256]int
	step := max(1, min(r.W, r.H)/256)
	for y := 0; y < r.H; y += step {
		row := r.Pix[y*r.Stride:]
		for x := 0; x < r.W; x += step {
			for c := range r.Channels {
				hist[c][row[x*r.Channels+c]]++
			}
		}
	}
	var paper [4]uint8
	for c := range r.Channels {
		best := 0
		for v := range 256 {
			if hist[c][v] > hist[c][best] {
				best = v
			}
		}
		paper[c] = uint8(best)
	}
	return paper
}
