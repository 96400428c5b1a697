package pictures

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"strings"

	xdraw "golang.org/x/image/draw"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Handwriting (issue 47, category Signature): signatures, initials and
// handwritten notes on contracts, forms and letters, as pasted images,
// as vector pen traces (signature pads, e-signing tools) and on scanned
// pages, clean and noisy. The pen is simulated here with an oscillation
// model of handwriting (a horizontal drift plus coupled oscillations, one
// cycle a letter, heights for ascenders and descenders, slant, pen lifts
// between words, width varying with the pen's speed), a different model
// from the one the classifier is trained on (models/hand/train/synth.py:
// splines through control points), so the corpus does not test the
// training generator against itself.

// HandTarget is handwriting that must be masked: its ink box and points
// of its ink (at most 400), in page points (display space; for a PNG
// case, in the PNG's pixels: HandScale maps them).
type HandTarget struct {
	Kind string // signature, initials, note, vector
	Box  page.Rect
	Ink  []page.Point
}

// HandCase is one document of the handwriting corpus.
type HandCase struct {
	Name    string
	Doc     []byte
	PNG     bool // Doc is a scanned page as a PNG, 1275 px wide (letter at 150 dpi)
	Targets []HandTarget
}

// HandScale maps a PNG case's target (pixels) to page points, given the
// page's width in points.
func HandScale(t HandTarget, pageWidthPt float64) HandTarget {
	s := pageWidthPt / 1275
	t.Box = page.Rect{X0: t.Box.X0 * s, Y0: t.Box.Y0 * s, X1: t.Box.X1 * s, Y1: t.Box.Y1 * s}
	ink := make([]page.Point, len(t.Ink))
	for i, p := range t.Ink {
		ink[i] = page.Point{X: p.X * s, Y: p.Y * s}
	}
	t.Ink = ink
	return t
}

// penPoint is a point of a pen's trace, in units of the x-height, y down,
// with the pen's width there.
type penPoint struct{ x, y, w float64 }

// penWrite traces words of handwriting: each word a run of letter cycles
// (a capital first when capital), strokes parted where the pen lifts.
// flourish adds a closing stroke back under the words.
func penWrite(rng *rand.Rand, words, lines int, capital, flourish bool) [][]penPoint {
	slant := math.Tan((rng.Float64()*40 - 5) * math.Pi / 180)
	w0 := 0.07 + rng.Float64()*0.08
	var strokes [][]penPoint
	for li := range lines {
		x := rng.Float64() * 0.8
		base := float64(li) * (3.2 + rng.Float64())
		for wi := range words {
			var s []penPoint
			n := 3 + rng.IntN(7)
			for k := -1; k < n; k++ {
				h := 1.0 // x-height
				adv := 0.45 + rng.Float64()*0.45
				a := 0.1 + rng.Float64()*0.3 // loopiness: loops where a > adv/2pi
				switch r := rng.Float64(); {
				case k == -1 && (!capital || wi > 0 && rng.Float64() < 0.5):
					continue
				case k == -1:
					h, adv, a = 2.4+rng.Float64()*0.8, 1.0+rng.Float64()*0.6, 0.4+rng.Float64()*0.3
				case r < 0.18:
					h = 2.0 + rng.Float64()*0.6 // ascender
				case r < 0.3:
					h = -(0.9 + rng.Float64()*0.5) // descender
				}
				c := adv / (2 * math.Pi)
				phi := rng.Float64() * 0.6
				for t := 0.0; t < 2*math.Pi; t += 0.12 {
					px := x + c*t + a*math.Sin(t+phi) - a*math.Sin(phi)
					py := -h * (1 - math.Cos(t)) / 2
					if h < 0 {
						py = -h * (1 - math.Cos(t)) / 2 * 1.0
					}
					sp := math.Hypot(c+a*math.Cos(t+phi), h*math.Sin(t)/2)
					s = append(s, penPoint{px, base + py, w0 * (0.55 + 0.6/(1+2*sp))})
				}
				x += adv
			}
			for i := range s {
				s[i].x -= (s[i].y - base) * slant
			}
			strokes = append(strokes, s)
			x += 0.7 + rng.Float64()*0.8
		}
		if flourish && li == lines-1 {
			var s []penPoint
			for t := 0.0; t <= 1; t += 0.03 {
				s = append(s, penPoint{x - 0.3 - t*x*(0.7+rng.Float64()*0.05), base + 0.4 + 0.7*math.Sin(t*math.Pi), w0 * (1.2 - t*0.6)})
			}
			strokes = append(strokes, s)
		}
	}
	return strokes
}

