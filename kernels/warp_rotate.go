package kernels

// Rotate turns an 8-bit interleaved image (w x h, ch channels, rows of
// stride bytes) clockwise by deg (0, 90, 180 or 270) into dst, whose rows
// are dstStride bytes; dst is h x w for 90 and 270. OCR turns pages
// scanned sideways or upside down upright before detecting text again.
// It panics on another angle (a programming error).
func Rotate(dst []byte, dstStride int, src []byte, w, h, stride, ch, deg int) {
	switch deg {
	case 0:
		for y := 0; y < h; y++ {
			copy(dst[y*dstStride:y*dstStride+w*ch], src[y*stride:y*stride+w*ch])
		}
	case 180:
		for y := 0; y < h; y++ {
			s := src[y*stride : y*stride+w*ch]
			d := dst[(h-1-y)*dstStride : (h-1-y)*dstStride+w*ch]
			for x := 0; x < w; x++ {
				copy(d[(w-1-x)*ch:(w-x)*ch], s[x*ch:x*ch+ch])
			}
		}
	case 90, 270:
		// Walk the source rows (sequential reads); each becomes a column.
		for y := 0; y < h; y++ {
			s := src[y*stride : y*stride+w*ch]
			for x := 0; x < w; x++ {
				var dx, dy int
				if deg == 90 {
					dx, dy = h-1-y, x
				} else {
					dx, dy = y, w-1-x
				}
				o := dy*dstStride + dx*ch
				copy(dst[o:o+ch], s[x*ch:x*ch+ch])
			}
		}
	default:
		panic("kernels: Rotate: angle must be 0, 90, 180 or 270")
	}
}
