package kernels

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