// penInitials traces one to three capitals, each a large loop, with a
// full stop after some.
func penInitials(rng *rand.Rand) [][]penPoint {
	var strokes [][]penPoint
	x := 0.0
	w0 := 0.09 + rng.Float64()*0.06
	for range 1 + rng.IntN(3) {
		r := 1.0 + rng.Float64()*0.5
		var s []penPoint
		t0 := rng.Float64() * 2
		for t := t0; t < t0+2*math.Pi*(1.1+rng.Float64()*0.6); t += 0.1 {
			s = append(s, penPoint{x + r*0.6*math.Cos(t) + t*0.12, -r + r*math.Sin(t), w0})
		}
		strokes = append(strokes, s)
		x += r * 1.6
		if rng.Float64() < 0.6 {
			strokes = append(strokes, []penPoint{{x - 0.2, -0.05, w0 * 1.4}, {x - 0.18, -0.02, w0 * 1.4}})
			x += 0.4
		}
	}
	return strokes
}

// bounds is the box of a trace, widths included.
func bounds(strokes [][]penPoint) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, s := range strokes {
		for _, p := range s {
			x0, y0 = min(x0, p.x-p.w), min(y0, p.y-p.w)
			x1, y1 = max(x1, p.x+p.w), max(y1, p.y+p.w)
		}
	}
	return
}

// inkImage draws a trace with an x-height of xh pixels on white paper,
// in ink (RGB), and returns the image and its ink's pixel positions.
func inkImage(strokes [][]penPoint, xh float64, ink color.RGBA) (*image.RGBA, []image.Point) {
	const ss = 3 // drawn at three times the size, then reduced
	x0, y0, x1, y1 := bounds(strokes)
	pad := 4.0
	W, H := int((x1-x0)*xh+2*pad), int((y1-y0)*xh+2*pad)
	big := image.NewAlpha(image.Rect(0, 0, W*ss, H*ss))
	disc := func(cx, cy, r float64) {
		for y := int(cy - r); y <= int(cy+r)+1; y++ {
			for x := int(cx - r); x <= int(cx+r)+1; x++ {
				if (float64(x)-cx)*(float64(x)-cx)+(float64(y)-cy)*(float64(y)-cy) <= r*r && x >= 0 && y >= 0 && x < W*ss && y < H*ss {
					big.Pix[y*big.Stride+x] = 255
				}
			}
		}
	}
	for _, s := range strokes {
		for i := range s {
			p := s[i]
			q := p
			if i+1 < len(s) {
				q = s[i+1]
			}
			steps := int(math.Hypot(q.x-p.x, q.y-p.y)*xh*ss) + 1
			for k := range steps {
				f := float64(k) / float64(steps)
				x := ((p.x+(q.x-p.x)*f-x0)*xh + pad) * ss
				y := ((p.y+(q.y-p.y)*f-y0)*xh + pad) * ss
				disc(x, y, max(0.6, (p.w+(q.w-p.w)*f)*xh)*ss/2)
			}
		}
	}
	mask := image.NewAlpha(image.Rect(0, 0, W, H))
	xdraw.ApproxBiLinear.Scale(mask, mask.Bounds(), big, big.Bounds(), xdraw.Src, nil)
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	var pts []image.Point
	for y := range H {
		for x := range W {
			a := float64(mask.Pix[y*mask.Stride+x]) / 255
			o := y*img.Stride + x*4
			img.Pix[o] = uint8(255 - a*(255-float64(ink.R)))
			img.Pix[o+1] = uint8(255 - a*(255-float64(ink.G)))
			img.Pix[o+2] = uint8(255 - a*(255-float64(ink.B)))
			img.Pix[o+3] = 255
			if a > 0.5 {
				pts = append(pts, image.Pt(x, y))
			}
		}
	}
	return img, pts
}

// inks are the pens: black, blue, and a worn gray ballpoint.
var inks = []color.RGBA{{20, 20, 25, 255}, {25, 45, 150, 255}, {90, 90, 100, 255}}

