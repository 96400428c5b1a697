package pdfout

import (
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/redactd/redactd/engine/page"
)

// Test pages: real anti-aliased text drawn with the Go font, as MuPDF
// would render a text PDF, and photo-like content.

const words = "the quick brown fox jumps over lazy dog invoice number customer address " +
	"payment due date total amount account reference street city phone email " +
	"please contact our office regarding the attached statement before the end of month"

func textFace(t testing.TB, sizePt, dpi float64) font.Face {
	t.Helper()
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: sizePt, DPI: dpi, Hinting: font.HintingNone})
	if err != nil {
		t.Fatal(err)
	}
	return face
}

// textPage draws lines of words on white, w x h pixels at dpi; colored
// draws every seventh word in blue or red.
func textPage(t testing.TB, w, h int, dpi float64, colored bool, seed uint64) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	face := textFace(t, 11, dpi)
	defer face.Close()
	rng := rand.New(rand.NewPCG(seed, 1))
	vocab := strings.Fields(words)
	margin := int(dpi)
	lineH := int(11 * 1.4 * dpi / 72)
	inks := []image.Image{image.Black, image.NewUniform(color.RGBA{0x10, 0x30, 0xC0, 0xFF}), image.NewUniform(color.RGBA{0xC0, 0x10, 0x10, 0xFF})}
	for y := margin; y < h-margin; y += lineH {
		if rng.IntN(8) == 0 {
			continue // paragraph break
		}
		d := &font.Drawer{Dst: img, Src: inks[0], Face: face, Dot: fixed.P(margin, y)}
		for n := 0; d.Dot.X.Round() < w-margin-100; n++ {
			d.Src = inks[0]
			if colored && n%7 == 3 {
				d.Src = inks[1+n%2]
			}
			d.DrawString(vocab[rng.IntN(len(vocab))] + " ")
		}
	}
	return img
}

// toRaster copies an RGBA image into a raster with channels 1 or 3 and
// pad extra bytes per row.
func toRaster(img *image.RGBA, channels, pad int) *page.Raster {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	stride := w*channels + pad
	r := &page.Raster{W: w, H: h, Channels: channels, Stride: stride, Pix: make([]byte, stride*h)}
	for y := range h {
		for x := range w {
			p := img.Pix[y*img.Stride+4*x:]
			if channels == 1 {
				r.Pix[y*stride+x] = p[1]
			} else {
				copy(r.Pix[y*stride+3*x:y*stride+3*x+3], p[:3])
			}
		}
	}
	return r
}

// photoRaster is smooth colour gradients with sensor-like noise.
func photoRaster(w, h int, seed uint64) *page.Raster {
	rng := rand.New(rand.NewPCG(seed, 2))
	r := &page.Raster{W: w, H: h, Channels: 3, Stride: 3 * w, Pix: make([]byte, 3*w*h)}
	for y := range h {
		for x := range w {
			for c := range 3 {
				v := (x*(200+20*c)/w+y*(160-30*c)/h)/2 + 40 + rng.IntN(9) - 4
				r.Pix[y*r.Stride+3*x+c] = byte(min(255, max(0, v)))
			}
		}
	}
	return r
}

// noiseRaster is uniformly random bytes: incompressible either way.
func noiseRaster(w, h, channels int, seed uint64) *page.Raster {
	rng := rand.New(rand.NewPCG(seed, 3))
	r := &page.Raster{W: w, H: h, Channels: channels, Stride: channels * w, Pix: make([]byte, channels*w*h)}
	for i := range r.Pix {
		r.Pix[i] = byte(rng.Uint32())
	}
	return r
}
