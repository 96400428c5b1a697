// Package visible generates documents whose text layer does not say
// what a reader sees.
//
// Each one plants personal data that is visible on the page while the
// text layer lies about it, leaves it out, or places it wrongly: the way
// real files come out of scanners, design tools, LaTeX and e-mail
// clients. A redacted output is safe only if none of it can be read off
// the output's pixels, whatever the layer claims.
//
// Glyphs are drawn from Helvetica rendered by MuPDF (engine/pipeline/mupdf), so
// every picture of text here is real text in a real font.
package visible

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Case is one document of the corpus.
type Case struct {
	Name string
	// Kind is the case: "layer" (ToUnicode lies), "outline" (text
	// drawn as vector paths), "image" (a picture of a line of text),
	// "scan" (a wrong invisible OCR layer over a scan), "type3" (glyphs
	// larger than the declared font box), "spacing" (letter-spaced
	// text), "order" (glyphs drawn out of reading order), "format"
	// (invisible format characters inside words), "vertical" (one letter
	// per line), "comb" (one character per box of a form) or "control".
	Kind string
	PDF  []byte
	// PII is what must not be readable in the output's pixels.
	PII []string
	// Vertical: the data reads top to bottom, one letter per line, so a
	// recogniser's lines are joined before looking for it.
	Vertical bool
	// Boxed: the data is printed one character per box, which a
	// recogniser reads as a line each, so its lines are joined before
	// looking for it.
	Boxed bool
}

// Body text drawn around the planted data, so every page mixes the case
// with ordinary text.
var visibleBody = []string{
	"The quarterly review covered shipping schedules and supplier terms.",
	"Minutes were approved without changes by the committee members.",
	"Please keep this letter with the records of the current year.",
}

