package visual_test

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
	xdraw "golang.org/x/image/draw"

	. "github.com/redactd/redactd/engine/visual"
	"github.com/redactd/redactd/internal/testkit/hostile/pictures"
)

// gray is img scaled by scale, in gray.
func gray(img image.Image, scale float64) *image.Gray {
	b := img.Bounds()
	g := image.NewGray(image.Rect(0, 0, int(float64(b.Dx())*scale), int(float64(b.Dy())*scale)))
	xdraw.CatmullRom.Scale(g, g.Bounds(), img, b, xdraw.Src, nil)
	return g
}

func grayOf(g *image.Gray) Gray {
	return Gray{Pix: g.Pix, W: g.Rect.Dx(), H: g.Rect.Dy(), Stride: g.Stride}
}

// astronautHead is the astronaut's head in the 512 x 512 photo, drawn by
// hand: hair to chin, ear to ear.
var astronautHead = Box{pictures.AstronautHead.Min.X, pictures.AstronautHead.Min.Y, pictures.AstronautHead.Max.X, pictures.AstronautHead.Max.Y}

func covers(b, in Box) bool { return b.X0 <= in.X0 && b.Y0 <= in.Y0 && b.X1 >= in.X1 && b.Y1 >= in.Y1 }

// TestFaces: the embedded cascade finds the astronaut's face from about
// 24 px high, upright and tilted, and the mask covers her whole head.
func TestFaces(t *testing.T) {
	f, err := NewFaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []float64{0.25, 0.5, 1} {
		g := gray(pictures.Astronaut(), s)
		got := f.Find(grayOf(g))
		if len(got) != 1 {
			t.Fatalf("scale %.2f: %d faces, want 1: %+v", s, len(got), got)
		}
		want := Box{int(float64(astronautHead.X0) * s), int(float64(astronautHead.Y0) * s), int(float64(astronautHead.X1) * s), int(float64(astronautHead.Y1) * s)}
		if !covers(got[0].Head, want) {
			t.Errorf("scale %.2f: head %+v does not cover %+v (face %+v)", s, got[0].Head, want, got[0].Core)
		}
	}
	// 24 px: the cascade's square on the photo at 0.22 is about 24 px.
	if got := f.Find(grayOf(gray(pictures.Astronaut(), 0.22))); len(got) != 1 || got[0].Core.Y1-got[0].Core.Y0 > 30 {
		t.Errorf("small face: %+v", got)
	}
	// Tilted 20 degrees either way.
	for _, deg := range []float64{-20, 20} {
		g := gray(pictures.Rotate(gray(pictures.Astronaut(), 0.5), deg), 1)
		if got := f.Find(grayOf(g)); len(got) != 1 {
			t.Errorf("tilted %v degrees: %d faces", deg, len(got))
		}
	}
	// A page of nothing but paper and bars has no face.
	blankPage := image.NewGray(image.Rect(0, 0, 400, 300))
	for i := range blankPage.Pix {
		blankPage.Pix[i] = 250
	}
	if got := f.Find(grayOf(blankPage)); len(got) != 0 {
		t.Errorf("blank: %+v", got)
	}
}

