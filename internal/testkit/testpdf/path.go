package testpdf

import (
	"fmt"
	"strings"
)

// Polyline strokes the user-space points pts as one open path, width
// points wide, in the given gray (0 black, 1 white), with round caps and
// joins: how signature pads and e-signing tools draw a pen's trace as
// vector graphics.
func (p *Page) Polyline(pts [][2]float64, width, gray float64) {
	if len(pts) < 2 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "q %s G %s w 1 J 1 j %s %s m", num(gray), num(width), num(pts[0][0]), num(pts[0][1]))
	for _, q := range pts[1:] {
		fmt.Fprintf(&b, " %s %s l", num(q[0]), num(q[1]))
	}
	b.WriteString(" S Q\n")
	p.content.WriteString(b.String())
}