// Corpus builds the corpus. It renders glyphs with MuPDF, so it
// fails only when MuPDF does.
func Corpus() ([]Case, error) {
	var out []Case
	add := func(name, kind string, pdf []byte, err error, pii ...string) error {
		if err != nil {
			return fmt.Errorf("visible: case %s: %w", name, err)
		}
		out = append(out, Case{Name: name, Kind: kind, PDF: pdf, PII: pii, Boxed: kind == "comb"})
		return nil
	}
	for _, c := range []struct {
		name string
		kind string
		gen  func() ([]byte, error)
		pii  []string
	}{
		{"layer-xxxx-11pt", "layer", func() ([]byte, error) { return liarLayer(11, 0, 640) }, liarPII},
		{"layer-xxxx-16pt-low", "layer", func() ([]byte, error) { return liarLayer(16, 0, 300) }, liarPII},
		{"layer-xxxx-rotated", "layer", func() ([]byte, error) { return liarLayer(12, 90, 200) }, liarPII},
		{"outline-letterhead-18pt", "outline", func() ([]byte, error) { return outlinePage(18, 0, 72, 730) }, outlinePII},
		{"outline-10pt-bottom", "outline", func() ([]byte, error) { return outlinePage(10, 0, 90, 120) }, outlinePII},
		{"outline-rotated", "outline", func() ([]byte, error) { return outlinePage(14, 90, 560, 200) }, outlinePII},
		{"outline-rotated-270-margin", "outline", func() ([]byte, error) { return outlinePage(11, 270, 540, 560) }, outlinePII},
		{"outline-gray-70", "outline", func() ([]byte, error) { return outlinePageGray(11, 0, 72, 120, 0.7) }, outlinePII},
		{"outline-gray-80", "outline", func() ([]byte, error) { return outlinePageGray(14, 0, 300, 700, 0.8) }, outlinePII},
		{"outline-white-on-dark-banner", "outline", func() ([]byte, error) { return bannerPage(14, 0.2) }, outlinePII},
		{"outline-white-on-gray-banner", "outline", func() ([]byte, error) { return bannerPage(12, 0.45) }, outlinePII},
		{"outline-upside-down", "outline", func() ([]byte, error) { return outlinePage(14, 180, 420, 300) }, outlinePII},
		{"image-467x20", "image", func() ([]byte, error) { return textImagePage(467, 20, 12, 72, 520, 144) }, imagePII},
		{"image-300x10-6pt", "image", func() ([]byte, error) { return textImagePage(300, 10, 6, 72, 420, 150) }, imagePII},
		{"image-467x20-low", "image", func() ([]byte, error) { return textImagePage(467, 20, 13, 100, 90, 110) }, imagePII},
		{"scan-wrong-layer", "scan", func() ([]byte, error) { return scanPage(scanLayerWrong, 0) }, scanPII},
		{"scan-unrelated-layer", "scan", func() ([]byte, error) { return scanPage(scanLayerUnrelated, 0) }, scanPII},
		{"scan-wrong-layer-rotate90", "scan", func() ([]byte, error) { return scanPage(scanLayerWrong, 90) }, scanPII},
		{"layer-xxxx-faint", "layer", func() ([]byte, error) { return liarLayerGray(12, 0, 600, xxxxCMap(), 0.94) }, liarPII},
		{"layer-shifted-letters", "layer", func() ([]byte, error) { return liarLayerMap(12, 0, 500, shiftedCMap()) }, liarPII},
		{"outline-in-table", "outline", func() ([]byte, error) { return outlineTable(11) }, outlinePII},
		{"outline-between-layer-lines", "outline", func() ([]byte, error) { return OutlineBetweenLayerLines(22) }, outlinePII},
		{"outline-letterhead-3-pages", "outline", func() ([]byte, error) { return LetterheadPages(3) }, outlinePII},
		{"outline-under-invisible-plain-layer", "outline", func() ([]byte, error) { return outlineUnderInvisible(14) }, outlinePII},
		{"type3-12pt", "type3", func() ([]byte, error) { return type3Page(12) }, type3PII},
		{"type3-20pt", "type3", func() ([]byte, error) { return type3Page(20) }, type3PII},
		{"spacing-tc-0.3em", "spacing", func() ([]byte, error) { return letterSpaced(spaceTc, 0.3) }, orderPII},
		{"spacing-tj-kern-0.25em", "spacing", func() ([]byte, error) { return letterSpaced(spaceTJ, 0.25) }, orderPII},
		{"spacing-type3-wide-0.3em", "spacing", func() ([]byte, error) { return letterSpaced(spaceType3, 0.3) }, orderPII},
		{"order-shuffled", "order", func() ([]byte, error) { return outOfOrder(orderShuffled) }, orderPII},
		{"order-lines-right-to-left", "order", func() ([]byte, error) { return outOfOrder(orderRTL) }, orderPII},
		{"order-words-reversed", "order", func() ([]byte, error) { return outOfOrder(orderWordsBack) }, orderPII},
		{"format-zwsp", "format", func() ([]byte, error) { return formatChars(0) }, orderPII},
		{"format-soft-hyphen", "format", func() ([]byte, error) { return formatChars(1) }, orderPII},
		{"format-zwj", "format", func() ([]byte, error) { return formatChars(2) }, orderPII},
		{"format-bidi-override", "format", func() ([]byte, error) { return formatChars(3) }, orderPII},
		{"comb-vector-boxes", "comb", func() ([]byte, error) { return combForm(combVector, 0.6, combPII) }, combPII},
		{"comb-acroform-maxlen", "comb", func() ([]byte, error) { return combForm(combField, 0.6, combPII) }, combPII},
		{"comb-scanned-form", "comb", func() ([]byte, error) { return combForm(combScan, 0.6, combPII) }, combPII},
		{"comb-scanned-form-black", "comb", func() ([]byte, error) { return combForm(combScan, 0, combBlackPII) }, combBlackPII},
		{"comb-scanned-form-black-turned", "comb", func() ([]byte, error) { return turnedCombScan(1) }, combBlackPII},
		{"spacing-scan-0.3em", "spacing", func() ([]byte, error) { return letterSpacedScan(0.3) }, orderPII},
		{"control-scan-correct-layer", "control", func() ([]byte, error) { return scanPage(scanLayerCorrect, 0) }, scanPII},
		{"control-text", "control", controlText, controlPII},
	} {
		pdf, err := c.gen()
		if err := add(c.name, c.kind, pdf, err, c.pii...); err != nil {
			return nil, err
		}
	}
	pdf, err := verticalName()
	if err := add("vertical-name", "vertical", pdf, err, orderPII[0]); err != nil {
		return nil, err
	}
	out[len(out)-1].Vertical = true
	return out, nil
}

