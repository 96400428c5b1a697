package kernels

import "encoding/binary"

// BT.601 luma weights in 16-bit fixed point (0.299, 0.587, 0.114). They sum
// to exactly 1<<16, so a pixel with R == G == B maps to the same value and a
// gray page survives RGB -> gray conversion bit for bit.
const (
	lumaR = 19595
	lumaG = 38470
	lumaB = 7471
)

// IsGrayRef is the reference for IsGray.
func IsGrayRef(rgb []byte, w, h, stride, tol int) bool {
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*stride + 3*x
			r, g, b := int(rgb[i]), int(rgb[i+1]), int(rgb[i+2])
			if absInt(r-g) > tol || absInt(g-b) > tol || absInt(r-b) > tol {
				return false
			}
		}
	}
	return true
}

// grayPairs selects, in the XOR of a word with the same word shifted by one
// byte, the bytes R^G and G^B of three whole pixels (bytes 0,1,3,4,6,7).
const grayPairs = 0xFFFF00FFFF00FFFF

// IsGray reports whether every pixel of the interleaved RGB image differs
// between its channels by at most tol. It returns at the first coloured
// pixel, so colour pages cost almost nothing. Pages rendered from black
// text are exactly gray, so the word-at-a-time test for exact equality
// settles almost every pixel; only words that fail it are looked at with
// the tolerance.
func IsGray(rgb []byte, w, h, stride, tol int) bool {
	if w <= 0 || h <= 0 {
		return true
	}
	n := 3 * w
	for y := 0; y < h; y++ {
		if !grayRow(rgb[y*stride:y*stride+n], tol) {
			return false
		}
	}
	return true
}

func grayRow(row []byte, tol int) bool {
	i := 0
	for ; i+18 <= len(row); i += 18 {
		c := row[i : i+18 : i+18]
		a := binary.LittleEndian.Uint64(c[0:8]) ^ binary.LittleEndian.Uint64(c[1:9])
		b := binary.LittleEndian.Uint64(c[9:17]) ^ binary.LittleEndian.Uint64(c[10:18])
		if (a|b)&grayPairs != 0 {
			if tol == 0 || !grayScalar(c, tol) {
				return false
			}
		}
	}
	return grayScalar(row[i:], tol)
}

// grayScalar checks whole pixels of p (len(p) is a multiple of 3).
func grayScalar(p []byte, tol int) bool {
	for len(p) >= 3 {
		r, g, b := int(p[0]), int(p[1]), int(p[2])
		hi, lo := max(r, g, b), min(r, g, b)
		if hi-lo > tol {
			return false
		}
		p = p[3:]
	}
	return true
}

// RGBToGrayRef is the reference for RGBToGray.
func RGBToGrayRef(dst []byte, dstStride int, src []byte, srcStride int, w, h int) {
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*srcStride + 3*x
			r, g, b := uint32(src[i]), uint32(src[i+1]), uint32(src[i+2])
			dst[y*dstStride+x] = byte((lumaR*r + lumaG*g + lumaB*b + 1<<15) >> 16)
		}
	}
}

// RGBToGray converts w x h interleaved RGB pixels to 8-bit luma with the
// BT.601 weights (the same as image/color.GrayModel). Gray input (R == G ==
// B) is preserved exactly.
func RGBToGray(dst []byte, dstStride int, src []byte, srcStride int, w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	for y := 0; y < h; y++ {
		s := src[y*srcStride : y*srcStride+3*w]
		d := dst[y*dstStride : y*dstStride+w]
		for len(d) >= 4 && len(s) >= 12 {
			d[0] = byte((lumaR*uint32(s[0]) + lumaG*uint32(s[1]) + lumaB*uint32(s[2]) + 1<<15) >> 16)
			d[1] = byte((lumaR*uint32(s[3]) + lumaG*uint32(s[4]) + lumaB*uint32(s[5]) + 1<<15) >> 16)
			d[2] = byte((lumaR*uint32(s[6]) + lumaG*uint32(s[7]) + lumaB*uint32(s[8]) + 1<<15) >> 16)
			d[3] = byte((lumaR*uint32(s[9]) + lumaG*uint32(s[10]) + lumaB*uint32(s[11]) + 1<<15) >> 16)
			d, s = d[4:], s[12:]
		}
		for len(d) >= 1 && len(s) >= 3 {
			d[0] = byte((lumaR*uint32(s[0]) + lumaG*uint32(s[1]) + lumaB*uint32(s[2]) + 1<<15) >> 16)
			d, s = d[1:], s[3:]
		}
	}
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
