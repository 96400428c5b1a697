package visual

// Where to look: a page's picture may be a whole scanned page of text,
// where a face or code covers a small part, and the readers' and the
// cascade's work grows with the area they are given. Areas splits a
// picture into the parts worth each: continuous-tone patches (photos) for
// faces, dense patches of ink with the shapes of codes for codes. Both are
// found on a grid of tiles in one pass over the pixels.

// tile is the side of the grid's cells, in pixels.
const tile = 16

// Photo tiles: at least photoMid of their pixels between mid tones
// (photoLo..photoHi): print on paper is mostly paper and ink, with mid
// tones only at the edges of strokes. And not two tones or one: a tile
// with photoTones of its pixels in two bands of 24 levels (one tone and
// its noise: a desk or a wall around a photographed page; print on paper
// in the shade, whose paper is a mid tone; the page's edge on the desk)
// is not a photo, whatever its tones: a face has many. Without this the
// background framing a phone photo of a page joined into one area the
// size of the page, which the face cascade searched whole (the bench's
// photo corpus: 1.6 s a page in the visual stage).
const (
	photoLo, photoHi = 48, 208
	photoMid         = 0.45
	photoTones       = 0.8
)

// Code tiles: at least codeDark of their pixels dark (under 128); a wide
// bar fills a tile. Their components are kept when their whole box is
// between codeBoxDark and codeBoxSolid dark: a code is about half dark, a
// paragraph of print (lines and gaps together) a fifth or less, a filled
// area all.
const (
	codeDark     = 0.2
	codeBoxDark  = 0.3
	codeBoxSolid = 0.85
)

// Areas returns the boxes (in g's pixels) worth looking for faces in, and
// those worth looking for codes in.
func Areas(g Gray) (photos, codes []Box) {
	tw, th := (g.W+tile-1)/tile, (g.H+tile-1)/tile
	photo := make([]bool, tw*th)
	code := make([]bool, tw*th)
	darks := make([]int, tw*th)
	for ty := range th {
		for tx := range tw {
			x0, y0 := tx*tile, ty*tile
			x1, y1 := min(x0+tile, g.W), min(y0+tile, g.H)
			mid, dark, n := 0, 0, (x1-x0)*(y1-y0)
			var bands [32]int // pixels by band of 8 levels
			for y := y0; y < y1; y++ {
				for _, v := range g.Pix[y*g.Stride+x0 : y*g.Stride+x1] {
					if v < 128 {
						dark++
					}
					if v >= photoLo && v <= photoHi {
						mid++
					}
					bands[v>>3]++
				}
			}
			photo[ty*tw+tx] = float64(mid) >= photoMid*float64(n) && float64(twoTones(&bands)) < photoTones*float64(n)
			darks[ty*tw+tx] = dark
			code[ty*tw+tx] = float64(dark) >= codeDark*float64(n)
		}
	}
	for _, c := range components(photo, tw, th) {
		// A face is at least 24 px: two tiles by two.
		if c.X1-c.X0 >= 2 && c.Y1-c.Y0 >= 2 {
			photos = append(photos, grow(c, tw, th, g))
		}
	}
	for _, c := range mergeNear(components(code, tw, th)) {
		if (c.X1-c.X0)*(c.Y1-c.Y0) < 2 {
			continue
		}
		dark := 0
		for ty := c.Y0; ty < c.Y1; ty++ {
			for tx := c.X0; tx < c.X1; tx++ {
				dark += darks[ty*tw+tx]
			}
		}
		area := min(c.X1*tile, g.W) - c.X0*tile
		area *= min(c.Y1*tile, g.H) - c.Y0*tile
		if d := float64(dark) / float64(area); d >= codeBoxDark && d <= codeBoxSolid {
			codes = append(codes, grow(c, tw, th, g))
		}
	}
	return photos, codes
}

// twoTones is the most pixels two disjoint runs of three bands hold.
func twoTones(bands *[32]int) int {
	var win [30]int
	for b := range win {
		win[b] = bands[b] + bands[b+1] + bands[b+2]
	}
	best := 0
	for i := range win {
		for j := i + 3; j < len(win); j++ {
			best = max(best, win[i]+win[j])
		}
	}
	return best
}

// grow turns a component's tile box into pixels with a tile of margin
// each side (a face's hair, a code's quiet zone), clipped to g.
func grow(c Box, tw, th int, g Gray) Box {
	return Box{max(c.X0-1, 0) * tile, max(c.Y0-1, 0) * tile, min(min(c.X1+1, tw)*tile, g.W), min(min(c.Y1+1, th)*tile, g.H)}
}

// components returns the tile boxes of the 8-connected components of set.
func components(set []bool, w, h int) []Box {
	seen := make([]bool, len(set))
	var out []Box
	var stack []int
	for i, on := range set {
		if !on || seen[i] {
			continue
		}
		b := Box{i % w, i / w, i%w + 1, i/w + 1}
		seen[i] = true
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%w, j/w
			b = Box{min(b.X0, x), min(b.Y0, y), max(b.X1, x+1), max(b.Y1, y+1)}
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					if n := ny*w + nx; set[n] && !seen[n] {
						seen[n] = true
						stack = append(stack, n)
					}
				}
			}
		}
		out = append(out, b)
	}
	return out
}

// Sub is the part b of g, sharing its pixels.
func (g Gray) Sub(b Box) Gray {
	return Gray{Pix: g.Pix[b.Y0*g.Stride+b.X0:], W: b.X1 - b.X0, H: b.Y1 - b.Y0, Stride: g.Stride}
}

// mergeGap is how many tiles apart two code areas are joined.
const mergeGap = 2

// mergeNear joins boxes (tiles) that lie up to mergeGap tiles apart, until
// none do: the light gaps between wide bars can leave columns of tiles
// under codeDark, parting one code in two (a Code 128 at 3 px a module
// came apart at one tile and at two).
func mergeNear(bs []Box) []Box {
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(bs); i++ {
			for j := i + 1; j < len(bs); j++ {
				a, b := bs[i], bs[j]
				if a.X0-mergeGap <= b.X1 && b.X0-mergeGap <= a.X1 && a.Y0-mergeGap <= b.Y1 && b.Y0-mergeGap <= a.Y1 {
					bs[i] = Box{min(a.X0, b.X0), min(a.Y0, b.Y0), max(a.X1, b.X1), max(a.Y1, b.Y1)}
					bs = append(bs[:j], bs[j+1:]...)
					merged = true
					j--
				}
			}
		}
	}
	return bs
}