var (
	liarPII    = []string{"Ottilie Marchbanks", "o.marchbanks@harrowgate-legal.com", "GB82 WEST 1234 5698 7654 32"}
	outlinePII = []string{"Bartholomew Quennell", "bq@fenwick-mills.co.uk"}
	imagePII   = []string{"Rosalind Featherstone", "r.featherstone@example.org"}
	scanPII    = []string{"Cressida Dunwoody", "c.dunwoody@harrowgate-legal.com", "DE89 3704 0044 0532 0130 00"}
	type3PII   = []string{"Peregrine Ashcombe", "p.ashcombe@example.net"}
	controlPII = []string{"Maria Gonzalez", "maria.gonzalez@example.com", "GB82 WEST 1234 5698 7654 32"}
)

// vdoc assembles a document from hand-written objects: one page per
// call of page, with named resources.
type vdoc struct {
	objs   [][]byte
	pages  []int
	rotate int // /Rotate of the pages added next
}

func (d *vdoc) add(body string) int {
	d.objs = append(d.objs, []byte(body))
	return len(d.objs)
}

func (d *vdoc) stream(dict string, data []byte) int {
	d.objs = append(d.objs, streamObj(dict, fmt.Sprint(len(data)), data))
	return len(d.objs)
}

// helvetica adds a Helvetica font with WinAnsi encoding and, when
// toUnicode is set, that ToUnicode CMap.
func (d *vdoc) helvetica(toUnicode string) int {
	extra := ""
	if toUnicode != "" {
		extra = fmt.Sprintf(" /ToUnicode %d 0 R", d.stream("", []byte(toUnicode)))
	}
	return d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding" + extra + " >>")
}

// page adds a Letter page drawing content with resources res (the inside
// of a /Resources dictionary).
func (d *vdoc) page(content []byte, res string) {
	c := d.stream("", content)
	d.pages = append(d.pages, d.add(fmt.Sprintf("<< /Type /Page /Parent PAGES /MediaBox [0 0 612 792] /Rotate %d /Contents %d 0 R /Resources << %s >> >>", d.rotate, c, res)))
}

func (d *vdoc) bytes() []byte { return d.bytesWith("") }

// bytesWith is bytes with catalog (entries of the document catalog, such
// as an AcroForm) added.
func (d *vdoc) bytesWith(catalog string) []byte {
	pagesObj := len(d.objs) + 1
	var kids []string
	for _, p := range d.pages {
		d.objs[p-1] = bytes.Replace(d.objs[p-1], []byte("PAGES"), []byte(fmt.Sprintf("%d 0 R", pagesObj)), 1)
		kids = append(kids, fmt.Sprintf("%d 0 R", p))
	}
	d.add(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids)))
	cat := d.add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R %s>>", pagesObj, catalog))
	out, _ := testpdf.Assemble(d.objs, fmt.Sprintf("/Root %d 0 R", cat))
	return out
}

// textOp draws s with font resource f at size, baseline at (x, y), turned
// angle degrees counter-clockwise, in render mode mode.
func textOp(b *bytes.Buffer, f string, size, x, y, angle float64, mode int, s string) {
	sin, cos := math.Sincos(angle * math.Pi / 180)
	fmt.Fprintf(b, "BT %d Tr /%s %g Tf %.4f %.4f %.4f %.4f %g %g Tm (%s) Tj ET\n", mode, f, size, cos, sin, -sin, cos, x, y, pdfEscape(s))
}

// body draws the ordinary lines in F1 at 11 pt from baseline y down.
func body(b *bytes.Buffer, y float64) {
	for i, l := range visibleBody {
		textOp(b, "F1", 11, 72, y-float64(i)*15, 0, 0, l)
	}
}

// liarLayer is case 1: the data is drawn in Helvetica, whose ToUnicode
// map turns every character into "x"; the rest of the page is normal.
func liarLayer(size, angle, y float64) ([]byte, error) {
	return liarLayerMap(size, angle, y, xxxxCMap())
}

// liarLayerMap is liarLayer with the ToUnicode map cmap.
func liarLayerMap(size, angle, y float64, cmap string) ([]byte, error) {
	return liarLayerGray(size, angle, y, cmap, 0)
}

