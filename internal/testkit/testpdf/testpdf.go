// Package testpdf writes small PDFs with known content for tests: text in
// Helvetica at known positions, AcroForm text fields, FreeText
// annotations, RGB images and, optionally, RC4 encryption.
//
// Every word it draws is recorded with its box in MuPDF's display space
// (points, origin top-left of the page as shown, /Rotate applied), so a
// test can assert both that a word was extracted and where it is.
// Boxes span Helvetica's AFM ascender and descender vertically and the
// AFM advance widths horizontally.
//
// The package is pure Go and meant for tests and benchmarks only.
package testpdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/redactd/redactd/engine/page"
)

// Doc is a PDF under construction.
type Doc struct {
	pages           []*Page
	needAppearances bool
	enc             *encryption
}

// New returns an empty document.
func New() *Doc { return &Doc{} }

// Page is one page of a Doc.
type Page struct {
	doc *Doc
	// W and H are the MediaBox size in points; Rotate is /Rotate.
	W, H   float64
	Rotate int
	x0, y0 float64 // MediaBox (or CropBox) lower-left corner
	// media, when set, is a MediaBox larger than the page as shown, whose
	// CropBox is the W x H box at (x0, y0).
	media *[4]float64

	content bytes.Buffer
	images  []image.Image
	fields  []field
	annots  []freeText
	words   []Word
	regions []page.Rect
}

// Word is a word drawn on a page, with its box in display space.
type Word struct {
	Text   string
	Quad   page.Quad
	Source page.Source
}

type field struct {
	name, value string
	rect        [4]float64
	ap          apKind
	size        float64
}

// apKind is what appearance stream a field gets.
type apKind uint8

const (
	apValue apKind = iota // shows the value
	apNone                // no /AP at all
	apEmpty               // an empty one, as LibreOffice writes with NeedAppearances
)

type freeText struct {
	rect     [4]float64
	contents string
	size     float64
}

// AddPage appends a page of widthPt x heightPt points (the MediaBox) with
// /Rotate rotate, which must be a multiple of 90.
func (d *Doc) AddPage(widthPt, heightPt float64, rotate int) *Page {
	rotate = ((rotate % 360) + 360) % 360
	if rotate%90 != 0 {
		panic(fmt.Sprintf("testpdf: rotate %d is not a multiple of 90", rotate))
	}
	p := &Page{doc: d, W: widthPt, H: heightPt, Rotate: rotate}
	d.pages = append(d.pages, p)
	return p
}

// AddPageBox appends a page whose MediaBox is box ([x0 y0 x1 y1], not
// necessarily at the origin, as in cropped scans) with /Rotate rotate.
func (d *Doc) AddPageBox(box [4]float64, rotate int) *Page {
	p := d.AddPage(box[2]-box[0], box[3]-box[1], rotate)
	p.x0, p.y0 = box[0], box[1]
	return p
}

// AddPageCrop appends a page with MediaBox media and CropBox crop (both
// [x0 y0 x1 y1]) and /Rotate rotate: the page as shown is the crop box,
// and display space starts at its corner.
func (d *Doc) AddPageCrop(media, crop [4]float64, rotate int) *Page {
	p := d.AddPageBox(crop, rotate)
	p.media = &media
	return p
}

// Pages returns the pages in order.
func (d *Doc) Pages() []*Page { return d.pages }

// DisplaySize is the page's size as shown, /Rotate applied.
func (p *Page) DisplaySize() (w, h float64) {
	if p.Rotate == 90 || p.Rotate == 270 {
		return p.H, p.W
	}
	return p.W, p.H
}

// ToDisplay maps a point in PDF user space (y up; the MediaBox's
// lower-left corner is usually the origin) to display space (origin top-left of the page as shown,
// y down, /Rotate applied).
func (p *Page) ToDisplay(x, y float64) page.Point {
	x, y = x-p.x0, y-p.y0
	switch p.Rotate {
	case 90:
		return page.Point{X: y, Y: x}
	case 180:
		return page.Point{X: p.W - x, Y: y}
	case 270:
		return page.Point{X: p.H - y, Y: p.W - x}
	}
	return page.Point{X: x, Y: p.H - y}
}

// RectToDisplay maps a user-space rectangle [x0 y0 x1 y1] to display space.
func (p *Page) RectToDisplay(r [4]float64) page.Rect {
	a, b := p.ToDisplay(r[0], r[1]), p.ToDisplay(r[2], r[3])
	return page.Rect{X0: min(a.X, b.X), Y0: min(a.Y, b.Y), X1: max(a.X, b.X), Y1: max(a.Y, b.Y)}
}