func encode(t testing.TB, w gozxing.Writer, text string, f gozxing.BarcodeFormat, wd, ht int) *image.Gray {
	m, err := w.Encode(text, f, wd, ht, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := image.NewGray(image.Rect(0, 0, m.GetWidth(), m.GetHeight()))
	for y := 0; y < m.GetHeight(); y++ {
		for x := 0; x < m.GetWidth(); x++ {
			g.SetGray(x, y, color.Gray{Y: 255 * uint8(1-b2i(m.Get(x, y)))})
		}
	}
	return g
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCodes: QR, Data Matrix and Code 128 codes placed on a page are
// decoded, each box covers its code, and a QR code with its data modules
// scrambled is still found, undecoded.
func TestCodes(t *testing.T) {
	page := image.NewGray(image.Rect(0, 0, 900, 700))
	for i := range page.Pix {
		page.Pix[i] = 255
	}
	place := func(g *image.Gray, x, y int) Box {
		xdraw.Copy(page, image.Pt(x, y), g, g.Bounds(), xdraw.Src, nil)
		return Box{x, y, x + g.Rect.Dx(), y + g.Rect.Dy()}
	}
	qr := place(encode(t, qrcode.NewQRCodeWriter(), "MECARD:N:Doe,Jane;EMAIL:jane.doe@example.org;;", gozxing.BarcodeFormat_QR_CODE, 160, 160), 40, 40)
	dm := place(encode(t, datamatrix.NewDataMatrixWriter(), "Jane Doe +44 20 7946 0958", gozxing.BarcodeFormat_DATA_MATRIX, 120, 120), 400, 40)
	c128 := place(encode(t, oned.NewCode128Writer(), "GB29NWBK60161331926819", gozxing.BarcodeFormat_CODE_128, 360, 80), 40, 400)
	got := FindCodes(grayOf(page))
	want := map[string]Box{"QR_CODE": qr, "DATA_MATRIX": dm, "CODE_128": c128}
	texts := map[string]string{"QR_CODE": "MECARD:N:Doe,Jane;EMAIL:jane.doe@example.org;;", "DATA_MATRIX": "Jane Doe +44 20 7946 0958", "CODE_128": "GB29NWBK60161331926819"}
	seen := map[string]bool{}
	for _, c := range got {
		w, ok := want[c.Format]
		if !ok || !c.Decoded {
			t.Errorf("unexpected code %s decoded=%v at %+v", c.Format, c.Decoded, c.Box)
			continue
		}
		seen[c.Format] = true
		if c.Text != texts[c.Format] {
			t.Errorf("%s: text differs", c.Format)
		}
		// The code's dark modules lie inside the box: check the ink.
		if !inkInside(page, w, c.Box) {
			t.Errorf("%s: box %+v leaves ink of %+v outside", c.Format, c.Box, w)
		}
	}
	for f := range want {
		if !seen[f] {
			t.Errorf("%s not found", f)
		}
	}
}

// inkInside reports whether every dark pixel of area lies inside b.
func inkInside(g *image.Gray, area, b Box) bool {
	for y := area.Y0; y < area.Y1; y++ {
		for x := area.X0; x < area.X1; x++ {
			if g.GrayAt(x, y).Y < 128 && (x < b.X0 || x >= b.X1 || y < b.Y0 || y >= b.Y1) {
				return false
			}
		}
	}
	return true
}

// TestFacesInAStrip: a face in a long strip (a banner 10 times as long as
// tall) is found, in windows, at its place.
func TestFacesInAStrip(t *testing.T) {
	f, err := NewFaces()
	if err != nil {
		t.Fatal(err)
	}
	face := gray(pictures.Astronaut(), 0.25) // 128 x 128
	strip := image.NewGray(image.Rect(0, 0, 1280, 128))
	for i := range strip.Pix {
		strip.Pix[i] = 200
	}
	xdraw.Copy(strip, image.Pt(900, 0), face, face.Bounds(), xdraw.Src, nil)
	got := f.Find(grayOf(strip))
	if len(got) != 1 || got[0].Core.X0 < 900 || got[0].Core.X1 > 1028 {
		t.Fatalf("faces in the strip: %+v", got)
	}
}

// TestAreasPhotographedPage: on a phone photo of a page (a desk of one
// flat tone around it, the paper in the shade at one corner, lines of
// print, a portrait on the page), the areas worth looking for faces in
// are the portrait's, not the page's: neither the desk nor print on
// shaded paper counts as photo.
func TestAreasPhotographedPage(t *testing.T) {
	const w, h, margin = 900, 1100, 60
	rng := rand.New(rand.NewPCG(47, 1))
	pg := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			// Light falls off towards the top left: paper from 250 down
			// to about 180, the desk from 120 down to about 85.
			light := 0.72 + 0.28*(float64(x)/w+float64(y)/h)/2
			v := 250 * light
			if x < margin || y < margin || x >= w-margin || y >= h-margin {
				v = 120 * light
			} else if (y-margin)%24 < 12 && (x-margin)%7 < 2 && x < w-2*margin && (x/90)%4 != 3 {
				v = 25 // print: strokes in lines of words
			}
			pg.Pix[y*pg.Stride+x] = uint8(min(max(v+rng.NormFloat64()*4, 0), 255))
		}
	}
	face := gray(pictures.Astronaut(), 0.25) // 128 x 128
	at := image.Pt(600, 300)
	xdraw.Copy(pg, at, face, face.Bounds(), xdraw.Src, nil)
	photos, _ := Areas(grayOf(pg))
	head := Box{at.X + astronautHead.X0/4, at.Y + astronautHead.Y0/4, at.X + astronautHead.X1/4, at.Y + astronautHead.Y1/4}
	area, holds := 0, false
	for _, b := range photos {
		area += (b.X1 - b.X0) * (b.Y1 - b.Y0)
		holds = holds || covers(b, head)
	}
	if !holds {
		t.Errorf("no photo area holds the portrait's head %+v: %+v", head, photos)
	}
	// The portrait with a tile of margin round it is 160 x 160 pixels.
	if area > 2*160*160 {
		t.Errorf("photo areas cover %d pixels, more than twice the portrait's: %+v", area, photos)
	}
}
