// Package pictures generates documents whose personal data a reader sees
// without reading (issue 47): photos of faces on an ID card, a letter and a
// form at several sizes and tilts, and codes (QR, Data Matrix, Code 128,
// EAN-13) that hold personal data or do not. Each case says what must be
// masked, in page points, so a test can measure recall per category on the
// pipeline's masks and read the output's pixels.
//
// The photos are public domain (NASA) and CC0, from Debian's
// python3-skimage (photos/README.md).
package pictures

import (
	"bytes"
	_ "embed"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/boombuler/barcode/pdf417"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
	xdraw "golang.org/x/image/draw"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

//go:embed photos/astronaut.jpg
var astronautJPEG []byte

//go:embed photos/camera.jpg
var cameraJPEG []byte

// AstronautHead is the astronaut's head (hair to chin, ear to ear) in the
// 512 x 512 photo, drawn by hand.
var AstronautHead = image.Rect(150, 12, 305, 192)

// CameraHead is the cameraman's head in the 512 x 512 photo, drawn by
// hand; he looks into the viewfinder, turned well away from the viewer.
var CameraHead = image.Rect(155, 62, 262, 198)

// Astronaut is the astronaut photo (512 x 512, RGB).
func Astronaut() image.Image { return mustJPEG(astronautJPEG) }

// Camera is the cameraman photo (512 x 512, gray).
func Camera() image.Image { return mustJPEG(cameraJPEG) }

func mustJPEG(b []byte) image.Image {
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		panic(err)
	}
	return img
}

// Target is something that must be masked: its box in page points
// (display space) and its category.
type Target struct {
	Box      page.Rect
	Category page.Category
	// Hard: beyond what the detector claims (a face turned well away);
	// counted apart.
	Hard bool
}

// Case is one document of the corpus.
type Case struct {
	Name string
	// Doc is a PDF, or a PNG when PNG is true (a scanned page as an image
	// file).
	Doc []byte
	PNG bool
	// Masked must be masked; Kept are codes that hold nothing personal
	// and must stay.
	Masked, Kept []Target
}

// Rotate turns img by deg degrees about its centre onto a white square
// of the same size (nearest pixel).
func Rotate(img image.Image, deg float64) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	s, c := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(w)/2, float64(h)/2
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := int(c*dx+s*dy+cx), int(-s*dx+c*dy+cy)
			if sx >= 0 && sy >= 0 && sx < w && sy < h {
				out.Set(x, y, img.At(b.Min.X+sx, b.Min.Y+sy))
			} else {
				out.Set(x, y, color.White)
			}
		}
	}
	return out
}

// photo is a photo with its head box.
type photo struct {
	name string
	img  image.Image
	head image.Rectangle
	hard bool
}

func photos() []photo {
	return []photo{
		{"astronaut", Astronaut(), AstronautHead, false},
		{"astronaut-mirrored", mirror(Astronaut()), mirrorRect(AstronautHead, 512), false},
		{"camera", Camera(), CameraHead, true},
	}
}

func mirror(img image.Image) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			out.Set(b.Dx()-1-x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}

func mirrorRect(r image.Rectangle, w int) image.Rectangle {
	return image.Rect(w-r.Max.X, r.Min.Y, w-r.Min.X, r.Max.Y)
}

// headTarget maps a photo's head box (its pixels, photo of side px drawn
// at (x, y) user space, side pt, on page p) to display points, the
// box's corners turned with the photo by deg about its centre (the box
// around them).
func headTarget(p *testpdf.Page, x, y, side float64, px int, head image.Rectangle, deg float64, hard bool) Target {
	s := side / float64(px)
	c := float64(px) / 2
	sn, cs := math.Sincos(-deg * math.Pi / 180)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, pt := range [][2]float64{{float64(head.Min.X), float64(head.Min.Y)}, {float64(head.Max.X), float64(head.Min.Y)}, {float64(head.Min.X), float64(head.Max.Y)}, {float64(head.Max.X), float64(head.Max.Y)}} {
		dx, dy := pt[0]-c, pt[1]-c
		rx, ry := cs*dx+sn*dy+c, -sn*dx+cs*dy+c
		x0, y0, x1, y1 = min(x0, rx), min(y0, ry), max(x1, rx), max(y1, ry)
	}
	// Image pixels run top-down from the image's top edge, y+side.
	r := p.RectToDisplay([4]float64{x + x0*s, y + side - y1*s, x + x1*s, y + side - y0*s})
	return Target{Box: r, Category: page.Face, Hard: hard}
}

// Lines of ordinary text around the pictures.
var body = []string{
	"The committee reviewed the enclosed material and approved the minutes.",
	"Please keep this document with the records of the current year.",
	"Questions about this notice may be sent to the office named above.",
}

