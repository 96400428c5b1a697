package ocr

import (
	"context"
	"fmt"
)

// knownGap is the blank columns, at recogniser height, put between two
// boxes read together by ReadBoxes: wide enough to read as a space.
const knownGap = 32

// ReadBoxes reads the text inside each quad of img (boxes whose place is
// already known, such as a text layer's words) with the recogniser alone:
// no detection, no orientation search. The boxes are cut at recogniser
// height and set side by side, separated by blank paper, into one line,
// so checking a sample of words costs one recogniser run of their total
// width. It returns the line's reading and the columns the recogniser
// ran over (the line's width, at least the recogniser's minimum of 320).
func (e *Engine) ReadBoxes(ctx context.Context, img Image, quads []Quad) (string, int, error) {
	if err := img.validate(); err != nil {
		return "", 0, err
	}
	select {
	case <-e.closed:
		return "", 0, ErrClosed
	default:
	}
	var parts []crop
	w := 0
	for _, q := range quads {
		c, ok := cropQuad(img, q)
		if !ok {
			continue
		}
		if len(parts) > 0 {
			w += knownGap
		}
		parts = append(parts, c)
		w += c.w
	}
	if len(parts) == 0 {
		return "", 0, nil
	}
	ch := img.Channels
	line := crop{pix: make([]byte, w*recH*ch), w: w, ch: ch}
	for i := range line.pix {
		line.pix[i] = 255
	}
	x := 0
	for _, c := range parts {
		for y := 0; y < recH; y++ {
			copy(line.pix[(y*w+x)*ch:(y*w+x+c.w)*ch], c.pix[y*c.w*ch:(y+1)*c.w*ch])
		}
		x += c.w + knownGap
	}
	q := Quad{UL: Point{0, 0}, UR: Point{float64(w), 0}, LL: Point{0, recH}, LR: Point{float64(w), recH}}
	lines, err := e.read(ctx, []*lineJob{{quad: q, c: line}})
	if err != nil {
		return "", 0, fmt.Errorf("ocr: read boxes: %w", err)
	}
	return lines[0].Text, max(w, recMinW), nil
}
