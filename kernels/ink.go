package kernels

import "encoding/binary"

// Ink map: where on a page anything differs from the paper.
//
// The OCR detector's cost grows with the area it looks at, and a page's
// margins (or the empty half of a document's last page) hold nothing to
// read. InkBlocks measures, for every block of b x b pixels, how far the
// block's mean colour is from the paper's: averaging first makes scanner
// noise vanish (a few grey levels) while even a thin stroke moves its
// block's mean by tens of levels. Ink is a difference either way, so
// white text on a dark band counts as much as black text on white.

// InkBlocksRef is the reference for InkBlocks.
func InkBlocksRef(dst []uint8, pix []byte, w, h, stride, channels int, paper [4]uint8, b int) {
	gw := (w + b - 1) / b
	for by := 0; by*b < h; by++ {
		for bx := 0; bx*b < w; bx++ {
			var d int
			for c := range channels {
				sum, n := 0, 0
				for y := by * b; y < min(h, (by+1)*b); y++ {
					for x := bx * b; x < min(w, (bx+1)*b); x++ {
						sum += int(pix[y*stride+x*channels+c])
						n++
					}
				}
				d = max(d, absInt((sum+n/2)/n-int(paper[c])))
			}
			dst[by*gw+bx] = uint8(min(d, 255))
		}
	}
}

// InkBlocks writes into dst, for each b x b block of the w x h image
// (channels interleaved, 1 to 4; row-major grid of ceil(w/b) x ceil(h/b),
// edge blocks smaller), the largest difference between a channel's mean
// over the block (rounded) and paper's value for that channel.
func InkBlocks(dst []uint8, pix []byte, w, h, stride, channels int, paper [4]uint8, b int) {
	if w <= 0 || h <= 0 || channels < 1 || channels > 4 || b < 1 {
		return
	}
	gw := (w + b - 1) / b
	sums := make([]int32, gw*channels)
	for by := 0; by*b < h; by++ {
		clear(sums)
		y1 := min(h, (by+1)*b)
		for y := by * b; y < y1; y++ {
			row := pix[y*stride : y*stride+w*channels]
			if channels == 1 {
				for bx := range gw {
					var s int32
					for _, v := range row[bx*b : min(w, bx*b+b)] {
						s += int32(v)
					}
					sums[bx] += s
				}
				continue
			}
			if channels == 3 {
				for bx := range gw {
					var s0, s1, s2 int32
					seg := row[bx*b*3 : min(w, bx*b+b)*3]
					for i := 0; i+2 < len(seg); i += 3 {
						s0 += int32(seg[i])
						s1 += int32(seg[i+1])
						s2 += int32(seg[i+2])
					}
					sums[bx*3] += s0
					sums[bx*3+1] += s1
					sums[bx*3+2] += s2
				}
				continue
			}
			for bx := range gw {
				s := sums[bx*channels : bx*channels+channels]
				seg := row[bx*b*channels : min(w, bx*b+b)*channels]
				for i := 0; i < len(seg); i += channels {
					for c := range channels {
						s[c] += int32(seg[i+c])
					}
				}
			}
		}
		rows := y1 - by*b
		out := dst[by*gw : by*gw+gw]
		for bx := range gw {
			n := int32(rows * (min(w, (bx+1)*b) - bx*b))
			var d int
			for c := range channels {
				d = max(d, absInt(int((sums[bx*channels+c]+n/2)/n)-int(paper[c])))
			}
			out[bx] = uint8(min(d, 255))
		}
	}
}

// InkBlocks4OnWhiteRef is the reference for InkBlocks4OnWhite.
func InkBlocks4OnWhiteRef(dst []uint8, pix []byte, w, h, stride int, skip []bool) {
	InkBlocksRef(dst, pix, w, h, stride, 1, [4]uint8{255}, 4)
	if skip != nil {
		for i, s := range skip[:len(dst)] {
			if s {
				dst[i] = 0
			}
		}
	}
}

// InkBlocks4OnWhite is InkBlocks for one channel on white paper (255)
// with blocks of 4 x 4 pixels, as MuPDF renders text pages: blocks marked
// in skip (when not nil) are not measured and read 0. A whole block row
// is taken 16 pixels (four blocks) at a time: paper, which is most of a
// page, costs eight loads and one comparison for the four; otherwise the
// sums of two blocks side by side come from one word per row, summed in
// 16-bit lanes.
func InkBlocks4OnWhite(dst []uint8, pix []byte, w, h, stride int, skip []bool) {
	const b = 4
	if w <= 0 || h <= 0 {
		return
	}
	gw := (w + b - 1) / b
	for by := 0; by*b < h; by++ {
		y0 := by * b
		d := dst[by*gw : by*gw+gw]
		var sk []bool
		if skip != nil {
			sk = skip[by*gw : by*gw+gw]
		}
		bx := 0
		if y0+b <= h {
			r0 := pix[y0*stride : y0*stride+w]
			r1 := pix[(y0+1)*stride : (y0+1)*stride+w]
			r2 := pix[(y0+2)*stride : (y0+2)*stride+w]
			r3 := pix[(y0+3)*stride : (y0+3)*stride+w]
			for ; bx*b+16 <= w; bx += 4 {
				x := bx * b
				a0, a1 := le64(r0[x:]), le64(r0[x+8:])
				b0, b1 := le64(r1[x:]), le64(r1[x+8:])
				c0, c1 := le64(r2[x:]), le64(r2[x+8:])
				e0, e1 := le64(r3[x:]), le64(r3[x+8:])
				if a0&a1&b0&b1&c0&c1&e0&e1 == ^uint64(0) {
					d[bx], d[bx+1], d[bx+2], d[bx+3] = 0, 0, 0, 0
					continue
				}
				twoBlocks(d[bx:bx+2], sk, bx, a0, b0, c0, e0)
				twoBlocks(d[bx+2:bx+4], sk, bx+2, a1, b1, c1, e1)
			}
		}
		// The right edge and a bottom row of fewer than four pixels.
		for ; bx < gw; bx++ {
			if sk != nil && sk[bx] {
				d[bx] = 0
				continue
			}
			x0, x1 := bx*b, min(w, bx*b+b)
			sum, n := 0, 0
			for y := y0; y < min(h, y0+b); y++ {
				for _, v := range pix[y*stride+x0 : y*stride+x1] {
					sum += int(v)
				}
				n += x1 - x0
			}
			d[bx] = uint8(255 - (sum+n/2)/n)
		}
	}
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// twoBlocks writes the ink of the two 4 x 4 blocks bx and bx+1 whose rows
// are the words r0..r3 (four pixels of each block per word) into d.
func twoBlocks(d []uint8, skip []bool, bx int, r0, r1, r2, r3 uint64) {
	const m = 0x00FF00FF00FF00FF
	// Lanes 0 and 1 are the first block's, 2 and 3 the second's; each
	// holds at most 2*4*255.
	l := r0&m + (r0>>8)&m + r1&m + (r1>>8)&m + r2&m + (r2>>8)&m + r3&m + (r3>>8)&m
	s0 := int(l&0xFFFF) + int(l>>16&0xFFFF)
	s1 := int(l>>32&0xFFFF) + int(l>>48)
	d[0] = uint8(255 - (s0+8)/16)
	d[1] = uint8(255 - (s1+8)/16)
	if skip != nil {
		if skip[bx] {
			d[0] = 0
		}
		if skip[bx+1] {
			d[1] = 0
		}
	}
}
