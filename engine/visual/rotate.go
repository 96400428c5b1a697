package visual

import (
	"image"
	"math"
)

// Rotate turns g by deg degrees about its centre, nearest pixel, the
// corners filled white, keeping its size. Test kits use it to tilt photos.
func Rotate(g *image.Gray, deg float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	s, c := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(w)/2, float64(h)/2
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := int(c*dx+s*dy+cx), int(-s*dx+c*dy+cy)
			v := uint8(255)
			if sx >= 0 && sy >= 0 && sx < w && sy < h {
				v = g.Pix[sy*g.Stride+sx]
			}
			out.Pix[y*out.Stride+x] = v
		}
	}
	return out
}
