package visual_test

import (
	"image"
	"image/color"
	"math/rand"
	"testing"

	"github.com/boombuler/barcode/pdf417"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"

	. "github.com/redactd/redactd/engine/visual"
	"github.com/redactd/redactd/internal/testkit/hostile/pictures"
)

// pdf417Image draws a PDF417 symbol of text with modules px pixels wide
// (rows three modules high) at (x, y) of a white w x h page, and returns
// the page and the symbol's box.
func pdf417Image(t *testing.T, text string, px float64, w, h, x, y int) (*image.Gray, Box) {
	t.Helper()
	bc, err := pdf417.Encode(text, 2)
	if err != nil {
		t.Fatal(err)
	}
	b := bc.Bounds()
	// boombuler draws rows two pixels high: 1.5 of them make three modules.
	sw, sh := int(float64(b.Dx())*px), int(float64(b.Dy())*px*1.5)
	page := image.NewGray(image.Rect(0, 0, w, h))
	for i := range page.Pix {
		page.Pix[i] = 255
	}
	// Each pixel takes the module under its centre, antialiased at the
	// module's edges by averaging four samples.
	for j := 0; j < sh; j++ {
		for i := 0; i < sw; i++ {
			sum := 0
			for _, d := range [4][2]float64{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
				mx := b.Min.X + int((float64(i)+d[0])/px)
				my := b.Min.Y + int((float64(j)+d[1])/(px*1.5))
				if c, _, _, _ := bc.At(min(mx, b.Max.X-1), min(my, b.Max.Y-1)).RGBA(); c > 0x7fff {
					sum += 255
				}
			}
			page.Pix[(y+j)*page.Stride+x+i] = uint8(sum / 4)
		}
	}
	return page, Box{X0: x, Y0: y, X1: x + sw, Y1: y + sh}
}

// TestFindPDF417: a driving-licence PDF417 is found at 1.5 to 4 pixels a
// module, on clean paper, with scan noise and turned a degree, and the box
// covers the whole symbol; a page of text, a QR code, a Code 128 and a
// photo give none.
func TestFindPDF417(t *testing.T) {
	const licence = "@\n\x1e\rANSI 636014040002DL00410278ZC03190008DLDAQD1234562\nDCSDOE\nDACJANE\nDBB04151986\nDAG2600 MAIN ST\nDAISACRAMENTO\nDAJCA\nDAK958180000"
	for _, px := range []float64{1.5, 2, 3, 4} {
		for _, variant := range []string{"clean", "noisy", "turned"} {
			page, want := pdf417Image(t, licence, px, 1400, 900, 120, 200)
			switch variant {
			case "noisy":
				r := rand.New(rand.NewSource(int64(px * 10)))
				for i := range page.Pix {
					v := int(page.Pix[i]) + r.Intn(61) - 30
					page.Pix[i] = uint8(min(max(v, 0), 255))
				}
			case "turned":
				page = gray(pictures.Rotate(page, 1), 1)
			}
			got := FindPDF417(page)
			if len(got) != 1 {
				t.Errorf("%g px a module, %s: %d symbols found, want 1: %+v", px, variant, len(got), got)
				continue
			}
			in := want
			if variant == "turned" {
				// A degree moves the corners by up to 1/57 of the
				// page's half diagonal: test the inner part.
				in = Box{want.X0 + 12, want.Y0 + 12, want.X1 - 12, want.Y1 - 12}
			}
			if !covers(got[0], in) {
				t.Errorf("%g px a module, %s: box %+v does not cover the symbol %+v", px, variant, got[0], in)
			}
			if g := got[0]; g.X1-g.X0 > (want.X1-want.X0)*13/10 || g.Y1-g.Y0 > (want.Y1-want.Y0)*13/10+24 {
				t.Errorf("%g px a module, %s: box %+v much larger than the symbol %+v", px, variant, g, want)
			}
		}
	}

	// Other ink finds none.
	others := map[string]*image.Gray{"photo": gray(pictures.Astronaut(), 1)}
	for name, enc := range map[string]struct {
		w gozxing.Writer
		f gozxing.BarcodeFormat
	}{"qr": {qrcode.NewQRCodeWriter(), gozxing.BarcodeFormat_QR_CODE}, "code128": {oned.NewCode128Writer(), gozxing.BarcodeFormat_CODE_128}} {
		m, err := enc.w.Encode("GB29NWBK60161331926819", enc.f, 400, 200, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := image.NewGray(image.Rect(0, 0, m.GetWidth(), m.GetHeight()))
		for y := 0; y < m.GetHeight(); y++ {
			for x := 0; x < m.GetWidth(); x++ {
				if !m.Get(x, y) {
					g.SetGray(x, y, color.Gray{255})
				}
			}
		}
		others[name] = g
	}
	for name, g := range others {
		if got := FindPDF417(g); len(got) != 0 {
			t.Errorf("%s: found PDF417 %+v", name, got)
		}
	}
}