// placeInk puts a trace on page p as an image whose top-left corner is
// at (x, top) in user space, xh points of x-height, drawn at 150 dpi,
// and returns its target.
func placeInk(p *testpdf.Page, kind string, strokes [][]penPoint, x, top, xh float64, ink color.RGBA) HandTarget {
	const dpi = 150.0
	img, pts := inkImage(strokes, xh*dpi/72, ink)
	w, h := float64(img.Bounds().Dx())*72/dpi, float64(img.Bounds().Dy())*72/dpi
	p.Image(x, top-h, w, h, img)
	s := 72 / dpi
	toPage := func(ix, iy float64) page.Point { return p.ToDisplay(x+ix*s, top-iy*s) }
	return inkTarget(kind, pts, toPage)
}

// inkTarget builds a target from ink pixels and their mapping to page
// points: its box, and up to 400 of its points, evenly taken.
func inkTarget(kind string, pts []image.Point, toPage func(x, y float64) page.Point) HandTarget {
	t := HandTarget{Kind: kind, Box: page.Rect{X0: math.Inf(1), Y0: math.Inf(1), X1: math.Inf(-1), Y1: math.Inf(-1)}}
	step := max(1, len(pts)/400)
	for i, q := range pts {
		a, b := toPage(float64(q.X), float64(q.Y)), toPage(float64(q.X+1), float64(q.Y+1))
		t.Box = page.Rect{X0: min(t.Box.X0, a.X, b.X), Y0: min(t.Box.Y0, a.Y, b.Y), X1: max(t.Box.X1, a.X, b.X), Y1: max(t.Box.Y1, a.Y, b.Y)}
		if i%step == 0 {
			t.Ink = append(t.Ink, toPage(float64(q.X)+0.5, float64(q.Y)+0.5))
		}
	}
	return t
}

// placeVector strokes a trace on p as vector paths (a signature pad's
// trace): top-left at (x, top), xh points of x-height.
func placeVector(p *testpdf.Page, strokes [][]penPoint, x, top, xh, gray float64) HandTarget {
	x0, y0, _, _ := bounds(strokes)
	t := HandTarget{Kind: "vector", Box: page.Rect{X0: math.Inf(1), Y0: math.Inf(1), X1: math.Inf(-1), Y1: math.Inf(-1)}}
	var all []page.Point
	for _, s := range strokes {
		pts := make([][2]float64, len(s))
		var w float64
		for i, q := range s {
			pts[i] = [2]float64{x + (q.x-x0)*xh, top - (q.y-y0)*xh}
			w += q.w
		}
		w = w / float64(len(s)) * xh
		p.Polyline(pts, w, gray)
		for i := range pts {
			d := p.ToDisplay(pts[i][0], pts[i][1])
			all = append(all, d)
			t.Box = page.Rect{X0: min(t.Box.X0, d.X-w/2), Y0: min(t.Box.Y0, d.Y-w/2), X1: max(t.Box.X1, d.X+w/2), Y1: max(t.Box.Y1, d.Y+w/2)}
		}
	}
	step := max(1, len(all)/400)
	for i := 0; i < len(all); i += step {
		t.Ink = append(t.Ink, all[i])
	}
	return t
}

// Contract text and the signature labels of the languages the product
// reads ("" for a block with no label).
var (
	contractBody = []string{
		"This agreement is made between the parties named below and takes effect on signature.",
		"The supplier shall deliver the services described in the annex within thirty days.",
		"Payment is due within fourteen days of the invoice date to the account stated therein.",
		"Either party may terminate this agreement with three months' written notice.",
		"This agreement is governed by the law of the place where the client is established.",
		"In witness whereof the parties have signed this agreement in two original copies.",
	}
	handLabels = []string{"Signature:", "Signed:", "Unterschrift:", "Signé :", "Firma:", "Handtekening:", "Assinatura:", ""}
)

