package ocr

import "testing"

// cropOf is a one-channel crop of width w whose first ink columns of
// every row are ink and the rest paper.
func cropOf(w, inkCols int, ink, paper byte) crop {
	pix := make([]byte, w*recH)
	for y := range recH {
		for x := range w {
			pix[y*w+x] = paper
			if x < inkCols {
				pix[y*w+x] = ink
			}
		}
	}
	return crop{pix: pix, w: w, ch: 1}
}

func TestStretched(t *testing.T) {
	for _, c := range []struct {
		name            string
		ink, paper      byte
		wantInk, wantPp byte
	}{
		{"faint print is stretched", 225, 250, 0, 255},
		{"light print on a dark ground stays light on dark", 40, 20, 255, 0},
		{"print of normal contrast is left", 30, 240, 30, 240},
		{"a blank crop is left", 250, 253, 250, 253},
	} {
		s := cropOf(100, 15, c.ink, c.paper).stretched()
		if s.pix[0] != c.wantInk || s.pix[99] != c.wantPp {
			t.Errorf("%s: ink %d paper %d became %d and %d, want %d and %d", c.name, c.ink, c.paper, s.pix[0], s.pix[99], c.wantInk, c.wantPp)
		}
	}
}
