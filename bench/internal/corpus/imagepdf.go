package corpus

import (
	"bytes"
	"fmt"
)

// jpegPage is one page of an image PDF: a baseline JPEG drawn over the
// whole page.
type jpegPage struct {
	JPEG     []byte
	W, H     int  // pixels
	Gray     bool // DeviceGray, else DeviceRGB
	WPt, HPt float64
}

// imagePDF writes pages as a PDF whose pages each draw one DCTDecode
// image XObject, the way scanners and scanning apps store pages. It is
// written here rather than with engine/pdfout so the inputs do not come
// from the writer under test.
func imagePDF(pages []jpegPage) []byte {
	var b bytes.Buffer
	var offs []int
	obj := func(body string, stream []byte) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s", len(offs), body)
		if stream != nil {
			b.WriteString("\nstream\n")
			b.Write(stream)
			b.WriteString("\nendstream")
		}
		b.WriteString("\nendobj\n")
	}
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	kids := ""
	for i := range pages {
		kids += fmt.Sprintf(" %d 0 R", 3+3*i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s ] /Count %d >>", kids, len(pages)), nil)
	for i, p := range pages {
		n := 3 + 3*i
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>",
			p.WPt, p.HPt, n+1, n+2), nil)
		cs := "/DeviceRGB"
		if p.Gray {
			cs = "/DeviceGray"
		}
		obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>",
			p.W, p.H, cs, len(p.JPEG)), p.JPEG)
		content := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", p.WPt, p.HPt)
		obj(fmt.Sprintf("<< /Length %d >>", len(content)), []byte(content))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes()
}