// Words returns the words drawn on the page so far, in the order drawn.
func (p *Page) Words() []Word { return append([]Word(nil), p.words...) }

// ImageRects returns the display-space boxes of the images drawn so far.
func (p *Page) ImageRects() []page.Rect { return append([]page.Rect(nil), p.regions...) }

// Text draws s in Helvetica at size points with its baseline starting at
// (x, y) in user space.
func (p *Page) Text(x, y, size float64, s string) {
	p.TextRotated(x, y, size, 0, s)
}

// TextRotated draws s like Text, with the baseline turned angleDeg
// degrees counter-clockwise around (x, y).
func (p *Page) TextRotated(x, y, size, angleDeg float64, s string) {
	sin, cos := math.Sincos(angleDeg * math.Pi / 180)
	fmt.Fprintf(&p.content, "BT /F1 %s Tf %s %s %s %s %s %s Tm <%x> Tj ET\n",
		num(size), num(cos), num(sin), num(-sin), num(cos), num(x), num(y), encode(s))
	p.place(x, y, size, angleDeg, s, page.SourceTextLayer)
}

// place records the words of s drawn from baseline origin (x, y).
func (p *Page) place(x, y, size, angleDeg float64, s string, src page.Source) {
	sin, cos := math.Sincos(angleDeg * math.Pi / 180)
	at := func(dx, dy float64) page.Point {
		return p.ToDisplay(x+dx*cos-dy*sin, y+dx*sin+dy*cos)
	}
	asc, desc := size*HelveticaAscender/1000, size*HelveticaDescender/1000
	for _, w := range splitWords(s) {
		start := StringWidth(s[:w.start], size)
		end := start + StringWidth(w.text, size)
		p.words = append(p.words, Word{
			Text:   w.text,
			Quad:   page.Quad{UL: at(start, asc), UR: at(end, asc), LL: at(start, desc), LR: at(end, desc)},
			Source: src,
		})
	}
}

type span struct {
	text  string
	start int // byte offset in the string
}