// liarLayerGray is liarLayerMap with the data drawn in gray level gray
// (0 black, 1 white): faint print a reader can still make out.
func liarLayerGray(size, angle, y float64, cmap string, gray float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	f2 := d.helvetica(cmap)
	var c bytes.Buffer
	body(&c, 740)
	fmt.Fprintf(&c, "q %g g\n", gray)
	lines := []string{"Client: " + liarPII[0], "E-mail: " + liarPII[1], "IBAN: " + liarPII[2]}
	x := 72.0
	if angle != 0 {
		x = 560
	}
	for i, l := range lines {
		if angle != 0 {
			textOp(&c, "F2", size, x+float64(i)*size*1.5, y, angle, 0, l)
		} else {
			textOp(&c, "F2", size, x, y-float64(i)*size*1.5, 0, 0, l)
		}
	}
	c.WriteString("Q\n")
	body(&c, 160)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R /F2 %d 0 R >>", f1, f2))
	return d.bytes(), nil
}

// xxxxCMap maps every printable code to "x" and the space to a space.
func xxxxCMap() string {
	var b strings.Builder
	b.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Lie def\n1 begincodespacerange <00> <FF> endcodespacerange\n")
	b.WriteString("1 beginbfchar <20> <0020> endbfchar\n")
	// A range with one destination increments it: list the codes.
	var codes []string
	for c := 0x21; c <= 0xFF; c++ {
		codes = append(codes, fmt.Sprintf("<%02X> <0078>", c))
	}
	for len(codes) > 0 {
		n := min(100, len(codes))
		fmt.Fprintf(&b, "%d beginbfchar\n%s\nendbfchar\n", n, strings.Join(codes[:n], "\n"))
		codes = codes[n:]
	}
	b.WriteString("endcmap CMapName currentdict /CMap defineresource pop end end\n")
	return b.String()
}

// shiftedCMap maps every letter to the next one (a to b, z to a) and
// digits likewise: a layer of plausible letters that are all wrong, as
// subset fonts with a broken ToUnicode give.
func shiftedCMap() string {
	var b strings.Builder
	b.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Shift def\n1 begincodespacerange <00> <FF> endcodespacerange\n")
	var codes []string
	for c := 0x20; c <= 0x7E; c++ {
		r := rune(c)
		switch {
		case r >= 'a' && r <= 'z':
			r = 'a' + (r-'a'+1)%26
		case r >= 'A' && r <= 'Z':
			r = 'A' + (r-'A'+1)%26
		case r >= '0' && r <= '9':
			r = '0' + (r-'0'+1)%10
		}
		codes = append(codes, fmt.Sprintf("<%02X> <%04X>", c, r))
	}
	for len(codes) > 0 {
		n := min(100, len(codes))
		fmt.Fprintf(&b, "%d beginbfchar\n%s\nendbfchar\n", n, strings.Join(codes[:n], "\n"))
		codes = codes[n:]
	}
	b.WriteString("endcmap CMapName currentdict /CMap defineresource pop end end\n")
	return b.String()
}

// glyphBitmap renders s in Helvetica at size on a strip just large enough
// for it, at dpi: the strip is w x h points with the baseline base points
// above its bottom edge.
func glyphBitmap(s string, size, dpi float64) (r *page.Raster, w, h, base float64, err error) {
	w = testpdf.StringWidth(s, size) + 2
	h, base = size*1.5, size*0.4
	doc := testpdf.New()
	pg := doc.AddPage(w, h, 0)
	pg.Text(1, base, size, s)
	r, err = renderGray(doc.Bytes(), dpi)
	return r, w, h, base, err
}

// renderGray renders the first page of pdf at dpi.
func renderGray(pdf []byte, dpi float64) (*page.Raster, error) {
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
	return pg.Render(context.Background(), dpi, 1<<28)
}

