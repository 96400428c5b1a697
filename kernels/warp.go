package kernels

import (
	"math"
	"math/bits"
)

// Perspective warping of 8-bit interleaved images: each destination pixel
// centre is mapped through a 3x3 homography into the source and sampled
// bilinearly with replicated borders (OpenCV's warpPerspective with
// BORDER_REPLICATE and WARP_INVERSE_MAP). OCR uses it to cut a text line's
// quadrilateral out of a page straight into the recogniser's 48-pixel
// height, in one interpolation.
//
// WarpPerspectiveRef is the plain reference; WarpPerspective steps the
// projective coordinates incrementally along a row and uses fixed-point
// bilinear weights.

// Homography maps destination (x, y) to source (X/W, Y/W) with
// X = m0*x + m1*y + m2, Y = m3*x + m4*y + m5, W = m6*x + m7*y + m8.
type Homography [9]float64

// Apply maps a point.
func (m Homography) Apply(x, y float64) (float64, float64) {
	w := m[6]*x + m[7]*y + m[8]
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

// QuadToRect returns the homography taking the rectangle [0,w]x[0,h] onto
// the quadrilateral with corners ul, ur, lr, ll (in that order, each
// [2]float64{x, y}); ok is false for a degenerate quad.
func QuadToRect(w, h float64, ul, ur, lr, ll [2]float64) (m Homography, ok bool) {
	// Unit square to quad (Heckbert), then scale the square to w x h.
	x0, y0 := ul[0], ul[1]
	x1, y1 := ur[0], ur[1]
	x2, y2 := lr[0], lr[1]
	x3, y3 := ll[0], ll[1]
	dx1, dy1 := x1-x2, y1-y2
	dx2, dy2 := x3-x2, y3-y2
	sx, sy := x0-x1+x2-x3, y0-y1+y2-y3
	var a, b, c, d, e, f, g, hh float64
	if math.Abs(sx) < 1e-9 && math.Abs(sy) < 1e-9 {
		a, b, c = x1-x0, x3-x0, x0
		d, e, f = y1-y0, y3-y0, y0
		g, hh = 0, 0
	} else {
		den := dx1*dy2 - dx2*dy1
		if math.Abs(den) < 1e-12 {
			return m, false
		}
		g = (sx*dy2 - dx2*sy) / den
		hh = (dx1*sy - sx*dy1) / den
		a, b, c = x1-x0+g*x1, x3-x0+hh*x3, x0
		d, e, f = y1-y0+g*y1, y3-y0+hh*y3, y0
	}
	// Compose with (x, y) -> (x/w, y/h).
	m = Homography{a / w, b / h, c, d / w, e / h, f, g / w, hh / h, 1}
	det := m[0]*(m[4]*m[8]-m[5]*m[7]) - m[1]*(m[3]*m[8]-m[5]*m[6]) + m[2]*(m[3]*m[7]-m[4]*m[6])
	return m, math.Abs(det) > 1e-12
}

// WarpPerspectiveRef fills dst (dw x dh, ch channels, rows of dstStride)
// by sampling src (sw x sh, rows of srcStride) at m(x+0.5, y+0.5)-0.5.
// ss > 1 averages ss x ss samples per pixel (at most 4), an anti-aliasing
// prefilter for strong reductions.
func WarpPerspectiveRef(dst []byte, dw, dh, dstStride int, src []byte, sw, sh, srcStride, ch int, m Homography, ss int) {
	ss = min(max(ss, 1), 4)
	acc := make([]float64, ch)
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			clear(acc)
			for j := 0; j < ss; j++ {
				for i := 0; i < ss; i++ {
					px := float64(x) + (float64(i)+0.5)/float64(ss)
					py := float64(y) + (float64(j)+0.5)/float64(ss)
					fx, fy := m.Apply(px, py)
					sampleBilinear(acc, src, sw, sh, srcStride, ch, fx-0.5, fy-0.5)
				}
			}
			n := float64(ss * ss)
			for c := 0; c < ch; c++ {
				dst[y*dstStride+x*ch+c] = clampByte(acc[c]/n + 0.5)
			}
		}
	}
}

