package mupdf

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// TestColourDecisionStable loads pages whose pictures are ICCBased sRGB
// images, each time from a freshly opened document (a fresh MuPDF
// context), and checks that the colour flag is the same every time and
// right: QualityHosting's logo is orange, cupertino's seal is gray.
// MuPDF's test device judged such images by uninitialised stack memory
// (its colour converter called with source and destination swapped), so
// the answer changed from one document to the next, with text extracted
// with ICC off (the default) or on alike.
func TestColourDecisionStable(t *testing.T) {
	dir := documentsDir(t)
	for _, icc := range []bool{false, true} {
		t.Run(fmt.Sprintf("stextICC=%v", icc), func(t *testing.T) {
			setStextICC(icc)
			defer setStextICC(false)
			colourDecisions(t, dir)
		})
	}
}

func colourDecisions(t *testing.T, dir string) {
	cases := []struct {
		file  string
		color []bool // per page
	}{
		{"invoices_invoice2data/QualityHosting.pdf", []bool{true, true}},
		{"pdf_public_records_pdfplumber/cupertino_usd_4-6-16.pdf", []bool{false}},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		for run := range 8 {
			d, err := OpenFile(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d.NumPages() != len(c.color) {
				t.Fatalf("%s: %d pages", c.file, d.NumPages())
			}
			for rep := range 2 {
				for i, want := range c.color {
					p, err := d.LoadPage(context.Background(), i)
					if err != nil {
						t.Fatal(err)
					}
					if p.Color() != want {
						t.Errorf("%s page %d (document %d, load %d): colour %v, want %v", c.file, i, run, rep, p.Color(), want)
					}
					p.Close()
				}
			}
			d.Close()
		}
	}
}

// cmykImagePDF is a one-page PDF drawing a 64 x 64 DeviceCMYK image,
// Flate-compressed, every pixel px.
func cmykImagePDF(px [4]byte) []byte {
	return imagePDF("/DeviceCMYK", bytes.Repeat(px[:], 64*64))
}

// imagePDF is a one-page PDF holding a 64x64 8-bit picture in colour space
// cs (PDF syntax), Flate-compressed.
func imagePDF(cs string, raw []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw)
	zw.Close()
	content := "q 200 0 0 200 50 50 cm /Im1 Do Q\n"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace %s /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", cs, z.Len(), z.String()),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

// TestCMYKImageColour: a DeviceCMYK picture takes the same path through
// MuPDF's test device as an ICCBased one (any colour space but DeviceRGB
// itself), so its page's flag was stack garbage too. Magenta is colour,
// black-only (K) ink is gray, on every fresh document.
func TestCMYKImageColour(t *testing.T) {
	for _, c := range []struct {
		name string
		px   [4]byte
		want bool
	}{
		{"magenta", [4]byte{0, 255, 0, 0}, true},
		{"gray K", [4]byte{0, 0, 0, 128}, false},
	} {
		data := cmykImagePDF(c.px)
		for run := range 8 {
			doc := openDoc(t, data, Options{})
			p := loadPage(t, doc, 0)
			if p.Color() != c.want {
				t.Errorf("%s image (document %d): colour %v, want %v", c.name, run, p.Color(), c.want)
			}
		}
	}
}

// TestImageColourSpaces: pictures in the other colour spaces a PDF can
// give an image (the palette of an Indexed one, spot colours through their
// tint transform, CIE Lab) go through rd_image_has_colour's conversion of
// the raw samples too, and are judged by their colours on every load; a
// space it could not convert would fail the page's load. (It passes on
// the code before that function as well: it guards the conversion, while
// TestCMYKImageColour and TestColourDecisionStable hold the bug.)
func TestImageColourSpaces(t *testing.T) {
	for _, c := range []struct {
		name, cs string
		raw      []byte
		want     bool
	}{
		{"indexed colour", "[/Indexed /DeviceRGB 1 <FF000000FF00>]", bytes.Repeat([]byte{0, 1}, 64*32), true},
		{"indexed gray", "[/Indexed /DeviceRGB 1 <808080404040>]", bytes.Repeat([]byte{0, 1}, 64*32), false},
		{"rgb colour", "/DeviceRGB", bytes.Repeat([]byte{255, 0, 0}, 64*64), true},
		{"separation", "[/Separation /Spot /DeviceRGB << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [1 0 0] /N 1 >>]", bytes.Repeat([]byte{200}, 64*64), true},
		{"devicen", "[/DeviceN [/A /B] /DeviceRGB << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0 0 1] /N 1 >>]", bytes.Repeat([]byte{200, 10}, 64*64), true},
		{"lab", "[/Lab << /WhitePoint [0.9505 1 1.089] >>]", bytes.Repeat([]byte{128, 200, 60}, 64*64), true},
	} {
		data := imagePDF(c.cs, c.raw)
		for run := range 4 {
			p := loadPage(t, openDoc(t, data, Options{}), 0)
			if p.Color() != c.want {
				t.Errorf("%s image (document %d): colour %v, want %v", c.name, run, p.Color(), c.want)
			}
		}
	}
}