// rectsOf writes the dark pixels (< 128) of r as filled rectangles in a
// space where a pixel is k units and y grows upwards from the raster's
// bottom edge, shifted by (dx, dy): runs of a row, merged with identical
// runs of the rows below.
func rectsOf(b *bytes.Buffer, r *page.Raster, k, dx, dy float64) {
	open := map[[2]int]int{} // run -> first row
	flush := func(x0, x1, y0, y1 int) {
		fmt.Fprintf(b, "%.2f %.2f %.2f %.2f re\n", dx+float64(x0)*k, dy+float64(r.H-y1)*k, float64(x1-x0)*k, float64(y1-y0)*k)
	}
	for y := 0; y <= r.H; y++ {
		now := map[[2]int]bool{}
		if y < r.H {
			row := r.Pix[y*r.Stride:]
			for x := 0; x < r.W; {
				if row[x*r.Channels] >= 128 {
					x++
					continue
				}
				x0 := x
				for x < r.W && row[x*r.Channels] < 128 {
					x++
				}
				now[[2]int{x0, x}] = true
			}
		}
		for key, y0 := range open {
			if !now[key] {
				flush(key[0], key[1], y0, y)
				delete(open, key)
			}
		}
		for key := range now {
			if _, ok := open[key]; !ok {
				open[key] = y
			}
		}
	}
}

// outlineText draws s as vector paths (no text) at size with its baseline
// at (x, y) turned angle degrees: a logo or a PDF printed to outlines.
func outlineText(b *bytes.Buffer, s string, size, x, y, angle float64) error {
	return outlineTextGray(b, s, size, x, y, angle, 0)
}

// outlineTextGray is outlineText filled in gray level gray (0 black, 1
// white), as light letterheads and footers are printed.
func outlineTextGray(b *bytes.Buffer, s string, size, x, y, angle, gray float64) error {
	const dpi = 600
	r, _, _, base, err := glyphBitmap(s, size, dpi)
	if err != nil {
		return err
	}
	defer r.Release()
	sin, cos := math.Sincos(angle * math.Pi / 180)
	fmt.Fprintf(b, "q %g g %.4f %.4f %.4f %.4f %g %g cm\n", gray, cos, sin, -sin, cos, x, y)
	rectsOf(b, r, 72.0/dpi, -1, -base)
	b.WriteString("f Q\n")
	return nil
}

// outlinePage is case 2: a name and an e-mail address drawn as outlines
// on a page whose other text is a normal layer.
func outlinePage(size, angle, x, y float64) ([]byte, error) {
	return outlinePageGray(size, angle, x, y, 0)
}

// outlinePageGray is outlinePage with the outlines in gray level gray.
func outlinePageGray(size, angle, x, y, gray float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 600)
	for i, s := range []string{outlinePII[0], outlinePII[1]} {
		dx, dy := 0.0, -float64(i)*size*1.6
		switch angle {
		case 0:
		case 180: // the next line is above, read upside down
			dy = float64(i) * size * 1.6
		default:
			dx, dy = float64(i)*size*1.6, 0
		}
		if err := outlineTextGray(&c, s, size, x+dx, y+dy, angle, gray); err != nil {
			return nil, err
		}
	}
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

// LetterheadPages is case 2 repeated: n pages, each with the same
// letterhead (a name and an e-mail address drawn as outlines at the top)
// over a page of normal text that differs from page to page, as a
// letter's continuation pages do. The pipeline reads the letterhead's
// ink once and reuses the reading on the other pages.
func LetterheadPages(n int) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	for i := range n {
		var c bytes.Buffer
		for k, s := range []string{outlinePII[0], outlinePII[1]} {
			if err := outlineText(&c, s, 16, 72, 730-float64(k)*16*1.6, 0); err != nil {
				return nil, err
			}
		}
		body(&c, 600-float64(i)*40)
		d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	}
	return d.bytes(), nil
}

// outlineUnderInvisible is case 2 with a lying layer that needs no font
// trickery: the name and e-mail address are drawn as outlines, and an
// invisible (render mode 3) line in plain Helvetica (no embedded
// program, no ToUnicode map: a font that cannot say other than what it
// draws, when it draws) lies over each, saying something else.
func outlineUnderInvisible(size float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 600)
	for i, s := range []string{outlinePII[0], outlinePII[1]} {
		y := 700 - float64(i)*size*1.6
		if err := outlineText(&c, s, size, 72, y, 0); err != nil {
			return nil, err
		}
		textOp(&c, "F1", size, 72, y, 0, 3, strings.Repeat("x", len(s)))
	}
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