// contractPage lays out a contract page with its signature blocks and
// returns it with its targets; vector draws the signatures as pen traces
// instead of images.
func contractPage(rng *rand.Rand, label string, xh float64, two, vector bool) ([]byte, []HandTarget) {
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	p.Text(72, 720, 14, "SERVICE AGREEMENT")
	for i, l := range contractBody {
		p.Text(72, 680-float64(i)*15, 9.5, l)
	}
	p.Text(72, 560, 10, "Place and date: Amsterdam, 12 March 2026")
	var ts []HandTarget
	blocks := 1
	if two {
		blocks = 2
	}
	for b := range blocks {
		x := 72.0 + float64(b)*250
		lineY := 430.0
		if label != "" {
			p.Text(x, lineY+4, 9, label)
		}
		sx := x + 10
		if label != "" {
			sx = x + testpdf.StringWidth(label, 9) + 8
		}
		p.FillRect([4]float64{sx - 4, lineY, x + 220, lineY + 0.8}, 0)
		p.Text(x, lineY-16, 9, []string{"Jane Doe, Director", "Pieter Jansen, for the client"}[b])
		strokes := penWrite(rng, 1+rng.IntN(2), 1, true, rng.Float64() < 0.6)
		_, by0, _, by1 := bounds(strokes)
		// The signature crosses its line, its descenders and flourish
		// ending above the printed name.
		top := lineY - 5 + (by1-by0)*xh + 8*72/150.0
		if vector {
			ts = append(ts, placeVector(p, strokes, sx, top, xh, 0.1))
		} else {
			ts = append(ts, placeInk(p, "signature", strokes, sx, top, xh, inks[rng.IntN(len(inks))]))
		}
	}
	p.Text(72, 300, 8, "Page 2 of 2")
	return d.Bytes(), ts
}

// formPage is an application form: printed fields in boxes, a name and a
// date written by hand, initials in a small box.
func formPage(rng *rand.Rand) ([]byte, []HandTarget) {
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	p.Text(72, 720, 14, "APPLICATION FORM")
	box := func(x, y, w, h float64, caption string) {
		p.FillRect([4]float64{x, y, x + w, y + 0.8}, 0)
		p.FillRect([4]float64{x, y + h, x + w, y + h + 0.8}, 0)
		p.FillRect([4]float64{x, y, x + 0.8, y + h}, 0)
		p.FillRect([4]float64{x + w, y, x + w + 0.8, y + h + 0.8}, 0)
		p.Text(x+3, y+h-9, 7, caption)
	}
	var ts []HandTarget
	box(72, 600, 300, 50, "Full name")
	ts = append(ts, placeInk(p, "note", penWrite(rng, 2, 1, true, false), 90, 636, 7+rng.Float64()*3, inks[rng.IntN(2)]))
	box(390, 600, 150, 50, "Date")
	ts = append(ts, placeInk(p, "note", penWrite(rng, 1, 1, false, false), 405, 632, 6+rng.Float64()*2, inks[rng.IntN(2)]))
	box(72, 520, 468, 60, "Reason for the application")
	p.Text(80, 540, 9, "Change of address for the account named above.")
	box(72, 440, 300, 60, "Signature of the applicant")
	ts = append(ts, placeInk(p, "signature", penWrite(rng, 1, 1, true, true), 90, 492, 9+rng.Float64()*4, inks[rng.IntN(len(inks))]))
	box(390, 440, 80, 60, "Initials")
	ts = append(ts, placeInk(p, "initials", penInitials(rng), 405, 488, 12+rng.Float64()*4, inks[rng.IntN(2)]))
	return d.Bytes(), ts
}

// notePage is a letter with a handwritten note beside its text.
func notePage(rng *rand.Rand) ([]byte, []HandTarget) {
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	p.Text(72, 720, 12, "Dear colleague,")
	for i, l := range body {
		p.Text(72, 690-float64(i)*16, 11, l)
	}
	for i, l := range contractBody[:4] {
		p.Text(72, 630-float64(i)*16, 10, l)
	}
	t := placeInk(p, "note", penWrite(rng, 2+rng.IntN(3), 2+rng.IntN(2), false, false), 300, 520, 7+rng.Float64()*4, inks[rng.IntN(len(inks))])
	return d.Bytes(), []HandTarget{t}
}

// HandSeed is the seed of the corpus the tests score; thresholds are
// tuned on others (HandCorpus(11): a dev corpus).
const HandSeed = 47