// splitWords splits s at spaces, keeping byte offsets.
func splitWords(s string) []span {
	var out []span
	start := -1
	for i, r := range s + " " {
		if r == ' ' {
			if start >= 0 {
				out = append(out, span{s[start:i], start})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// Image draws img scaled to the w x h rectangle whose lower-left corner is
// (x, y) in user space, as an 8-bit RGB image XObject.
func (p *Page) Image(x, y, w, h float64, img image.Image) {
	p.images = append(p.images, img)
	fmt.Fprintf(&p.content, "q %s 0 0 %s %s %s cm /Im%d Do Q\n", num(w), num(h), num(x), num(y), len(p.images))
	p.regions = append(p.regions, p.RectToDisplay([4]float64{x, y, x + w, y + h}))
}

// FillRect paints the user-space rectangle in the given gray (0 black, 1
// white) as vector graphics.
func (p *Page) FillRect(r [4]float64, gray float64) {
	fmt.Fprintf(&p.content, "q %s g %s %s %s %s re f Q\n", num(gray), num(r[0]), num(r[1]), num(r[2]-r[0]), num(r[3]-r[1]))
}

// TextField adds an AcroForm text field named name whose widget covers
// rect (user space, [x0 y0 x1 y1]) and whose value is value, with an
// appearance stream that shows the value. The value's words are recorded
// with page.SourceFormField.
func (p *Page) TextField(name string, rect [4]float64, value string) {
	f := field{name: name, value: value, rect: rect, ap: apValue, size: fieldFontSize(rect)}
	p.fields = append(p.fields, f)
	x, y := fieldTextOrigin(rect, f.size)
	p.place(x, y, f.size, 0, value, page.SourceFormField)
}

// TextFieldNoAppearance adds a text field like TextField but without an
// appearance stream, and sets NeedAppearances in the AcroForm, so a viewer
// must synthesise the appearance to show the value. Its words are not
// recorded by Words (the viewer chooses where to put them); they lie
// inside rect.
func (p *Page) TextFieldNoAppearance(name string, rect [4]float64, value string) {
	p.fields = append(p.fields, field{name: name, value: value, rect: rect, ap: apNone, size: fieldFontSize(rect)})
	p.doc.needAppearances = true
}

// TextFieldEmptyAppearance is TextFieldNoAppearance with an empty
// appearance stream ("/Tx BMC EMC"), as LibreOffice exports filled forms:
// only a viewer that honours NeedAppearances shows the value.
func (p *Page) TextFieldEmptyAppearance(name string, rect [4]float64, value string) {
	p.fields = append(p.fields, field{name: name, value: value, rect: rect, ap: apEmpty, size: fieldFontSize(rect)})
	p.doc.needAppearances = true
}

func fieldFontSize(r [4]float64) float64 { return min(10, (r[3]-r[1])*0.7) }

// fieldTextOrigin is where a field's appearance starts its baseline:
// 2pt from the left edge, the line centred vertically.
func fieldTextOrigin(r [4]float64, size float64) (x, y float64) {
	lineH := size * (HelveticaAscender - HelveticaDescender) / 1000
	return r[0] + 2, r[1] + ((r[3]-r[1])-lineH)/2 - size*HelveticaDescender/1000
}

// FreeTextAnnot adds a FreeText annotation covering rect with contents
// drawn by its appearance stream (one line, Helvetica). The words are
// recorded with page.SourceAnnotation.
func (p *Page) FreeTextAnnot(rect [4]float64, contents string) {
	a := freeText{rect: rect, contents: contents, size: fieldFontSize(rect)}
	p.annots = append(p.annots, a)
	x, y := fieldTextOrigin(rect, a.size)
	p.place(x, y, a.size, 0, contents, page.SourceAnnotation)
}

// Encrypt protects the document with the standard security handler,
// revision 2 (RC4, 40-bit key). With an empty user password the document
// opens without asking (an owner-password-only PDF); otherwise a reader
// needs the user or owner password.
func (d *Doc) Encrypt(userPassword, ownerPassword string) {
	d.enc = newEncryption(userPassword, ownerPassword, docID)
}

// docID is the fixed first element of the trailer's /ID.
var docID = []byte("redactd-testpdf!")

// Bytes writes the document as a complete PDF with a cross-reference
// table. It may be called more than once.
func (d *Doc) Bytes() []byte {
	b := &builder{enc: d.enc}
	catalog, pagesObj, font := b.alloc(), b.alloc(), b.alloc()
	b.set(font, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")

	var kids, fields []string
	for _, p := range d.pages {
		pageObj, content := b.alloc(), b.alloc()
		kids = append(kids, ref(pageObj))
		b.stream(content, "", p.content.Bytes())

		var xobjs strings.Builder
		for i, img := range p.images {
			o := b.alloc()
			b.image(o, img)
			fmt.Fprintf(&xobjs, " /Im%d %s", i+1, ref(o))
		}
		var annots []string
		for _, f := range p.fields {
			o := b.alloc()
			annots, fields = append(annots, ref(o)), append(fields, ref(o))
			ap := ""
			if f.ap != apNone {
				apObj := b.alloc()
				x, y := fieldTextOrigin(f.rect, f.size)
				content := "/Tx BMC\nEMC\n"
				if f.ap == apValue {
					content = fmt.Sprintf("/Tx BMC q BT /Helv %s Tf 0 g %s %s Td <%x> Tj ET Q EMC\n",
						num(f.size), num(x-f.rect[0]), num(y-f.rect[1]), encode(f.value))
				}
				b.form(apObj, f.rect, font, content)
				ap = " /AP << /N " + ref(apObj) + " >>"
			}
			b.set(o, fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Tx /F 4 /P %s /Rect %s /T %s /V %s /DA %s%s >>",
				ref(pageObj), rectStr(f.rect), b.str(o, []byte(f.name)), b.str(o, encode(f.value)),
				b.str(o, []byte("/Helv "+num(f.size)+" Tf 0 g")), ap))
		}
		for _, a := range p.annots {
			o, apObj := b.alloc(), b.alloc()
			annots = append(annots, ref(o))
			x, y := fieldTextOrigin(a.rect, a.size)
			b.form(apObj, a.rect, font, fmt.Sprintf("q BT /Helv %s Tf 0 g %s %s Td <%x> Tj ET Q\n",
				num(a.size), num(x-a.rect[0]), num(y-a.rect[1]), encode(a.contents)))
			b.set(o, fmt.Sprintf("<< /Type /Annot /Subtype /FreeText /F 4 /P %s /Rect %s /Contents %s /DA %s /AP << /N %s >> >>",
				ref(pageObj), rectStr(a.rect), b.str(o, encode(a.contents)),
				b.str(o, []byte("/Helv "+num(a.size)+" Tf 0 g")), ref(apObj)))
		}
		box := rectStr([4]float64{p.x0, p.y0, p.x0 + p.W, p.y0 + p.H})
		if p.media != nil {
			box = rectStr(*p.media) + " /CropBox " + box
		}
		dict := fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox %s /Rotate %d /Contents %s /Resources << /Font << /F1 %s >> /XObject <<%s >> >>",
			ref(pagesObj), box, p.Rotate, ref(content), ref(font), xobjs.String())
		if len(annots) > 0 {
			dict += " /Annots [" + strings.Join(annots, " ") + "]"
		}
		b.set(pageObj, dict+" >>")
	}
	b.set(pagesObj, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(d.pages)))

	cat := fmt.Sprintf("<< /Type /Catalog /Pages %s", ref(pagesObj))
	if len(fields) > 0 {
		form := b.alloc()
		na := ""
		if d.needAppearances {
			na = " /NeedAppearances true"
		}
		b.set(form, fmt.Sprintf("<< /Fields [%s] /DR << /Font << /Helv %s >> >> /DA %s%s >>",
			strings.Join(fields, " "), ref(font), b.str(form, []byte("/Helv 0 Tf 0 g")), na))
		cat += " /AcroForm " + ref(form)
	}
	b.set(catalog, cat+" >>")

	trailer := fmt.Sprintf("/Root %s /ID [<%x> <%x>]", ref(catalog), docID, docID)
	if d.enc != nil {
		encObj := b.alloc()
		b.setPlain(encObj, d.enc.dict())
		trailer += " /Encrypt " + ref(encObj)
	}
	return b.finish(trailer)
}

// builder assembles numbered objects and writes the file.
type builder struct {
	objs [][]byte
	enc  *encryption
}

func (b *builder) alloc() int { b.objs = append(b.objs, nil); return len(b.objs) }

func (b *builder) set(n int, body string) { b.objs[n-1] = []byte(body) }

// setPlain is set for the one object never encrypted: the Encrypt dict.
func (b *builder) setPlain(n int, body string) { b.set(n, body) }

// str is a PDF string holding s, encrypted for object n when the document
// is encrypted.
func (b *builder) str(n int, s []byte) string {
	if b.enc != nil {
		s = b.enc.crypt(n, s)
	}
	return fmt.Sprintf("<%x>", s)
}

// stream sets object n to a stream with extra dictionary entries dict.
func (b *builder) stream(n int, dict string, data []byte) {
	if b.enc != nil {
		data = b.enc.crypt(n, data)
	}
	var o bytes.Buffer
	fmt.Fprintf(&o, "<< %s /Length %d >>\nstream\n", dict, len(data))
	o.Write(data)
	o.WriteString("\nendstream")
	b.objs[n-1] = o.Bytes()
}

// form sets object n to a form XObject mapped onto rect drawing content.
func (b *builder) form(n int, rect [4]float64, font int, content string) {
	b.stream(n, fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 %s %s] /Resources << /Font << /Helv %s >> >>",
		num(rect[2]-rect[0]), num(rect[3]-rect[1]), ref(font)), []byte(content))
}

