package kernels

// clipRect clips x0..x1, y0..y1 to a buffer of the given geometry and
// reports whether anything is left.
func clipRect(pix []byte, stride, channels, x0, y0, x1, y1 int) (int, int, int, int, bool) {
	if stride <= 0 || channels <= 0 {
		return 0, 0, 0, 0, false
	}
	w, h := stride/channels, len(pix)/stride
	// The last row may be shorter than stride.
	if rem := len(pix) - h*stride; rem >= channels*w {
		h++
	}
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, w), min(y1, h)
	return x0, y0, x1, y1, x0 < x1 && y0 < y1
}

// FillRectRef is the reference for FillRect.
func FillRectRef(pix []byte, stride, channels, x0, y0, x1, y1 int, value byte) {
	x0, y0, x1, y1, ok := clipRect(pix, stride, channels, x0, y0, x1, y1)
	if !ok {
		return
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			for c := 0; c < channels; c++ {
				pix[y*stride+x*channels+c] = value
			}
		}
	}
}

// FillRect sets every channel of the pixels x0 <= x < x1, y0 <= y < y1 to
// value. The rectangle is clipped to the buffer (width stride/channels,
// height len(pix)/stride), so a mask that runs off the page is safe. It
// fills the first row, then copies it down, which turns into memmove.
func FillRect(pix []byte, stride, channels, x0, y0, x1, y1 int, value byte) {
	x0, y0, x1, y1, ok := clipRect(pix, stride, channels, x0, y0, x1, y1)
	if !ok {
		return
	}
	lo, hi := x0*channels, x1*channels
	first := pix[y0*stride+lo : y0*stride+hi]
	if value == 0 {
		clear(first)
	} else {
		first[0] = value
		for n := 1; n < len(first); n *= 2 {
			copy(first[n:], first[:n])
		}
	}
	for y := y0 + 1; y < y1; y++ {
		copy(pix[y*stride+lo:y*stride+hi], first)
	}
}