// HandCorpus builds the handwriting corpus of the given seed.
func HandCorpus(seed uint64) ([]HandCase, error) {
	rng := rand.New(rand.NewPCG(seed, 3))
	var out []HandCase
	for i, l := range handLabels {
		for _, xh := range []float64{7, 11} {
			doc, ts := contractPage(rng, l, xh, i%3 == 1, false)
			label := strings.ToLower(strings.Trim(l, " :"))
			if label == "" {
				label = "unlabelled"
			}
			out = append(out, HandCase{Name: fmt.Sprintf("contract-%s-x%g", label, xh), Doc: doc, Targets: ts})
		}
	}
	for i := range 4 {
		doc, ts := contractPage(rng, handLabels[i*2], 8+float64(i), i%2 == 0, true)
		out = append(out, HandCase{Name: fmt.Sprintf("contract-vector-%d", i), Doc: doc, Targets: ts})
	}
	for i := range 4 {
		doc, ts := formPage(rng)
		out = append(out, HandCase{Name: fmt.Sprintf("form-%d", i), Doc: doc, Targets: ts})
	}
	for i := range 3 {
		doc, ts := notePage(rng)
		out = append(out, HandCase{Name: fmt.Sprintf("note-%d", i), Doc: doc, Targets: ts})
	}
	// Scans: pages of each kind printed, signed and scanned at 150 dpi,
	// clean and noisy.
	for i := range 10 {
		var doc []byte
		var ts []HandTarget
		kind := []string{"contract", "form", "note"}[i%3]
		switch kind {
		case "contract":
			doc, ts = contractPage(rng, handLabels[rng.IntN(len(handLabels))], 8+rng.Float64()*4, i%2 == 0, false)
		case "form":
			doc, ts = formPage(rng)
		default:
			doc, ts = notePage(rng)
		}
		noisy := i%2 == 1
		img, err := scan(doc, noisy, rng)
		if err != nil {
			return nil, fmt.Errorf("pictures: scan %d: %w", i, err)
		}
		s := 150.0 / 72
		for k := range ts {
			t := &ts[k]
			t.Box = page.Rect{X0: t.Box.X0 * s, Y0: t.Box.Y0 * s, X1: t.Box.X1 * s, Y1: t.Box.Y1 * s}
			for j := range t.Ink {
				t.Ink[j] = page.Point{X: t.Ink[j].X * s, Y: t.Ink[j].Y * s}
			}
		}
		name := fmt.Sprintf("scan-%s-%d-clean", kind, i)
		if noisy {
			name = fmt.Sprintf("scan-%s-%d-noisy", kind, i)
		}
		out = append(out, HandCase{Name: name, Doc: img, PNG: true, Targets: ts})
	}
	return out, nil
}

// scan renders a PDF page at 150 dpi, as a scanner sees it: clean (white
// paper) or noisy (gray paper, grain, specks, a little blur), as a PNG.
func scan(pdf []byte, noisy bool, rng *rand.Rand) ([]byte, error) {
	doc, err := mupdf.Open(pdf, mupdf.Options{})
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	pg, err := doc.LoadPage(context.Background(), 0)
	if err != nil {
		return nil, err
	}
	defer pg.Close()
	r, err := pg.Render(context.Background(), 150, 1e8)
	if err != nil {
		return nil, err
	}
	img := image.NewGray(image.Rect(0, 0, r.W, r.H))
	for y := range r.H {
		for x := range r.W {
			o := y*r.Stride + x*r.Channels
			v := int(r.Pix[o])
			if r.Channels >= 3 {
				v = (299*int(r.Pix[o]) + 587*int(r.Pix[o+1]) + 114*int(r.Pix[o+2])) / 1000
			}
			img.Pix[y*img.Stride+x] = uint8(v)
		}
	}
	if noisy {
		paper := 225 + rng.Float64()*20
		out := image.NewGray(img.Rect)
		for y := range r.H {
			for x := range r.W {
				// a 3-tap blur across, the paper's tone and grain
				a := float64(img.Pix[y*img.Stride+x])
				if x > 0 && x+1 < r.W {
					a = 0.25*float64(img.Pix[y*img.Stride+x-1]) + 0.5*a + 0.25*float64(img.Pix[y*img.Stride+x+1])
				}
				v := a*paper/255 + rng.NormFloat64()*7
				if rng.Float64() < 0.0004 {
					v = 40 // a speck
				}
				out.Pix[y*out.Stride+x] = uint8(min(max(v, 0), 255))
			}
		}
		img = out
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