// outlineTable is case 2 inside a table: the name and the e-mail address
// drawn as outlines in cells of a ruled grid whose labels are text.
func outlineTable(size float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 720)
	const x0, x1, top, rowH = 60.0, 552.0, 600.0, 24.0
	c.WriteString("q 0 g 0.8 w\n")
	for i := 0; i <= 3; i++ {
		fmt.Fprintf(&c, "%g %g m %g %g l S\n", x0, top-float64(i)*rowH, x1, top-float64(i)*rowH)
	}
	for _, x := range []float64{x0, 180, x1} {
		fmt.Fprintf(&c, "%g %g m %g %g l S\n", x, top, x, top-3*rowH)
	}
	c.WriteString("Q\n")
	labels := []string{"Name", "E-mail", "Reference"}
	values := []string{outlinePII[0], outlinePII[1], "REF-2024-118"}
	for i := range labels {
		base := top - float64(i+1)*rowH + 7
		textOp(&c, "F1", size, x0+6, base, 0, 0, labels[i])
		if i < 2 {
			if err := outlineText(&c, values[i], size, 186, base, 0); err != nil {
				return nil, err
			}
		} else {
			textOp(&c, "F1", size, 186, base, 0, 0, values[i])
		}
	}
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

// OutlineBetweenLayerLines is case 2 inside a block of normal text: the
// name (size pt) and the e-mail address (two thirds of it) are drawn as
// outlines, each on a line of its own between 10-pt lines of the text
// layer, as a letterhead's heading sits between address lines; then the
// name once more, at 11 pt, after a layer label on a line of the layer
// ("Client: " then the outlines). The margins of the outline lines'
// regions take in the layer lines next to them, which OCR need not read
// again; the outline lines, and the mixed line, must be read.
func OutlineBetweenLayerLines(size float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 720)
	y := 600.0
	textOp(&c, "F1", 10, 72, y, 0, 0, "Private and confidential, for the addressee only")
	y -= size * 0.95
	if err := outlineText(&c, outlinePII[0], size, 72, y, 0); err != nil {
		return nil, err
	}
	y -= size*0.25 + 9
	textOp(&c, "F1", 10, 72, y, 0, 0, "Account holder as registered with the bank")
	y -= size * 0.7
	if err := outlineText(&c, outlinePII[1], size*2/3, 72, y, 0); err != nil {
		return nil, err
	}
	y -= size*0.2 + 9
	textOp(&c, "F1", 10, 72, y, 0, 0, "Correspondence is kept with the records")
	y -= 30
	const label = "Client: "
	textOp(&c, "F1", 11, 72, y, 0, 0, label)
	if err := outlineText(&c, outlinePII[0], 11, 72+testpdf.StringWidth(label, 11), y, 0); err != nil {
		return nil, err
	}
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

// grayImage adds r as an 8-bit DeviceGray image XObject.
func (d *vdoc) grayImage(r *page.Raster) int {
	pix := make([]byte, 0, r.W*r.H)
	for y := 0; y < r.H; y++ {
		row := r.Pix[y*r.Stride:]
		for x := 0; x < r.W; x++ {
			pix = append(pix, row[x*r.Channels])
		}
	}
	return d.stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", r.W, r.H), zlibBytes(pix))
}

// textImagePage is case 3: a one-line picture of text (a pasted
// screenshot, a signature line) of w x h points holding the name and
// e-mail at size, at (x, y), rendered at dpi, on a text page.
func textImagePage(w, h, size, x, y, dpi float64) ([]byte, error) {
	return textImagePageGray(w, h, size, x, y, dpi, 0)
}

// textImagePageGray is textImagePage with the picture's text in gray
// level gray (0 black, 1 white).
func textImagePageGray(w, h, size, x, y, dpi, gray float64) ([]byte, error) {
	doc := testpdf.New()
	pg := doc.AddPage(w, h, 0)
	pg.Text(2, (h-size*0.7)/2, size, imagePII[0]+"  <"+imagePII[1]+">")
	r, err := renderGray(doc.Bytes(), dpi)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	for i, v := range r.Pix {
		r.Pix[i] = 255 - uint8(math.Round(float64(255-v)*(1-gray)))
	}
	var d vdoc
	f1 := d.helvetica("")
	im := d.grayImage(r)
	var c bytes.Buffer
	body(&c, 700)
	fmt.Fprintf(&c, "q %g 0 0 %g %g %g cm /Im1 Do Q\n", w, h, x, y)
	body(&c, y-30)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >> /XObject << /Im1 %d 0 R >>", f1, im))
	return d.bytes(), nil
}

