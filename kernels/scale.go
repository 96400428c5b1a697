package kernels

import "math"

// Image scaling for images uploaded as documents: a photo or scan is
// brought to the output resolution. Downscaling by a large factor first
// averages k x k boxes (BoxReduce), so no source pixel is skipped, then
// finishes with bilinear interpolation (ScaleBilinear).

// BoxReduceSize is the size of BoxReduce's output: partial boxes at the
// right and bottom edges are kept.
func BoxReduceSize(sw, sh, k int) (int, int) {
	return (sw + k - 1) / k, (sh + k - 1) / k
}

// BoxReduceRef is the reference for BoxReduce.
func BoxReduceRef(dst []byte, dstStride int, src []byte, sw, sh, srcStride, channels, k int) {
	dw, dh := BoxReduceSize(sw, sh, k)
	for dy := 0; dy < dh; dy++ {
		for dx := 0; dx < dw; dx++ {
			for c := 0; c < channels; c++ {
				sum, n := 0, 0
				for y := dy * k; y < min(dy*k+k, sh); y++ {
					for x := dx * k; x < min(dx*k+k, sw); x++ {
						sum += int(src[y*srcStride+x*channels+c])
						n++
					}
				}
				dst[dy*dstStride+dx*channels+c] = byte((sum + n/2) / n)
			}
		}
	}
}

// BoxReduce shrinks src by the integer factor k, each output pixel the
// rounded mean of a k x k box (smaller at the right and bottom edges).
// dst must hold BoxReduceSize(sw, sh, k) pixels at dstStride.
func BoxReduce(dst []byte, dstStride int, src []byte, sw, sh, srcStride, channels, k int) {
	if sw <= 0 || sh <= 0 || k <= 0 || channels <= 0 {
		return
	}
	dw, dh := BoxReduceSize(sw, sh, k)
	rowLen := dw * channels
	acc := make([]uint32, rowLen)
	for dy := 0; dy < dh; dy++ {
		clear(acc)
		y0, y1 := dy*k, min(dy*k+k, sh)
		for y := y0; y < y1; y++ {
			row := src[y*srcStride : y*srcStride+sw*channels]
			if channels == 3 {
				boxRow3(acc, row, sw, dw, k)
				continue
			}
			for dx := 0; dx < dw; dx++ {
				a := acc[dx*channels : dx*channels+channels]
				box := row[dx*k*channels : min(dx*k+k, sw)*channels]
				for len(box) >= channels {
					for c := range a {
						a[c] += uint32(box[c])
					}
					box = box[channels:]
				}
			}
		}
		out := dst[dy*dstStride : dy*dstStride+rowLen]
		rows := uint32(y1 - y0)
		for dx := 0; dx < dw; dx++ {
			n := rows * uint32(min(dx*k+k, sw)-dx*k)
			for c := 0; c < channels; c++ {
				i := dx*channels + c
				out[i] = byte((acc[i] + n/2) / n)
			}
		}
	}
}

// boxRow3 adds the k-pixel horizontal sums of one RGB row into acc.
func boxRow3(acc []uint32, row []byte, sw, dw, k int) {
	for dx := 0; dx < dw; dx++ {
		box := row[dx*k*3 : min(dx*k+k, sw)*3]
		var s0, s1, s2 uint32
		for len(box) >= 3 {
			s0 += uint32(box[0])
			s1 += uint32(box[1])
			s2 += uint32(box[2])
			box = box[3:]
		}
		a := acc[dx*3 : dx*3+3 : dx*3+3]
		a[0] += s0
		a[1] += s1
		a[2] += s2
	}
}

// bilinearSource maps output coordinate d (pixel centres aligned) to the
// source: the lower neighbour and the weight of the upper one in [0, 1].
func bilinearSource(d, dn, sn int) (int, float64) {
	s := (float64(d)+0.5)*float64(sn)/float64(dn) - 0.5
	if s <= 0 {
		return 0, 0
	}
	if s >= float64(sn-1) {
		return sn - 1, 0
	}
	i := math.Floor(s)
	return int(i), s - i
}