// image sets object n to an RGB image XObject holding img, compressed.
func (b *builder) image(n int, img image.Image) {
	r := img.Bounds()
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	row := make([]byte, 0, 3*r.Dx())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row = row[:0]
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			row = append(row, byte(cr>>8), byte(cg>>8), byte(cb>>8))
		}
		zw.Write(row) // writes to a bytes.Buffer cannot fail
	}
	zw.Close()
	b.stream(n, fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode",
		r.Dx(), r.Dy()), z.Bytes())
}

func (b *builder) finish(trailer string) []byte {
	out, _ := Assemble(b.objs, trailer)
	return out
}

// Assemble writes a classic PDF file: header, objects numbered from 1 in
// order, a correct xref table, and a trailer dictionary holding /Size and
// then trailer (e.g. "/Root 1 0 R"). It also returns each object's
// offset, for tests that break the file on purpose.
func Assemble(objs [][]byte, trailer string) ([]byte, []int) {
	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n", i+1)
		out.Write(o)
		out.WriteString("\nendobj\n")
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f\r\n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&out, "%010d 00000 n\r\n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return out.Bytes(), offs
}

func ref(n int) string { return fmt.Sprintf("%d 0 R", n) }

func rectStr(r [4]float64) string {
	return fmt.Sprintf("[%s %s %s %s]", num(r[0]), num(r[1]), num(r[2]), num(r[3]))
}

// num formats f the way PDF wants reals: no exponent.
func num(f float64) string {
	if math.Abs(f) < 1e-9 {
		return "0"
	}
	s := fmt.Sprintf("%.4f", f)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
