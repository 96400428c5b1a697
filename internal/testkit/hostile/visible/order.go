package visible

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Cases of issue 42: the page shows ordinary lines of text, but the
// content stream draws their glyphs letter-spaced, out of reading order,
// with invisible format characters among them, or stacked one letter per
// line. A layer read in drawing order, split where MuPDF splits, holds
// no word a detector knows; a reader sees the data at once.

// orderPII is what those cases plant: a name, an e-mail address, a phone
// number and an IBAN.
var orderPII = []string{"Wilhelmina Crankshaw", "w.crankshaw@lowther-trust.co.uk", "+44 20 7946 0958", "GB33 BUKB 2020 1555 5555 55"}

// orderLines are the lines that carry orderPII.
func orderLines() []string {
	return []string{"Client: " + orderPII[0], "E-mail: " + orderPII[1], "Phone: " + orderPII[2], "IBAN: " + orderPII[3]}
}

const (
	orderSize = 12.0
	orderTop  = 600.0
	orderLead = 22.0
)

// spacing methods for letterSpaced.
const (
	spaceTc    = iota // character spacing: Tc
	spaceTJ           // a kern between every two glyphs of a TJ array
	spaceType3        // a Type3 font whose advances are widened
)

// letterSpaced draws orderLines with em (in ems) of extra space after
// every glyph, by method.
func letterSpaced(method int, em float64) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	res := fmt.Sprintf("/Font << /F1 %d 0 R", f1)
	if method == spaceType3 {
		f3, err := d.type3Wide(int(em * 1000))
		if err != nil {
			return nil, err
		}
		res += fmt.Sprintf(" /F3 %d 0 R", f3)
	}
	res += " >>"
	var c bytes.Buffer
	body(&c, 720)
	for i, l := range orderLines() {
		y := orderTop - float64(i)*orderLead
		switch method {
		case spaceTc:
			fmt.Fprintf(&c, "q BT /F1 %g Tf %g Tc 1 0 0 1 72 %g Tm (%s) Tj ET Q\n", orderSize, em*orderSize, y, pdfEscape(l))
		case spaceTJ:
			var arr []string
			for _, r := range l {
				arr = append(arr, "("+pdfEscape(string(r))+")")
			}
			fmt.Fprintf(&c, "BT /F1 %g Tf 1 0 0 1 72 %g Tm [%s] TJ ET\n", orderSize, y, strings.Join(arr, fmt.Sprintf(" %d ", -int(em*1000))))
		case spaceType3:
			fmt.Fprintf(&c, "BT /F3 %g Tf 1 0 0 1 72 %g Tm (%s) Tj ET\n", orderSize, y, pdfEscape(l))
		}
	}
	body(&c, 420)
	d.page(c.Bytes(), res)
	return d.bytes(), nil
}

// type3Wide adds a Type3 font drawing Helvetica's printable ASCII glyphs
// at the left of advances extra thousandths of an em wider than
// Helvetica's, with a correct ToUnicode map: a font whose glyph boxes are
// letter-spaced text's letters and gaps together. MuPDF's boxes span the
// widened advances, so they touch and its words were never split: the
// case guards that a word builder reading gaps keeps it so.
func (d *vdoc) type3Wide(extra int) (int, error) {
	return d.type3Helvetica(extra, fmt.Sprintf("0 -250 %d 1000", 1000+extra))
}

// drawing orders for outOfOrder.
const (
	orderShuffled  = iota // every glyph of the block placed on its own, in random order
	orderRTL              // each line's glyphs drawn from its last to its first
	orderWordsBack        // each line's words drawn from its last to its first
)

