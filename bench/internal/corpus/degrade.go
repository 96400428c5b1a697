package corpus

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"

	"github.com/redactd/redactd/engine/pipeline/mupdf"
)

// grayPage is a page rendered by MuPDF, as luminance.
type grayPage struct {
	w, h int
	pix  []byte
}

// renderGray renders every page of a PDF at dpi as luminance (MuPDF
// draws gray pages into one channel, colour ones into three).
func renderGray(ctx context.Context, pdf []byte, dpi float64) ([]grayPage, error) {
	doc, err := mupdf.Open(pdf, mupdf.Options{})
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	out := make([]grayPage, doc.NumPages())
	for i := range out {
		p, err := doc.LoadPage(ctx, i)
		if err != nil {
			return nil, err
		}
		r, err := p.Render(ctx, dpi, 1<<28)
		p.Close()
		if err != nil {
			return nil, err
		}
		g := grayPage{w: r.W, h: r.H, pix: make([]byte, r.W*r.H)}
		for y := range r.H {
			row := r.Pix[y*r.Stride:]
			if r.Channels == 1 {
				copy(g.pix[y*r.W:(y+1)*r.W], row)
				continue
			}
			for x := range r.W {
				c := row[x*r.Channels:]
				g.pix[y*r.W+x] = uint8((299*int(c[0]) + 587*int(c[1]) + 114*int(c[2])) / 1000)
			}
		}
		r.Release()
		out[i] = g
	}
	return out, nil
}

// at samples g bilinearly at (x, y) in pixel units (pixel centres at
// +0.5); ok is false outside the page.
func (g grayPage) at(x, y float64) (v float64, ok bool) {
	x, y = x-0.5, y-0.5
	if x < -0.5 || y < -0.5 || x > float64(g.w)-0.5 || y > float64(g.h)-0.5 {
		return 0, false
	}
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	px := func(xi, yi int) float64 {
		xi, yi = min(max(xi, 0), g.w-1), min(max(yi, 0), g.h-1)
		return float64(g.pix[yi*g.w+xi])
	}
	top := px(x0, y0)*(1-fx) + px(x0+1, y0)*fx
	bot := px(x0, y0+1)*(1-fx) + px(x0+1, y0+1)*fx
	return top*(1-fy) + bot*fy, true
}

// rotation turns a source image of sw x sh pixels by angle (radians)
// about its centre and places it at the centre of an ow x oh canvas.
type rotation struct {
	sin, cos       float64
	sw, sh, ow, oh float64
}

func newRotation(angleDeg float64, sw, sh, ow, oh int) rotation {
	s, c := math.Sincos(angleDeg * math.Pi / 180)
	return rotation{s, c, float64(sw), float64(sh), float64(ow), float64(oh)}
}

// src maps a canvas position to the source image.
func (r rotation) src(x, y float64) (float64, float64) {
	dx, dy := x-r.ow/2, y-r.oh/2
	return r.cos*dx + r.sin*dy + r.sw/2, -r.sin*dx + r.cos*dy + r.sh/2
}

// truth maps a normalised point of the source page to a normalised point
// of the canvas.
func (r rotation) truth(p Point) Point {
	dx, dy := p.X*r.sw-r.sw/2, p.Y*r.sh-r.sh/2
	return Point{(r.cos*dx - r.sin*dy + r.ow/2) / r.ow, (r.sin*dx + r.cos*dy + r.oh/2) / r.oh}
}

// scanImage degrades a rendered page the way an office scanner does:
// turned by a small angle, paper a little grey, ink not quite black,
// sensor noise.
func scanImage(g grayPage, rot rotation, rng *rand.Rand) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, g.w, g.h))
	for y := range g.h {
		for x := range g.w {
			v, ok := g.at(rot.src(float64(x)+0.5, float64(y)+0.5))
			if !ok {
				v = 255
			}
			v = 14 + v*0.9 + rng.NormFloat64()*3
			img.Pix[y*img.Stride+x] = clamp(v)
		}
	}
	return img
}

// photoImage places a rendered page on a desk the way a phone photo
// shows it: turned, with a margin of background, light falling off
// across the frame, a warm tint and noise.
func photoImage(g grayPage, rot rotation, ow, oh int, rng *rand.Rand) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := range oh {
		for x := range ow {
			light := 0.78 + 0.22*(float64(x)/float64(ow)+float64(y)/float64(oh))/2
			v, ok := g.at(rot.src(float64(x)+0.5, float64(y)+0.5))
			var c [3]float64
			if ok {
				c = [3]float64{v * light, v * light * 0.97, v * light * 0.9}
			} else {
				c = [3]float64{118 * light, 100 * light, 82 * light} // wooden desk
			}
			n := rng.NormFloat64() * 5
			i := y*img.Stride + 4*x
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = clamp(c[0]+n), clamp(c[1]+n), clamp(c[2]+n), 255
		}
	}
	return img
}

func clamp(v float64) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}

func encodeJPEG(img image.Image, quality int) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: quality}); err != nil {
		return nil, fmt.Errorf("jpeg: %w", err)
	}
	return b.Bytes(), nil
}

func encodePNG(g grayPage) ([]byte, error) {
	img := image.NewGray(image.Rect(0, 0, g.w, g.h))
	copy(img.Pix, g.pix)
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	return b.Bytes(), nil
}
