package kernels

// Bilinear resizing of 8-bit interleaved images (1 to 4 channels), with
// OpenCV's INTER_LINEAR pixel-centre convention (src = (dst+0.5)*scale-0.5,
// clamped at the borders), which is what PaddleOCR's detector was trained
// on. ResizeBilinearRef is the plain reference and test oracle;
// ResizeBilinear is the fast version used in the OCR path.

// ResizeBilinearRef resizes src (sw x sh, ch channels, rows of srcStride
// bytes) into dst (dw x dh, rows of dstStride bytes) in floating point.
func ResizeBilinearRef(dst []byte, dw, dh, dstStride int, src []byte, sw, sh, srcStride, ch int) {
	sx := float64(sw) / float64(dw)
	sy := float64(sh) / float64(dh)
	for y := 0; y < dh; y++ {
		fy := (float64(y)+0.5)*sy - 0.5
		y0, wy := splitCoord(fy, sh)
		y1 := min(y0+1, sh-1)
		for x := 0; x < dw; x++ {
			fx := (float64(x)+0.5)*sx - 0.5
			x0, wx := splitCoord(fx, sw)
			x1 := min(x0+1, sw-1)
			for c := 0; c < ch; c++ {
				p00 := float64(src[y0*srcStride+x0*ch+c])
				p01 := float64(src[y0*srcStride+x1*ch+c])
				p10 := float64(src[y1*srcStride+x0*ch+c])
				p11 := float64(src[y1*srcStride+x1*ch+c])
				top := p00 + (p01-p00)*wx
				bot := p10 + (p11-p10)*wx
				dst[y*dstStride+x*ch+c] = clampByte(top + (bot-top)*wy + 0.5)
			}
		}
	}
}

// splitCoord turns a source coordinate into a clamped integer index and
// the weight of the next sample.
func splitCoord(f float64, n int) (int, float64) {
	if f <= 0 {
		return 0, 0
	}
	i := int(f)
	if i >= n-1 {
		return n - 1, 0
	}
	return i, f - float64(i)
}

func clampByte(v float64) byte {
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return byte(v)
}

// Fixed-point precision of the fast path: weights in 1/2048, so a
// horizontally blended value fits 19 bits and the vertical blend 30.
const resizeBits = 11

// ResizeBilinear is ResizeBilinearRef in fixed point with precomputed
// column taps and one horizontal pass per source row (shared by the
// destination rows that read it). Results differ from the reference by at
// most 1 per sample.
func ResizeBilinear(dst []byte, dw, dh, dstStride int, src []byte, sw, sh, srcStride, ch int) {
	if dw <= 0 || dh <= 0 {
		return
	}
	const one = 1 << resizeBits
	sx := float64(sw) / float64(dw)
	sy := float64(sh) / float64(dh)
	// Column taps: byte offsets of the two source pixels and the weight of
	// the second.
	xo0 := make([]int32, dw)
	xo1 := make([]int32, dw)
	xw := make([]int32, dw)
	for x := 0; x < dw; x++ {
		x0, wx := splitCoord((float64(x)+0.5)*sx-0.5, sw)
		xo0[x] = int32(x0 * ch)
		xo1[x] = int32(min(x0+1, sw-1) * ch)
		xw[x] = int32(wx*one + 0.5)
	}
	n := dw * ch
	rowA := make([]int32, n) // horizontally blended source row rowAY
	rowB := make([]int32, n) // and rowBY
	rowAY, rowBY := -1, -1
	hpass := func(out []int32, sy int) {
		s := src[sy*srcStride : sy*srcStride+sw*ch]
		switch ch {
		case 1:
			for x := 0; x < dw; x++ {
				a := int32(s[xo0[x]])
				b := int32(s[xo1[x]])
				out[x] = a<<resizeBits + (b-a)*xw[x]
			}
		case 3:
			for x := 0; x < dw; x++ {
				o0, o1, w := xo0[x], xo1[x], xw[x]
				p := s[o0 : o0+3 : o0+3]
				q := s[o1 : o1+3 : o1+3]
				o := out[x*3 : x*3+3 : x*3+3]
				o[0] = int32(p[0])<<resizeBits + (int32(q[0])-int32(p[0]))*w
				o[1] = int32(p[1])<<resizeBits + (int32(q[1])-int32(p[1]))*w
				o[2] = int32(p[2])<<resizeBits + (int32(q[2])-int32(p[2]))*w
			}
		default:
			for x := 0; x < dw; x++ {
				for c := 0; c < ch; c++ {
					a := int32(s[int(xo0[x])+c])
					b := int32(s[int(xo1[x])+c])
					out[x*ch+c] = a<<resizeBits + (b-a)*xw[x]
				}
			}
		}
	}
	const round = 1 << (2*resizeBits - 1)
	for y := 0; y < dh; y++ {
		y0, wyf := splitCoord((float64(y)+0.5)*sy-0.5, sh)
		y1 := min(y0+1, sh-1)
		wy := int32(wyf*one + 0.5)
		// Reuse blended rows from the previous destination row.
		if rowAY != y0 {
			if rowBY == y0 {
				rowA, rowB = rowB, rowA
				rowAY, rowBY = rowBY, rowAY
			} else {
				hpass(rowA, y0)
				rowAY = y0
			}
		}
		d := dst[y*dstStride : y*dstStride+n]
		if wy == 0 {
			for i, a := range rowA[:n] {
				d[i] = byte((a<<resizeBits + round) >> (2 * resizeBits))
			}
			continue
		}
		if rowBY != y1 {
			hpass(rowB, y1)
			rowBY = y1
		}
		b := rowB[:n]
		for i, a := range rowA[:n] {
			d[i] = byte((a<<resizeBits + (b[i]-a)*wy + round) >> (2 * resizeBits))
		}
	}
}
