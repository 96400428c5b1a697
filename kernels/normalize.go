package kernels

// Conversion of 8-bit interleaved pixels into the planar float32 layout
// (NCHW) that vision models take, with per-channel mean and standard
// deviation: out = (v/255 - mean[c]) / std[c]. NormalizeCHWRef is the
// plain reference; NormalizeCHW precomputes the 256 possible values of
// each channel in a table, turning the per-pixel arithmetic into loads.

// NormalizeCHWRef writes src (w x h, channels 1 or 3, rows of stride bytes)
// into the three planes of dst, each dstW x dstH floats (dstW >= w,
// dstH >= h); pixels outside w x h are left untouched so the caller can
// pad. A gray source fills all three planes. When bgr is set, plane 0
// receives the blue channel (PaddleOCR feeds OpenCV's BGR order), else the
// red one; mean and std are indexed by plane.
func NormalizeCHWRef(dst []float32, dstW, dstH int, src []byte, w, h, stride, channels int, mean, std [3]float32, bgr bool) {
	plane := dstW * dstH
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for p := 0; p < 3; p++ {
				c := p
				if bgr {
					c = 2 - p
				}
				if channels == 1 {
					c = 0
				}
				v := float32(src[y*stride+x*channels+c])
				dst[p*plane+y*dstW+x] = (v/255 - mean[p]) / std[p]
			}
		}
	}
}

// NormLUT holds, for each output plane, the normalised value of every byte.
type NormLUT [3][256]float32

// NewNormLUT tabulates (v/255 - mean[p]) / std[p].
func NewNormLUT(mean, std [3]float32) *NormLUT {
	var t NormLUT
	for p := 0; p < 3; p++ {
		for v := 0; v < 256; v++ {
			t[p][v] = (float32(v)/255 - mean[p]) / std[p]
		}
	}
	return &t
}

// NormalizeCHW is NormalizeCHWRef through a table; build the table once
// per model with NewNormLUT. Results are bit-identical to the reference.
func NormalizeCHW(dst []float32, dstW, dstH int, src []byte, w, h, stride, channels int, lut *NormLUT, bgr bool) {
	plane := dstW * dstH
	l0, l1, l2 := &lut[0], &lut[1], &lut[2]
	if channels == 1 && *l0 == *l1 && *l1 == *l2 {
		normalizeGraySame(dst, dstW, plane, src, w, h, stride, l0)
		return
	}
	for y := 0; y < h; y++ {
		o := y * dstW
		d0 := dst[o : o+w : o+w]
		d1 := dst[plane+o : plane+o+w : plane+o+w]
		d2 := dst[2*plane+o : 2*plane+o+w : 2*plane+o+w]
		row := src[y*stride:]
		switch {
		case channels == 1:
			row = row[:w:w]
			for x, v := range row {
				d0[x], d1[x], d2[x] = l0[v], l1[v], l2[v]
			}
		case bgr:
			row = row[: 3*w : 3*w]
			for x := range d0 {
				px := row[3*x : 3*x+3 : 3*x+3]
				d0[x], d1[x], d2[x] = l0[px[2]], l1[px[1]], l2[px[0]]
			}
		default:
			row = row[: 3*w : 3*w]
			for x := range d0 {
				px := row[3*x : 3*x+3 : 3*x+3]
				d0[x], d1[x], d2[x] = l0[px[0]], l1[px[1]], l2[px[2]]
			}
		}
	}
}

// normalizeGraySame is NormalizeCHW of a gray image through a table whose
// three planes are equal (the recogniser's mean and std are the same for
// every channel): each row is looked up once and its floats copied to
// the other two planes, which copy does in wide moves.
func normalizeGraySame(dst []float32, dstW, plane int, src []byte, w, h, stride int, l *[256]float32) {
	for y := 0; y < h; y++ {
		o := y * dstW
		d0 := dst[o : o+w : o+w]
		for x, v := range src[y*stride : y*stride+w : y*stride+w] {
			d0[x] = l[v]
		}
		copy(dst[plane+o:plane+o+w], d0)
		copy(dst[2*plane+o:2*plane+o+w], d0)
	}
}
