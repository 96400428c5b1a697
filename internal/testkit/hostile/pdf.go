package hostile

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"

	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// rawPDF assembles a PDF from object bodies written by hand, for the
// files no well-behaved writer (testpdf included) would produce.
type rawPDF struct {
	objs    [][]byte
	trailer string // extra trailer entries
}

// add appends an object and returns its number.
func (r *rawPDF) add(body string) int { return r.addBytes([]byte(body)) }

func (r *rawPDF) addBytes(body []byte) int {
	r.objs = append(r.objs, body)
	return len(r.objs)
}

// reserve appends a placeholder to be set later.
func (r *rawPDF) reserve() int { return r.addBytes(nil) }

func (r *rawPDF) set(n int, body string) { r.objs[n-1] = []byte(body) }

// stream appends a stream object whose dictionary holds dict plus a
// correct /Length.
func (r *rawPDF) stream(dict string, data []byte) int {
	return r.addBytes(streamObj(dict, fmt.Sprint(len(data)), data))
}

// streamObj is the body of a stream object with /Length length written
// as given (it may lie or be a reference).
func streamObj(dict, length string, data []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<< %s /Length %s >>\nstream\n", dict, length)
	b.Write(data)
	b.WriteString("\nendstream")
	return b.Bytes()
}

// bytes writes the file: header, objects, a correct xref table and a
// trailer with /Root root.
func (r *rawPDF) bytes(root int) []byte {
	b, _ := r.layout(root)
	return b
}

// layout is bytes that also returns each object's offset.
func (r *rawPDF) layout(root int) ([]byte, []int) {
	return testpdf.Assemble(r.objs, fmt.Sprintf("/Root %d 0 R%s", root, r.trailer))
}

// textContent is a page content stream drawing lines of Helvetica at
// 12pt from the top of a Letter page.
func textContent(lines ...string) []byte {
	var b bytes.Buffer
	b.WriteString("BT /F1 12 Tf 14 TL 72 720 Td\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "(%s) Tj T*\n", pdfEscape(l))
	}
	b.WriteString("ET\n")
	return b.Bytes()
}

func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// sampleLines is the text hostile PDFs carry besides their hostility, with
// an e-mail address and a phone number for detection to find.
var sampleLines = []string{
	"Hostile input test page",
	"Contact Jane Doe at jane.doe@example.com",
	"or call +1 415 555 0134 before 12 March 2024.",
}

// pdfDoc is a minimal one-font document under construction: catalog,
// page tree and Helvetica are allocated up front; pages are added with
// page. Callers may add anything else to r and catalog entries to cat.
type pdfDoc struct {
	r                    rawPDF
	catalog, pages, font int
	kids                 []string
	cat                  string // extra catalog entries
	pagesExtra           string // extra page tree entries
}

func newPDFDoc() *pdfDoc {
	d := &pdfDoc{}
	d.catalog = d.r.reserve()
	d.pages = d.r.reserve()
	d.font = d.r.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	return d
}

// page adds a page with MediaBox box (PDF syntax, e.g. "[0 0 612 792]"),
// content stream content and extra page dictionary entries.
func (d *pdfDoc) page(box string, content []byte, extra string) int {
	c := d.r.stream("", content)
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >>%s >>",
		d.pages, box, c, d.font, extra))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return p
}

// textPage adds a Letter page with the sample text and extra entries.
func (d *pdfDoc) textPage(extra string) int {
	return d.page(letter, textContent(sampleLines...), extra)
}

const letter = "[0 0 612 792]"

func (d *pdfDoc) bytes() []byte {
	d.r.set(d.catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R%s >>", d.pages, d.cat))
	d.r.set(d.pages, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d%s >>",
		strings.Join(d.kids, " "), len(d.kids), d.pagesExtra))
	return d.r.bytes(d.catalog)
}

// zlibBytes compresses b.
func zlibBytes(b []byte) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(b) // a bytes.Buffer does not fail
	w.Close()
	return z.Bytes()
}