// Invisible layers over the scan.
const (
	scanLayerCorrect   = iota // what the picture shows
	scanLayerWrong            // "Cr3ss1da Dunw00dy": an old OCR tool's reading
	scanLayerUnrelated        // other words altogether
)

// scanLines is what the scanned page shows.
var scanLines = []string{
	"Harrowgate Legal LLP - client intake",
	"Client: " + scanPII[0],
	"E-mail: " + scanPII[1],
	"Account: " + scanPII[2],
	"The client asked for the file to be closed.",
}

// scanPage is case 4: a page that is one picture of text (a scan at 200
// dpi) under an invisible (render mode 3) text layer.
func scanPage(layer, rotate int) ([]byte, error) {
	doc := testpdf.New()
	pg := doc.AddPage(612, 792, 0)
	for i, l := range scanLines {
		pg.Text(72, 700-float64(i)*22, 12, l)
	}
	r, err := renderGray(doc.Bytes(), 200)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	d := vdoc{rotate: rotate}
	f1 := d.helvetica("")
	im := d.grayImage(r)
	var c bytes.Buffer
	c.WriteString("q 612 0 0 792 0 0 cm /Im1 Do Q\n")
	for i, l := range scanLines {
		switch layer {
		case scanLayerWrong:
			l = strings.NewReplacer("e", "3", "i", "1", "o", "0").Replace(l)
		case scanLayerUnrelated:
			l = visibleBody[i%len(visibleBody)]
		}
		textOp(&c, "F1", 12, 72, 700-float64(i)*22, 0, 3, l)
	}
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >> /XObject << /Im1 %d 0 R >>", f1, im))
	return d.bytes(), nil
}

// type3Page is case 5: a Type3 font whose glyphs are drawn far taller
// than its declared FontBBox (old TeX and dvips output), with a correct
// ToUnicode map, so the layer's text is right but its boxes are thin.
func type3Page(size float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	f3, err := d.type3Font()
	if err != nil {
		return nil, err
	}
	var c bytes.Buffer
	body(&c, 720)
	textOp(&c, "F3", size, 72, 560, 0, 0, "Patient: "+type3PII[0])
	textOp(&c, "F3", size, 72, 560-size*1.8, 0, 0, "Contact: "+type3PII[1])
	body(&c, 400)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R /F3 %d 0 R >>", f1, f3))
	return d.bytes(), nil
}

// type3Font adds a Type3 font with glyphs for the printable ASCII codes,
// drawn from Helvetica at 1000 units per em, and a FontBBox of a tenth
// of that height.
func (d *vdoc) type3Font() (int, error) {
	return d.type3Helvetica(0, "0 -10 1000 90")
}

// type3Helvetica adds a Type3 font whose glyphs are Helvetica's
// printable ASCII glyphs at 1000 units per em, drawn at the left of
// advances extra thousandths of an em wider than Helvetica's, with
// FontBBox bbox and an identity ToUnicode map.
func (d *vdoc) type3Helvetica(extra int, bbox string) (int, error) {
	const em = 100.0 // glyph raster: 100 px per em, 10 units per px
	var procs, diffs strings.Builder
	var widths []string
	for code := 0x20; code <= 0x7E; code++ {
		name := fmt.Sprintf("g%d", code)
		wx := testpdf.RuneWidth(rune(code)) + extra
		widths = append(widths, fmt.Sprint(wx))
		fmt.Fprintf(&diffs, " /%s", name)
		var g bytes.Buffer
		fmt.Fprintf(&g, "%d 0 d0\n", wx)
		if code != 0x20 {
			r, _, _, base, err := glyphBitmap(string(rune(code)), em, 72)
			if err != nil {
				return 0, err
			}
			rectsOf(&g, r, 10, -10, -base*10)
			g.WriteString("f\n")
			r.Release()
		}
		fmt.Fprintf(&procs, " /%s %d 0 R", name, d.stream("", g.Bytes()))
	}
	tu := d.stream("", []byte(identityCMap))
	return d.add(fmt.Sprintf("<< /Type /Font /Subtype /Type3 /FontBBox [%s] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs <<%s >> /Encoding << /Type /Encoding /Differences [32%s] >> /FirstChar 32 /LastChar 126 /Widths [%s] /ToUnicode %d 0 R /Resources << >> >>",
		bbox, procs.String(), diffs.String(), strings.Join(widths, " "), tu)), nil
}

