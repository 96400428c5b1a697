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
		// Walk the source rows (sequential reads); each becomes a column:
		// pixel (x, y) lands at (h-1-y, x) for 90 and (y, w-1-x) for 270.
		for y := 0; y < h; y++ {
			s := src[y*stride : y*stride+w*ch]
			o, step := (h-1-y)*ch, dstStride // 90: down the column
			if deg == 270 {
				o, step = (w-1)*dstStride+y*ch, -dstStride // up the column
			}
			switch ch {
			case 1:
				for _, v := range s {
					dst[o] = v
					o += step
				}
			case 3:
				for x := 0; x < w; x++ {
					d := dst[o : o+3 : o+3]
					d[0], d[1], d[2] = s[3*x], s[3*x+1], s[3*x+2]
					o += step
				}
			default:
				for x := 0; x < w; x++ {
					copy(dst[o:o+ch], s[x*ch:x*ch+ch])
					o += step
				}
			}
		}
	default:
		panic("kernels: Rotate: angle must be 0, 90, 180 or 270")
	}
}