// outOfOrder draws orderLines where an ordinary page would have them,
// but its glyphs (or words) in order.
func outOfOrder(order int) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 720)
	type piece struct {
		s    string
		x, y float64
	}
	var pieces []piece
	for i, l := range orderLines() {
		y := orderTop - float64(i)*orderLead
		var line []piece
		if order == orderWordsBack {
			x := 72.0
			for j, w := range strings.Split(l, " ") {
				if j > 0 {
					x += testpdf.StringWidth(" ", orderSize)
				}
				line = append(line, piece{w, x, y})
				x += testpdf.StringWidth(w, orderSize)
			}
		} else {
			x := 72.0
			for _, r := range l {
				if r != ' ' {
					line = append(line, piece{string(r), x, y})
				}
				x += testpdf.StringWidth(string(r), orderSize)
			}
		}
		if order != orderShuffled {
			for a, b := 0, len(line)-1; a < b; a, b = a+1, b-1 {
				line[a], line[b] = line[b], line[a]
			}
		}
		pieces = append(pieces, line...)
	}
	if order == orderShuffled {
		rng := rand.New(rand.NewPCG(42, 42))
		rng.Shuffle(len(pieces), func(i, j int) { pieces[i], pieces[j] = pieces[j], pieces[i] })
	}
	c.WriteString("BT\n")
	for _, p := range pieces {
		fmt.Fprintf(&c, "/F1 %g Tf 1 0 0 1 %.3f %.3f Tm (%s) Tj\n", orderSize, p.x, p.y, pdfEscape(p.s))
	}
	c.WriteString("ET\n")
	body(&c, 420)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

// formatRunes are the invisible characters formatChars plants: code
// 1 + i of the font formatFont stands for formatRunes[i].
var formatRunes = []rune{0x200B, 0x00AD, 0x200D, 0x202E}

// formatFont adds Helvetica whose codes 1 to 4 name glyphs it lacks, so
// they draw nothing and have no advance, and whose ToUnicode map says
// they are the format characters of formatRunes. (Named by their
// Unicode names instead, MuPDF draws the soft hyphen as a hyphen.)
func (d *vdoc) formatFont() int {
	var cmap strings.Builder
	cmap.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Fmt def\n1 begincodespacerange <00> <FF> endcodespacerange\n")
	fmt.Fprintf(&cmap, "%d beginbfchar\n", len(formatRunes))
	for i, r := range formatRunes {
		fmt.Fprintf(&cmap, "<%02X> <%04X>\n", i+1, r)
	}
	cmap.WriteString("endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n")
	tu := d.stream("", []byte(cmap.String()))
	return d.add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /fmtA /fmtB /fmtC /fmtD] >> /FirstChar 1 /LastChar 4 /Widths [0 0 0 0] /ToUnicode %d 0 R >>", tu))
}

// formatChars draws orderLines with format character glyph (an index
// into formatRunes) after every character of the name, the e-mail
// address, the phone number and the IBAN: invisible, and between every
// two letters of words a detector must see whole.
func formatChars(glyph int) ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	f2 := d.formatFont()
	var c bytes.Buffer
	body(&c, 720)
	for i, l := range orderLines() {
		y := orderTop - float64(i)*orderLead
		label, value, _ := strings.Cut(l, " ")
		fmt.Fprintf(&c, "BT /F1 %g Tf 1 0 0 1 72 %g Tm (%s ) Tj\n", orderSize, y, pdfEscape(label))
		for _, r := range value {
			fmt.Fprintf(&c, "/F1 %g Tf (%s) Tj /F2 %g Tf <%02X> Tj\n", orderSize, pdfEscape(string(r)), orderSize, glyph+1)
		}
		c.WriteString("ET\n")
	}
	body(&c, 420)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R /F2 %d 0 R >>", f1, f2))
	return d.bytes(), nil
}

// verticalName draws the name of orderPII one letter per line, top to
// bottom, as the spine of a folder or a narrow table header prints it,
// with a line left empty between its two parts, beside a label and over
// ordinary text.
func verticalName() ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	textOp(&c, "F1", 11, 72, 740, 0, 0, "File of the client named on the left margin, held at the registry.")
	y := 700.0
	for _, r := range orderPII[0] {
		if r != ' ' {
			x := 40 + (testpdf.StringWidth("W", orderSize)-testpdf.StringWidth(string(r), orderSize))/2
			textOp(&c, "F1", orderSize, x, y, 0, 0, string(r))
		}
		y -= orderSize * 1.15
	}
	body(&c, 300)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}