// ScaleBilinearRef is the reference for ScaleBilinear, in floating point.
func ScaleBilinearRef(dst []byte, dw, dh, dstStride int, src []byte, sw, sh, srcStride, channels int) {
	for dy := 0; dy < dh; dy++ {
		y0, fy := bilinearSource(dy, dh, sh)
		y1 := min(y0+1, sh-1)
		for dx := 0; dx < dw; dx++ {
			x0, fx := bilinearSource(dx, dw, sw)
			x1 := min(x0+1, sw-1)
			for c := 0; c < channels; c++ {
				p00 := float64(src[y0*srcStride+x0*channels+c])
				p01 := float64(src[y0*srcStride+x1*channels+c])
				p10 := float64(src[y1*srcStride+x0*channels+c])
				p11 := float64(src[y1*srcStride+x1*channels+c])
				top := p00 + (p01-p00)*fx
				bot := p10 + (p11-p10)*fx
				dst[dy*dstStride+dx*channels+c] = byte(math.Round(top + (bot-top)*fy))
			}
		}
	}
}

// ScaleBilinear resamples src (sw x sh) to dst (dw x dh) with bilinear
// interpolation and pixel centres aligned. Weights are 8-bit fixed point,
// so results are within 1 of ScaleBilinearRef. Column positions and weights
// are computed once per call; each output row blends two source rows.
// For shrinking by more than 2, run BoxReduce first.
func ScaleBilinear(dst []byte, dw, dh, dstStride int, src []byte, sw, sh, srcStride, channels int) {
	if dw <= 0 || dh <= 0 || sw <= 0 || sh <= 0 || channels <= 0 {
		return
	}
	xo := make([]int32, 2*dw) // byte offsets of the left and right neighbours
	xw := make([]uint32, dw)  // weight of the right neighbour, 0..256
	for dx := 0; dx < dw; dx++ {
		x0, fx := bilinearSource(dx, dw, sw)
		xo[2*dx] = int32(x0 * channels)
		xo[2*dx+1] = int32(min(x0+1, sw-1) * channels)
		xw[dx] = uint32(math.Round(fx * 256))
	}
	for dy := 0; dy < dh; dy++ {
		y0, fy := bilinearSource(dy, dh, sh)
		y1 := min(y0+1, sh-1)
		wy := uint32(math.Round(fy * 256))
		r0 := src[y0*srcStride : y0*srcStride+sw*channels]
		r1 := src[y1*srcStride : y1*srcStride+sw*channels]
		out := dst[dy*dstStride : dy*dstStride+dw*channels]
		switch channels {
		case 3:
			scaleRow3(out, r0, r1, xo, xw, wy)
		default:
			scaleRowN(out, r0, r1, xo, xw, wy, channels)
		}
	}
}

func lerp2(p00, p01, p10, p11 byte, wx, wy uint32) byte {
	top := uint32(p00)*(256-wx) + uint32(p01)*wx
	bot := uint32(p10)*(256-wx) + uint32(p11)*wx
	return byte((top*(256-wy) + bot*wy + 1<<15) >> 16)
}

func scaleRow3(out, r0, r1 []byte, xo []int32, xw []uint32, wy uint32) {
	for dx := range xw {
		if 3*dx+2 >= len(out) || 2*dx+1 >= len(xo) {
			return
		}
		a, b := int(xo[2*dx]), int(xo[2*dx+1])
		if a+2 >= len(r0) || b+2 >= len(r0) || a+2 >= len(r1) || b+2 >= len(r1) {
			return
		}
		wx := xw[dx]
		o := out[3*dx : 3*dx+3 : 3*dx+3]
		o[0] = lerp2(r0[a], r0[b], r1[a], r1[b], wx, wy)
		o[1] = lerp2(r0[a+1], r0[b+1], r1[a+1], r1[b+1], wx, wy)
		o[2] = lerp2(r0[a+2], r0[b+2], r1[a+2], r1[b+2], wx, wy)
	}
}

func scaleRowN(out, r0, r1 []byte, xo []int32, xw []uint32, wy uint32, channels int) {
	for dx, wx := range xw {
		a, b := int(xo[2*dx]), int(xo[2*dx+1])
		for c := 0; c < channels; c++ {
			out[dx*channels+c] = lerp2(r0[a+c], r0[b+c], r1[a+c], r1[b+c], wx, wy)
		}
	}
}