// sampleBilinear adds the bilinear sample at (fx, fy) to acc, replicating
// border pixels.
func sampleBilinear(acc []float64, src []byte, sw, sh, stride, ch int, fx, fy float64) {
	fx = math.Max(0, math.Min(fx, float64(sw-1)))
	fy = math.Max(0, math.Min(fy, float64(sh-1)))
	x0, y0 := int(fx), int(fy)
	wx, wy := fx-float64(x0), fy-float64(y0)
	x1, y1 := min(x0+1, sw-1), min(y0+1, sh-1)
	for c := 0; c < len(acc); c++ {
		p00 := float64(src[y0*stride+x0*ch+c])
		p01 := float64(src[y0*stride+x1*ch+c])
		p10 := float64(src[y1*stride+x0*ch+c])
		p11 := float64(src[y1*stride+x1*ch+c])
		top := p00 + (p01-p00)*wx
		acc[c] += top + (p10+(p11-p10)*wx-top)*wy
	}
}

// WarpPerspective is WarpPerspectiveRef with the source coordinates
// stepped incrementally along each row and 8-bit fixed-point weights;
// samples differ from the reference by at most 2.
func WarpPerspective(dst []byte, dw, dh, dstStride int, src []byte, sw, sh, srcStride, ch int, m Homography, ss int) {
	warpPerspective(dst, dw, dh, dstStride, src, sw, sh, srcStride, ch, m, ss, m.affine())
}

// affine reports whether m has no perspective part: W is 1 at every
// point, as for the parallelograms QuadToRect maps a text line's
// rotated rectangle to, so X/W is X to the last bit.
func (m Homography) affine() bool { return m[6] == 0 && m[7] == 0 && m[8] == 1 }

// warpPerspective is WarpPerspective; affine (m.affine() must hold) skips
// the two divisions a sample, a third of the kernel's time on line crops.
func warpPerspective(dst []byte, dw, dh, dstStride int, src []byte, sw, sh, srcStride, ch int, m Homography, ss int, affine bool) {
	ss = min(max(ss, 1), 4) // 16 samples keep the int32 accumulator in range
	n := ss * ss
	acc := make([]int32, dw*ch)
	maxX, maxY := float64(sw-1), float64(sh-1)
	for y := 0; y < dh; y++ {
		clear(acc)
		for j := 0; j < ss; j++ {
			py := float64(y) + (float64(j)+0.5)/float64(ss)
			for i := 0; i < ss; i++ {
				px0 := (float64(i) + 0.5) / float64(ss)
				// Projective coordinates at the row start and their steps.
				X := m[0]*px0 + m[1]*py + m[2]
				Y := m[3]*px0 + m[4]*py + m[5]
				W := m[6]*px0 + m[7]*py + m[8]
				for x := 0; x < dw; x++ {
					var fx, fy float64
					if affine {
						fx, fy = X-0.5, Y-0.5
					} else {
						fx, fy = X/W-0.5, Y/W-0.5
					}
					X += m[0]
					Y += m[3]
					W += m[6]
					if fx < 0 {
						fx = 0
					} else if fx > maxX {
						fx = maxX
					}
					if fy < 0 {
						fy = 0
					} else if fy > maxY {
						fy = maxY
					}
					x0, y0 := int(fx), int(fy)
					wx := int32((fx-float64(x0))*256 + 0.5)
					wy := int32((fy-float64(y0))*256 + 0.5)
					dx, dy := 0, 0
					if x0 < sw-1 {
						dx = ch
					}
					if y0 < sh-1 {
						dy = srcStride
					}
					o := y0*srcStride + x0*ch
					if ch == 1 {
						// A gray page (the bench's scans): one sample, no
						// channel loop.
						p00, p01 := int32(src[o]), int32(src[o+dx])
						p10, p11 := int32(src[o+dy]), int32(src[o+dy+dx])
						top := p00<<8 + (p01-p00)*wx
						bot := p10<<8 + (p11-p10)*wx
						acc[x] += top<<8 + (bot-top)*wy
						continue
					}
					a := acc[x*ch : x*ch+ch : x*ch+ch]
					for c := range a {
						p00 := int32(src[o+c])
						p01 := int32(src[o+dx+c])
						p10 := int32(src[o+dy+c])
						p11 := int32(src[o+dy+dx+c])
						top := p00<<8 + (p01-p00)*wx
						bot := p10<<8 + (p11-p10)*wx
						a[c] += top<<8 + (bot-top)*wy
					}
				}
			}
		}
		d := dst[y*dstStride : y*dstStride+dw*ch]
		div := int32(n) << 16
		if n&(n-1) == 0 {
			// 1, 4 or 16 samples: the sums are never negative, so a
			// shift divides them as / does, without a division a byte.
			shift := uint(bits.TrailingZeros32(uint32(div)))
			for i, v := range acc {
				d[i] = byte((v + div/2) >> shift)
			}
			continue
		}
		for i, v := range acc {
			d[i] = byte((v + div/2) / div)
		}
	}
}
