package ocr

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/redactd/redactd/kernels"
)

// Test pages are drawn with the Go font (embedded in golang.org/x/image),
// so the tests need no system fonts, and every word's ink box is known.

// truthWord is a word drawn on a test page with its ink box.
type truthWord struct {
	text string
	quad Quad
}

type pageSpec struct {
	lines  []string
	dpi    float64
	pt     float64 // font size in points
	skew   float64 // degrees, counter-clockwise
	noise  float64 // standard deviation of added gray noise
	margin float64 // inches
	seed   uint64
	ttf    []byte // font; nil means Go Regular
}

// renderPage draws spec on a letter-width page (height fitted to the
// text) and returns it as a gray image with the true words per line.
func renderPage(t testing.TB, spec pageSpec) (Image, [][]truthWord) {
	t.Helper()
	ttf := spec.ttf
	if ttf == nil {
		ttf = goregular.TTF
	}
	f, err := opentype.Parse(ttf)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: spec.pt, DPI: spec.dpi, Hinting: font.HintingNone})
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	px := func(in float64) int { return int(in * spec.dpi) }
	lineH := spec.pt * 1.5 * spec.dpi / 72
	w := px(8.5)
	h := px(2*spec.margin) + int(lineH*float64(len(spec.lines)+1))
	canvas := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(color.Gray{245}), image.Point{}, draw.Src)
	d := &font.Drawer{Dst: canvas, Src: image.NewUniform(color.Gray{20}), Face: face}
	var truth [][]truthWord
	for i, line := range spec.lines {
		x0 := fixed.I(px(spec.margin))
		y := fixed.I(px(spec.margin) + int(lineH*float64(i+1)))
		var words []truthWord
		start := -1
		flush := func(end int) {
			if start < 0 {
				return
			}
			word := line[start:end]
			dot := fixed.Point26_6{X: x0 + d.MeasureString(line[:start]), Y: y}
			b, _ := font.BoundString(face, word)
			r := Quad{
				UL: Point{fx(dot.X + b.Min.X), fx(dot.Y + b.Min.Y)}, UR: Point{fx(dot.X + b.Max.X), fx(dot.Y + b.Min.Y)},
				LL: Point{fx(dot.X + b.Min.X), fx(dot.Y + b.Max.Y)}, LR: Point{fx(dot.X + b.Max.X), fx(dot.Y + b.Max.Y)},
			}
			words = append(words, truthWord{text: word, quad: r})
			start = -1
		}
		for k, r := range line {
			if r == ' ' {
				flush(k)
			} else if start < 0 {
				start = k
			}
		}
		flush(len(line))
		d.Dot = fixed.Point26_6{X: x0, Y: y}
		d.DrawString(line)
		truth = append(truth, words)
	}
	img := Image{W: w, H: h, Channels: 1, Stride: canvas.Stride, Pix: canvas.Pix}
	if spec.skew != 0 {
		img, truth = skewPage(img, truth, spec.skew)
	}
	if spec.noise > 0 {
		r := rand.New(rand.NewPCG(spec.seed, 99))
		for i, v := range img.Pix {
			img.Pix[i] = byte(math.Max(0, math.Min(255, float64(v)+r.NormFloat64()*spec.noise)))
		}
	}
	return img, truth
}

func fx(v fixed.Int26_6) float64 { return float64(v) / 64 }

// skewPage rotates the page by deg (counter-clockwise) about its centre,
// keeping its size, and moves the true boxes with it.
func skewPage(img Image, truth [][]truthWord, deg float64) (Image, [][]truthWord) {
	a := deg * math.Pi / 180
	ca, sa := math.Cos(a), math.Sin(a)
	cx, cy := float64(img.W)/2, float64(img.H)/2
	// Forward (source -> page) and the inverse for sampling.
	fwd := func(p Point) Point {
		x, y := p.X-cx, p.Y-cy
		return Point{cx + x*ca + y*sa, cy - x*sa + y*ca}
	}
	// dst -> src: rotate back.
	m := kernels.Homography{ca, -sa, cx - cx*ca + cy*sa, sa, ca, cy - cx*sa - cy*ca, 0, 0, 1}
	out := Image{W: img.W, H: img.H, Channels: 1, Stride: img.W, Pix: make([]byte, img.W*img.H)}
	kernels.WarpPerspective(out.Pix, out.W, out.H, out.Stride, img.Pix, img.W, img.H, img.Stride, 1, m, 1)
	for i := range truth {
		for j := range truth[i] {
			truth[i][j].quad = truth[i][j].quad.mapPoints(fwd)
		}
	}
	return out, truth
}

// rotatePage turns a test page clockwise by rot with its truth.
func rotatePage(img Image, truth [][]truthWord, rot rotation) (Image, [][]truthWord) {
	out := rotateImage(img, rot)
	w, h := float64(img.W), float64(img.H)
	for i := range truth {
		for j := range truth[i] {
			truth[i][j].quad = truth[i][j].quad.mapPoints(func(p Point) Point { return rot.apply(p, w, h) })
		}
	}
	return out, truth
}

// testLines is a page of invoice-like English with the kinds of values
// redaction looks for.
var testLines = []string{
	"Invoice 2024-0173 issued to Margaret Ellison on 12 March 2024.",
	"Billing address: 4821 Larkspur Avenue, Springfield, IL 62704",
	"Contact: m.ellison@example.com, phone +1 (217) 555-0142",
	"Account IBAN DE89 3704 0044 0532 0130 00 at Northwind Bank",
	"Card ending 4242, expiry 09/27, authorised by Dr. Jonathan Pryce",
	"Please remit the total amount of $1,284.50 within thirty days.",
	"The quick brown fox jumps over the lazy dog near the river bank.",
	"Shipment tracking number: ZX-99817-QA, delivered on 3 April 2024",
	"Customer reference: Ellison/Pryce, Northwind Traders Ltd., Boston",
	"Questions? Write to billing@northwind.example or call 0800 123 4567.",
}