// identityCMap is a ToUnicode map that says what WinAnsi's printable
// ASCII codes draw: a font with it is checked against its pixels.
const identityCMap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Id def\n1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfrange <20> <7E> <0020> endbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end\n"

// InvisibleStamp is an ordinary text page whose font carries a ToUnicode
// map (so its words are checked against the pixels) and which draws, in
// the same font, a white-on-white production stamp of longer words than
// the body's, as the Federal Register's typesetting does on every page.
// The stamp draws nothing a reader can see, so it is nothing to check a
// font against: a font check that samples it reads noise and distrusts
// an honest font.
func InvisibleStamp() ([]byte, error) {
	var d vdoc
	f1 := d.helvetica(identityCMap)
	var c bytes.Buffer
	body(&c, 720)
	c.WriteString("q 1 g\n")
	textOp(&c, "F1", 6.5, 72, 40, 0, 0, `VerDate Sep<11>2014 E:\FR\FM\06AUP1.SGM 06AUP1 PRODUCTIONSTAMP`)
	c.WriteString("Q\n")
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

// controlText is an ordinary text page with the same kinds of data.
func controlText() ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 720)
	textOp(&c, "F1", 11, 72, 640, 0, 0, "Contact "+controlPII[0]+" at "+controlPII[1]+" about the invoice.")
	textOp(&c, "F1", 11, 72, 620, 0, 0, "Payment to IBAN "+controlPII[2]+" was confirmed.")
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

func streamObj(dict, length string, data []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<< %s /Length %s >>\nstream\n", dict, length)
	b.Write(data)
	b.WriteString("\nendstream")
	return b.Bytes()
}

func zlibBytes(b []byte) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(b) // a bytes.Buffer does not fail
	w.Close()
	return z.Bytes()
}

// Readable reports the line of lines (an OCR reading) that holds pii
// (or one of its name parts of five
// letters or more) to within a fifth of its characters, ignoring case,
// spaces and punctuation other than @ and dots.
func Readable(lines []string, pii string) (string, bool) {
	pats := []string{norm(pii)}
	if !strings.ContainsAny(pii, "@0123456789") {
		for _, part := range strings.Fields(pii) {
			if len(part) >= 5 {
				pats = append(pats, norm(part))
			}
		}
	}
	for _, l := range lines {
		n := norm(l)
		for _, p := range pats {
			if approxContains(n, p, len(p)/5) {
				return l, true
			}
		}
	}
	return "", false
}

func norm(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '@' || r == '.' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// approxContains reports whether some substring of text is within k
// edits of pat (Sellers' algorithm).
func approxContains(text, pat string, k int) bool {
	p := []rune(pat)
	prev := make([]int, len(p)+1)
	cur := make([]int, len(p)+1)
	for j := range prev {
		prev[j] = j
	}
	if prev[len(p)] <= k {
		return true
	}
	for _, c := range text {
		cur[0] = 0
		for j := 1; j <= len(p); j++ {
			cost := 1
			if p[j-1] == c {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		if cur[len(p)] <= k {
			return true
		}
		prev, cur = cur, prev
	}
	return false
}

// bannerPage is case 2 reversed: the name and the e-mail address drawn
// as white outlines on a filled bar of gray level bg across the top of
// the page, as letterheads and invoice headers print them.
func bannerPage(size, bg float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 600)
	fmt.Fprintf(&c, "q %g g 40 680 532 80 re f Q\n", bg)
	for i, s := range []string{outlinePII[0], outlinePII[1]} {
		if err := outlineTextGray(&c, s, size, 60, 735-float64(i)*size*1.6, 0, 1); err != nil {
			return nil, err
		}
	}
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}
