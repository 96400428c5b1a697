package pdfout

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// buildPDF assembles a file from object bodies (object i+1 is objs[i]),
// with a correct xref table, so each crafted file below is wrong in one
// way only. Bodies are everything between "N 0 obj\n" and "\nendobj\n".
func buildPDF(objs []string, trailerExtra string) []byte {
	var b bytes.Buffer
	b.WriteString(Header)
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailerExtra, xref)
	return b.Bytes()
}

func stream(dict, data string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// A valid one-page file: 1 catalog, 2 pages, 3 page, 4 content, 5 image.
const (
	goodCatalog = "<< /Type /Catalog /Pages 2 0 R >>"
	goodPages   = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
	goodPage    = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>"
	goodContent = "q 10 0 0 10 0 0 cm /Im0 Do Q"
	goodImgDict = "/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent 8 /Columns 1 >>"
	goodImgData = "\x78\x01\x63\x60\x00\x00\x00\x02\x00\x01"
)

func goodObjs() []string {
	return []string{goodCatalog, goodPages, goodPage, stream("", goodContent), stream(goodImgDict, goodImgData)}
}

func with(i int, body string) []string {
	o := goodObjs()
	o[i] = body
	return o
}

func verifyBytes(b []byte) error { return Verify(bytes.NewReader(b), int64(len(b))) }

func TestVerifyAcceptsBuiltFile(t *testing.T) {
	// The crafted cases below are only meaningful if the unmodified
	// builder output passes.
	if err := verifyBytes(buildPDF(goodObjs(), "")); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyRejects(t *testing.T) {
	good := buildPDF(goodObjs(), "")
	ours := writeSample(t)
	update := "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 6 /Root 1 0 R /Prev 9 >>\nstartxref\n9\n%%EOF\n"
	for _, c := range []struct {
		name string
		pdf  []byte
		want string
	}{
		{"info in trailer", buildPDF(goodObjs(), " /Info 1 0 R"), "/Info"},
		{"id in trailer", buildPDF(goodObjs(), " /ID [1 2]"), "/ID"},
		{"font resource", buildPDF(with(2, strings.Replace(goodPage, "/XObject", "/Font << /F1 4 0 R >> /XObject", 1)), ""), "/Font"},
		{"text operators", buildPDF(with(3, stream("", "BT 1 0 0 1 5 5 Tm ET "+goodContent)), ""), "text operator BT"},
		{"text string", buildPDF(with(3, stream("", "(secret) Tj")), ""), "string"},
		{"other operator", buildPDF(with(3, stream("", "0 0 m 5 5 l S "+goodContent)), ""), "operator m"},
		{"draws unknown image", buildPDF(with(3, stream("", "q /Im1 Do Q")), ""), "not among the page's images"},
		{"two EOF (incremental update)", append(append([]byte(nil), ours...), update...), "incremental update"},
		{"two EOF in built file", append(append([]byte(nil), good...), update...), "incremental update"},
		{"trailing junk", append(append([]byte(nil), good...), "garbage"...), "trailing data"},
		{"annotations", buildPDF(with(2, strings.Replace(goodPage, "/Contents", "/Annots [] /Contents", 1)), ""), "/Annots"},
		{"metadata", buildPDF(with(0, "<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>"), ""), "/Metadata"},
		{"open action", buildPDF(with(0, "<< /Type /Catalog /Pages 2 0 R /OpenAction [3 0 R] >>"), ""), "/OpenAction"},
		{"javascript", buildPDF(with(0, "<< /Type /Catalog /Pages 2 0 R /Names << /JavaScript 4 0 R >> >>"), ""), "/Names"},
		{"js action", buildPDF(with(2, strings.Replace(goodPage, "/Contents", "/AA << /O << /S /JavaScript /JS 4 0 R >> >> /Contents", 1)), ""), "/AA"},
		{"uri", buildPDF(with(2, strings.Replace(goodPage, "/Contents", "/URI /x /Contents", 1)), ""), "/URI"},
		{"acroform", buildPDF(with(0, "<< /Type /Catalog /Pages 2 0 R /AcroForm << >> >>"), ""), "/AcroForm"},
		{"embedded file", buildPDF(append(goodObjs(), stream("/Type /EmbeddedFile", "hello")), ""), "/EmbeddedFile"},
		{"unreferenced object", buildPDF(append(goodObjs(), "<< /Type /Page >>"), ""), "not part of any page"},
		{"hex string", buildPDF(with(0, "<< /Type /Catalog /Pages 2 0 R /Lang <656e> >>"), ""), "hex string"},
		{"escaped name", buildPDF(with(0, "<< /Type /Catalog /Pages 2 0 R /J#53 1 >>"), ""), "escaped name"},
		{"unknown key", buildPDF(with(0, "<< /Type /Catalog /Pages 2 0 R /Lang 1 >>"), ""), "unexpected key /Lang"},
		{"image mask", buildPDF(with(4, stream(goodImgDict+" /SMask 3 0 R", goodImgData)), ""), "unexpected key /SMask"},
		{"jpx image", buildPDF(with(4, stream(strings.Replace(goodImgDict, "FlateDecode", "JPXDecode", 1), goodImgData)), ""), "/Filter"},
		{"not zlib", buildPDF(with(4, stream(goodImgDict, "hello")), ""), "not zlib"},
		{"shared image", buildPDF(with(3, stream("", goodContent)), "")[:0], ""}, // placeholder, replaced below
		{"wrong length", []byte(strings.Replace(string(good), "/Length 28", "/Length 27", 1)), "Length"},
		{"xref offset", []byte(strings.Replace(string(good), "0000000015 00000 n", "0000000016 00000 n", 1)), "xref entry 1"},
		{"comment", []byte(strings.Replace(string(good), "2 0 obj", "%%EOF\n2 0 obj", 1)), "comment"},
		{"truncated", good[:len(good)-30], ""},
		{"not a pdf", []byte("GIF89a"), "header"},
		{"empty", nil, "header"},
	} {
		if c.name == "shared image" {
			continue
		}
		err := verifyBytes(c.pdf)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !errors.Is(err, ErrUnsafe) {
			t.Errorf("%s: %v does not wrap ErrUnsafe", c.name, err)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not mention %q", c.name, err, c.want)
		}
	}
}

func TestVerifyRejectsSharedObjects(t *testing.T) {
	// Two pages drawing one image: we never write that, so it is refused.
	objs := goodObjs()
	objs[1] = "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>"
	objs = append(objs, strings.Replace(goodPage, "/Contents 4 0 R", "/Contents 7 0 R", 1), stream("", goodContent))
	err := verifyBytes(buildPDF(objs, ""))
	if err == nil || !strings.Contains(err.Error(), "used again") {
		t.Fatalf("error %v", err)
	}
}

// writeSample is a two-page file from the real writer.
func writeSample(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*struct{ w, h, ch int }{{20, 10, 3}, {7, 9, 1}} {
		if _, err := w.AddPage(noiseRaster(r.w, r.h, r.ch, 1), float64(r.w), float64(r.h)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestVerifyAcceptsCRLFEOF(t *testing.T) {
	b := writeSample(t)
	b = append(b[:len(b)-1], '\r', '\n')
	if err := verifyBytes(b); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyEveryByteFlip flips the lowest bit of each byte of a small
// file in turn: Verify must never panic, and it must notice every change
// except in pixel data, in the numbers of the page size and drawing matrix
// (a different page size is still a clean file) and in whitespace.
func TestVerifyEveryByteFlip(t *testing.T) {
	good := buildPDF(goodObjs(), "")
	var benign [][2]int
	for _, s := range []string{goodImgData[2:], goodContent, "[0 0 10 10]"} {
		i := bytes.Index(good, []byte(s))
		benign = append(benign, [2]int{i, i + len(s)})
	}
	caught := 0
	for i := range good {
		b := append([]byte(nil), good...)
		b[i] ^= 0x01
		err := verifyBytes(b)
		if err != nil {
			caught++
			continue
		}
		ok := isSpace(good[i]) && isSpace(b[i])
		for _, r := range benign {
			if i >= r[0] && i < r[1] && (good[i] >= '0' && good[i] <= '9' || r[0] == benign[0][0]) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("flip at %d (%q -> %q) accepted", i, good[i], b[i])
		}
	}
	t.Logf("%d of %d flips rejected", caught, len(good))
}
