package pipeline

import (
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// vectorQR draws text as a QR code of filled rectangles, one a dark
// module, side points wide with its lower left corner at (x, y), and
// returns the code's box in display space (quiet zone left out).
func vectorQR(t *testing.T, p *testpdf.Page, text string, x, y, side float64) page.Rect {
	t.Helper()
	m, err := qrcode.NewQRCodeWriter().Encode(text, gozxing.BarcodeFormat_QR_CODE, 1, 1, map[gozxing.EncodeHintType]interface{}{gozxing.EncodeHintType_MARGIN: 0})
	if err != nil {
		t.Fatal(err)
	}
	n := float64(m.GetWidth())
	mod := side / n
	for j := 0; j < m.GetHeight(); j++ {
		for i := 0; i < m.GetWidth(); i++ {
			if m.Get(i, j) {
				x0, y1 := x+float64(i)*mod, y+side-float64(j)*mod
				p.FillRect([4]float64{x0, y1 - mod, x0 + mod, y1}, 0)
			}
		}
	}
	return p.RectToDisplay([4]float64{x, y, x + side, y + side})
}

// TestVectorCodes: a payment slip whose QR codes are drawn as vector
// rectangles, as QR bills and invoice generators draw them, with no image
// on the page. The code holding a name and an IBAN is masked (Barcode);
// the code holding a plain URL stays readable. The codes are found in the
// ink no text-layer word explains, which OCR's ink analysis hands to the
// visual stage (drawnRegions).
func TestVectorCodes(t *testing.T) {
	full := sharedFullPipeline(t)
	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 780, 14, "Payment slip")
	p.Text(72, 750, 10, "Scan the code on the right with your banking app to pay this invoice.")
	p.Text(72, 735, 10, "Our terms are on the site the other code opens.")
	pii := vectorQR(t, p, "BCD\n002\n1\nSCT\n\nJane Doe\nDE89370400440532013000\nEUR12.50", 380, 560, 110)
	clean := vectorQR(t, p, "https://example.org/terms", 120, 560, 90)
	m, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := processWith(t, full, full.deps.OCR, m, d.Bytes())
	if c := covered(pii, r.res.Masks, page.Barcode); c < 0.9 {
		t.Errorf("the payment code is %.2f covered by Barcode masks, want 0.9; masks: %+v", c, r.res.Masks)
	}
	if c := covered(clean, r.res.Masks, page.Barcode); c > 0 {
		t.Errorf("the plain URL's code is %.2f covered by Barcode masks, want none", c)
	}
}
