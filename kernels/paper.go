package kernels

// PaperLevel returns the most common value of each channel on a grid of
// about side x side samples of the image: the colour of its paper,
// whatever its shade. With radius > 0 a value's count includes its
// neighbours within radius, so a paper whose grain spreads over a few
// levels still has one peak. Ties go to the darker value.
//
// It reads at most about side² pixels whatever the image's size, so it has
// no optimised twin: the sampling is the optimisation.
func PaperLevel(pix []byte, w, h, stride, channels, side, radius int) [4]uint8 {
	var paper [4]uint8
	if w < 1 || h < 1 || channels < 1 || channels > 4 {
		return paper
	}
	var hist [4][256]int
	step := max(1, min(w, h)/max(1, side))
	for y := 0; y < h; y += step {
		row := pix[y*stride:]
		for x := 0; x < w; x += step {
			for c := range channels {
				hist[c][row[x*channels+c]]++
			}
		}
	}
	for c := range channels {
		best, bestN := 0, -1
		for v := range 256 {
			n := 0
			for d := max(0, v-radius); d <= min(255, v+radius); d++ {
				n += hist[c][d]
			}
			if n > bestN {
				best, bestN = v, n
			}
		}
		paper[c] = uint8(best)
	}
	return paper
}
