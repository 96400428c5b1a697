package ocr

// Faint print (toner running out, a gray font, a light photocopy) reaches
// the recogniser as a crop whose ink is a few levels darker than its
// paper. redactd-latin was trained on ink at least 50 levels below the
// paper (train/render.py) and reads such a crop badly: on the hostile
// corpus's "layer-xxxx-faint" page (text at 94% gray on white) it read
// "Slient: Otilie Marchboanks" and "-malk O.marchbanks@oharrowgate-legal.co",
// so the name and the e-mail address went unmasked, while PP-OCRv4 read
// both exactly. Stretched to full contrast the same crops read exactly.

// Contrast bounds: a crop whose paper (stretchPaper quantile) is less than
// stretchBelow levels above its ink (stretchInk quantile) is stretched;
// under stretchMin levels it holds no ink to stretch.
const (
	stretchInk   = 0.01
	stretchPaper = 0.90
	stretchBelow = 100
	stretchMin   = 8
)

// stretched returns c with its ink mapped to black and its paper to white
// when its contrast is low, else c itself. The map is monotone, so white
// text on a dark ground stays so.
func (c crop) stretched() crop {
	var hist [256]int
	for _, v := range c.pix {
		hist[v]++
	}
	ink, paper := quantile(&hist, len(c.pix), stretchInk), quantile(&hist, len(c.pix), stretchPaper)
	if d := paper - ink; d >= stretchBelow || d < stretchMin {
		return c
	}
	var lut [256]byte
	for v := range lut {
		lut[v] = byte(min(max((v-ink)*255/(paper-ink), 0), 255))
	}
	out := make([]byte, len(c.pix))
	for i, v := range c.pix {
		out[i] = lut[v]
	}
	return crop{pix: out, w: c.w, ch: c.ch}
}

// quantile is the smallest level at or under which more than q of the n
// values counted in hist lie.
func quantile(hist *[256]int, n int, q float64) int {
	k, acc := int(q*float64(n)), 0
	for v, c := range hist {
		acc += c
		if acc > k {
			return v
		}
	}
	return 255
}