// Corpus builds the corpus.
func Corpus() ([]Case, error) {
	var out []Case
	add := func(c Case, err error) error {
		if err != nil {
			return fmt.Errorf("pictures: %s: %w", c.Name, err)
		}
		out = append(out, c)
		return nil
	}
	for _, ph := range photos() {
		for _, side := range []float64{60, 90, 140, 220} {
			for _, deg := range []float64{0, -15, 15} {
				if (side == 60 || ph.hard) && deg != 0 {
					continue // the smallest size, and the turned head, upright only
				}
				img := ph.img
				if deg != 0 {
					img = Rotate(img, deg)
				}
				for _, layout := range []string{"letter", "idcard", "form"} {
					name := fmt.Sprintf("face-%s-%s-%gpt-%+gdeg", ph.name, layout, side, deg)
					c := facePage(name, layout, img, ph, side, deg)
					if err := add(c, nil); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	codes, err := codeCases()
	if err != nil {
		return nil, err
	}
	out = append(out, codes...)
	scan, err := scanCase()
	if err := add(scan, err); err != nil {
		return nil, err
	}
	return out, nil
}

// facePage lays a photo on a letter (photo at the top right, text
// below), an ID card (a card of 242 x 153 pt framed on the page, the photo
// on its left, the holder's fields beside it), or a form (a photo box in
// a grid of fields).
func facePage(name, layout string, img image.Image, ph photo, side, deg float64) Case {
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	var x, y float64
	switch layout {
	case "letter":
		x, y = 612-72-side, 792-72-side
		for i, l := range body {
			p.Text(72, 600-float64(i)*16, 11, l)
		}
		p.Text(72, 720, 12, "Dear colleague,")
	case "idcard":
		// The card's frame and fields; the photo inside on the left.
		cw, ch := max(242.0, side+160), max(153.0, side+50)
		cx, cy := 72.0, 792-72-ch
		p.FillRect([4]float64{cx, cy, cx + cw, cy + ch}, 0.92)
		x, y = cx+12, cy+ch-12-side
		p.Text(x+side+12, cy+ch-24, 9, "IDENTITY CARD")
		p.Text(x+side+12, cy+ch-40, 8, "Surname / Given names")
		p.Text(x+side+12, cy+ch-54, 8, "Nationality / Date of birth")
	case "form":
		x, y = 72, 792-144-side
		p.FillRect([4]float64{x - 2, y - 2, x + side + 2, y + side + 2}, 0.2)
		p.FillRect([4]float64{x, y, x + side, y + side}, 1)
		p.Text(x, y-14, 8, "Photo (35 x 45 mm)")
		for i := range 5 {
			p.Text(x+side+24, y+side-float64(i)*20, 10, fmt.Sprintf("Field %d: ____________________", i+1))
		}
	}
	p.Image(x, y, side, side, img)
	t := headTarget(p, x, y, side, img.Bounds().Dx(), ph.head, deg, ph.hard)
	return Case{Name: name, Doc: d.Bytes(), Masked: []Target{t}}
}

// A code to place: its content, whether that content is personal data,
// its format and its printed size.
type codeSpec struct {
	name     string
	text     string
	pii      bool
	format   gozxing.BarcodeFormat
	w, h     float64 // points
	scramble bool    // a QR code whose data modules are scrambled: found, not decoded
}

var codeSpecs = []codeSpec{
	{"qr-mecard", "MECARD:N:Doe,Jane;TEL:+442079460958;EMAIL:jane.doe@example.org;;", true, gozxing.BarcodeFormat_QR_CODE, 72, 72, false},
	{"qr-vcard", "BEGIN:VCARD\nVERSION:3.0\nFN:Jane Doe\nEMAIL:jane.doe@example.org\nEND:VCARD", true, gozxing.BarcodeFormat_QR_CODE, 96, 96, false},
	{"qr-epc-iban", "BCD\n002\n1\nSCT\n\nJane Doe\nDE89370400440532013000\nEUR12.50", true, gozxing.BarcodeFormat_QR_CODE, 80, 80, false},
	{"qr-email-small", "mailto:jane.doe@example.org", true, gozxing.BarcodeFormat_QR_CODE, 40, 40, false},
	{"qr-url", "https://example.org/products/1234", false, gozxing.BarcodeFormat_QR_CODE, 72, 72, false},
	{"qr-ticket", "TICKET 48213 ROW 12 SEAT 7", false, gozxing.BarcodeFormat_QR_CODE, 60, 60, false},
	{"qr-damaged", "MECARD:N:Doe,Jane;EMAIL:jane.doe@example.org;;", true, gozxing.BarcodeFormat_QR_CODE, 80, 80, true},
	{"datamatrix-phone", "Jane Doe +44 20 7946 0958", true, gozxing.BarcodeFormat_DATA_MATRIX, 54, 54, false},
	{"datamatrix-lot", "LOT 2026-117 QTY 40", false, gozxing.BarcodeFormat_DATA_MATRIX, 54, 54, false},
	{"code128-iban", "GB29NWBK60161331926819", true, gozxing.BarcodeFormat_CODE_128, 220, 50, false},
	{"code128-order", "ORDER 55120", false, gozxing.BarcodeFormat_CODE_128, 160, 40, false},
	{"ean13-product", "4006381333931", false, gozxing.BarcodeFormat_EAN_13, 120, 60, false},
	// A driving licence's PDF417 (AAMVA fields: name, birth date, address).
	{"pdf417-licence", "@\n\x1e\rANSI 636014040002DL00410278ZC03190008DLDAQD1234562\nDCSDOE\nDACJANE\nDBB04151986\nDAG2600 MAIN ST\nDAISACRAMENTO\nDAJCA\nDAK958180000",
		true, gozxing.BarcodeFormat_PDF_417, 230, 60, false},
}

// codeImage draws a code's modules with a 4-module quiet zone, pixels of
// px device pixels per module-ish size w x h.
func codeImage(c codeSpec, w, h int) (*image.Gray, error) {
	if c.format == gozxing.BarcodeFormat_PDF_417 {
		return pdf417Image(c.text, w, h)
	}
	var wr gozxing.Writer
	switch c.format {
	case gozxing.BarcodeFormat_QR_CODE:
		wr = qrcode.NewQRCodeWriter()
	case gozxing.BarcodeFormat_DATA_MATRIX:
		wr = datamatrix.NewDataMatrixWriter()
	case gozxing.BarcodeFormat_CODE_128:
		wr = oned.NewCode128Writer()
	case gozxing.BarcodeFormat_EAN_13:
		wr = oned.NewEAN13Writer()
	}
	m, err := wr.Encode(c.text, c.format, w, h, nil)
	if err != nil {
		return nil, err
	}
	img := image.NewGray(image.Rect(0, 0, m.GetWidth(), m.GetHeight()))
	for y := 0; y < m.GetHeight(); y++ {
		for x := 0; x < m.GetWidth(); x++ {
			if !m.Get(x, y) {
				img.Pix[y*img.Stride+x] = 255
			}
		}
	}
	if c.scramble {
		scrambleQR(img)
	}
	return img, nil
}

// pdf417Image draws a PDF417 symbol of text (boombuler/barcode's
// encoder, error correction level 2) stretched over w x h pixels less a
// quiet zone of a twentieth of each side, antialiased at module edges.
func pdf417Image(text string, w, h int) (*image.Gray, error) {
	bc, err := pdf417.Encode(text, 2)
	if err != nil {
		return nil, err
	}
	b := bc.Bounds()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	mx, my := w/20, h/20
	sw, sh := float64(w-2*mx), float64(h-2*my)
	for j := 0; j < h-2*my; j++ {
		for i := 0; i < w-2*mx; i++ {
			sum := 0
			for _, d := range [4][2]float64{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
				x := b.Min.X + int((float64(i)+d[0])*float64(b.Dx())/sw)
				y := b.Min.Y + int((float64(j)+d[1])*float64(b.Dy())/sh)
				if v, _, _, _ := bc.At(min(x, b.Max.X-1), min(y, b.Max.Y-1)).RGBA(); v > 0x7fff {
					sum += 255
				}
			}
			img.Pix[(my+j)*img.Stride+mx+i] = uint8(sum / 4)
		}
	}
	return img, nil
}

// scrambleQR inverts the modules of a QR code's data area (its middle
// third both ways), leaving its three finder patterns: the code is found
// but its content does not decode.
func scrambleQR(img *image.Gray) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	for y := h * 2 / 5; y < h*3/5; y++ {
		for x := w / 4; x < w*3/4; x++ {
			img.Pix[y*img.Stride+x] = 255 - img.Pix[y*img.Stride+x]
		}
	}
}

// codeCases: each code alone on a letter, as an image, once at its size
// and once at 1.5 times; and one page holding every code.
func codeCases() ([]Case, error) {
	var out []Case
	for _, k := range []float64{1, 1.5} {
		for _, c := range codeSpecs {
			d := testpdf.New()
			p := d.AddPage(612, 792, 0)
			for i, l := range body {
				p.Text(72, 700-float64(i)*16, 11, l)
			}
			w, h := c.w*k, c.h*k
			// Rendered at 150 dpi: draw the code at about that resolution.
			img, err := codeImage(c, int(w*150/72), int(h*150/72))
			if err != nil {
				return nil, fmt.Errorf("pictures: %s: %w", c.name, err)
			}
			x, y := 200.0, 400.0
			p.Image(x, y, w, h, img)
			// The target is the code's ink, its quiet zone left out.
			ink := inkBounds(img)
			sx, sy := w/float64(img.Bounds().Dx()), h/float64(img.Bounds().Dy())
			t := Target{Box: p.RectToDisplay([4]float64{x + float64(ink.Min.X)*sx, y + h - float64(ink.Max.Y)*sy, x + float64(ink.Max.X)*sx, y + h - float64(ink.Min.Y)*sy}), Category: page.Barcode}
			cs := Case{Name: fmt.Sprintf("code-%s-x%g", c.name, k), Doc: d.Bytes()}
			if c.pii {
				cs.Masked = append(cs.Masked, t)
			} else {
				cs.Kept = append(cs.Kept, t)
			}
			out = append(out, cs)
		}
	}
	// A shipping label: three codes in one image with text beside them.
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	label := image.NewGray(image.Rect(0, 0, 900, 500))
	for i := range label.Pix {
		label.Pix[i] = 255
	}
	cs := Case{Name: "code-label-three"}
	for i, ci := range []int{0, 7, 10} {
		c := codeSpecs[ci]
		img, err := codeImage(c, 240, 240)
		if err != nil {
			return nil, err
		}
		at := image.Pt(20+i*300, 120)
		if c.format == gozxing.BarcodeFormat_CODE_128 {
			img, _ = codeImage(c, 280, 100)
			at = image.Pt(20+i*300, 200)
		}
		xdraw.Copy(label, at, img, img.Bounds(), xdraw.Src, nil)
		b := inkBounds(img).Add(at)
		// The label is drawn 432 x 240 pt: 0.48 pt per pixel.
		s := 432.0 / 900
		t := Target{Box: p.RectToDisplay([4]float64{90 + float64(b.Min.X)*s, 400 + float64(500-b.Max.Y)*s, 90 + float64(b.Max.X)*s, 400 + float64(500-b.Min.Y)*s}), Category: page.Barcode}
		if c.pii {
			cs.Masked = append(cs.Masked, t)
		} else {
			cs.Kept = append(cs.Kept, t)
		}
	}
	p.Image(90, 400, 432, 240, label)
	cs.Doc = d.Bytes()
	out = append(out, cs)
	return out, nil
}

// scanCase is an ID card scanned as a PNG at 150 dpi: the astronaut's
// photo and a QR code holding her contact on a gray card.
func scanCase() (Case, error) {
	img := image.NewRGBA(image.Rect(0, 0, 1275, 800))
	for i := range img.Pix {
		img.Pix[i] = 235
	}
	photo := image.NewRGBA(image.Rect(0, 0, 300, 300))
	xdraw.CatmullRom.Scale(photo, photo.Bounds(), Astronaut(), image.Rect(0, 0, 512, 512), xdraw.Src, nil)
	at := image.Pt(80, 120)
	xdraw.Copy(img, at, photo, photo.Bounds(), xdraw.Src, nil)
	qr, err := codeImage(codeSpecs[0], 220, 220)
	if err != nil {
		return Case{Name: "scan-idcard"}, err
	}
	qat := image.Pt(900, 400)
	xdraw.Copy(img, qat, qr, qr.Bounds(), xdraw.Src, nil)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Case{Name: "scan-idcard"}, err
	}
	// Targets in the PNG's pixels; ScaleScan maps them to the page's
	// points.
	pt := func(r image.Rectangle) page.Rect {
		return page.Rect{X0: float64(r.Min.X), Y0: float64(r.Min.Y), X1: float64(r.Max.X), Y1: float64(r.Max.Y)}
	}
	s := 300.0 / 512
	head := image.Rect(at.X+int(float64(AstronautHead.Min.X)*s), at.Y+int(float64(AstronautHead.Min.Y)*s), at.X+int(float64(AstronautHead.Max.X)*s), at.Y+int(float64(AstronautHead.Max.Y)*s))
	return Case{Name: "scan-idcard", Doc: buf.Bytes(), PNG: true, Masked: []Target{
		{Box: pt(head), Category: page.Face},
		{Box: pt(inkBounds(qr).Add(qat)), Category: page.Barcode},
	}}, nil
}

// ScaleScan maps a target of the scan case, in the PNG's pixels, to page
// points, given the page's width in points.
func ScaleScan(t Target, pageWidthPt float64) Target {
	s := pageWidthPt / 1275
	t.Box = page.Rect{X0: t.Box.X0 * s, Y0: t.Box.Y0 * s, X1: t.Box.X1 * s, Y1: t.Box.Y1 * s}
	return t
}

// inkBounds is the box of img's dark pixels (under 128).
func inkBounds(img *image.Gray) image.Rectangle {
	r := image.Rectangle{}
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.GrayAt(x, y).Y < 128 {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}
