package visible

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Cases of issue 42, point 2 and 4: bank and tax forms print one
// character per box (comb fields), and scans show letter-spaced print. A
// reader sees a name, a phone number, a date of birth and an IBAN; a
// layer or a recogniser that takes every box for a word of its own holds
// nothing a detector knows.

// combPII is what the comb cases plant: a name, a phone number, a date
// of birth and an IBAN, in that order.
var combPII = []string{"Fenella Ashworth", "07946 095812", "23/08/2004", "DE89370400440532013000"}

// combBlackPII is what the black-ruled scanned form plants: values full
// of the strokes our recogniser confuses with box walls ("1", "/", "4").
var combBlackPII = []string{"Tobias Kilbride", "01632 960471", "14/03/1986", "GB33BUKB20201555555555"}

// combFields are the form's labelled rows for pii (as combPII): label,
// then the value drawn one character per box (a space leaves its box
// empty), the name in capitals.
func combFields(pii []string) [][2]string {
	return [][2]string{
		{"Name", strings.ToUpper(pii[0])},
		{"Phone", pii[1]},
		{"Date of birth", pii[2]},
		{"IBAN", pii[3]},
	}
}

// Geometry of the comb rows, in points: boxes of combCell x combBoxH
// from x = combLeft, rows combLead apart from combTop down, each under
// its label, text at combSize. The pitch, 2.2 em, is a tax form's 9 mm
// boxes for 12-pt print: the gaps between glyphs are wider than any
// letter spacing.
const (
	combLeft = 24.0
	combCell = 26.0
	combBoxH = 24.0
	combTop  = 620.0
	combLead = 50.0
	combSize = 12.0
)

// Comb forms for combForm.
const (
	combVector = iota // ruled boxes as paths, each glyph drawn centred in its box
	combScan          // the vector form as a picture (a scanned paper form)
	combField         // AcroForm text fields with the Comb flag and /MaxLen
)

// combForm draws the comb form in form kind, its rules in gray level rule
// (0 black, 1 white), planting pii (as combPII).
func combForm(kind int, rule float64, pii []string) ([]byte, error) {
	if kind == combScan {
		v, err := combForm(combVector, rule, pii)
		if err != nil {
			return nil, err
		}
		return scannedPicture(v)
	}
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 720)
	var fields []int
	for i, f := range combFields(pii) {
		y := combTop - float64(i)*combLead
		textOp(&c, "F1", 9, combLeft, y+combBoxH+4, 0, 0, f[0]+":")
		n := len(f[1])
		// The ruled boxes: an outline and a rule between every two
		// cells, in gray level rule, as forms print them (mid-gray or
		// black).
		fmt.Fprintf(&c, "q %g G 0.8 w %g %g %g %g re S\n", rule, combLeft, y, combCell*float64(n), combBoxH)
		for k := 1; k < n; k++ {
			x := combLeft + combCell*float64(k)
			fmt.Fprintf(&c, "%g %g m %g %g l S\n", x, y, x, y+combBoxH)
		}
		c.WriteString("Q\n")
		if kind == combField {
			fields = append(fields, d.add(fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Tx /T (f%d) /Ff %d /MaxLen %d /V (%s) /DA (/Helv %g Tf 0 g) /Q 0 /Rect [%g %g %g %g] /F 4 >>",
				i, 1<<24, n, pdfEscape(f[1]), combSize, combLeft, y, combLeft+combCell*float64(n), y+combBoxH)))
			continue
		}
		// One text object per glyph, centred in its box, as form
		// printers draw them.
		for k, r := range f[1] {
			if r == ' ' {
				continue
			}
			x := combLeft + combCell*(float64(k)+0.5) - testpdf.StringWidth(string(r), combSize)/2
			textOp(&c, "F1", combSize, x, y+7, 0, 0, string(r))
		}
	}
	body(&c, 400)
	res := fmt.Sprintf("/Font << /F1 %d 0 R >>", f1)
	if kind != combField {
		d.page(c.Bytes(), res)
		return d.bytes(), nil
	}
	var refs []string
	for _, f := range fields {
		refs = append(refs, fmt.Sprintf("%d 0 R", f))
	}
	d.objs = append(d.objs, nil) // the page, below
	pg := len(d.objs)
	cs := d.stream("", c.Bytes())
	d.objs[pg-1] = []byte(fmt.Sprintf("<< /Type /Page /Parent PAGES /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << %s >> /Annots [%s] >>", cs, res, strings.Join(refs, " ")))
	d.pages = append(d.pages, pg)
	for _, f := range fields {
		d.objs[f-1] = bytes.Replace(d.objs[f-1], []byte(" >>"), []byte(fmt.Sprintf(" /P %d 0 R >>", pg)), 1)
	}
	helv := d.helvetica("")
	return d.bytesWith(fmt.Sprintf("/AcroForm << /Fields [%s] /DR << /Font << /Helv %d 0 R >> >> /DA (/Helv 0 Tf 0 g) >>", strings.Join(refs, " "), helv)), nil
}

// turnedCombScan is the black-ruled comb form, scanned turned deg
// degrees on the glass.
func turnedCombScan(deg float64) ([]byte, error) {
	v, err := combForm(combVector, 0, combBlackPII)
	if err != nil {
		return nil, err
	}
	return turnedScan(v, deg)
}

// letterSpacedScan is a scanned page of orderLines printed with em (in
// ems) of extra space after every glyph: a recogniser reads letters or
// short fragments apart.
func letterSpacedScan(em float64) ([]byte, error) {
	v, err := letterSpaced(spaceTc, em)
	if err != nil {
		return nil, err
	}
	return scannedPicture(v)
}

// scannedPicture renders the first page of pdf at 200 dpi and returns a
// page that is only that picture, with no text layer: a paper form put
// through a scanner.
func scannedPicture(pdf []byte) ([]byte, error) { return turnedScan(pdf, 0) }

// turnedScan is scannedPicture with the picture turned deg degrees
// (counter-clockwise) about the page's centre, as paper lies askew on a
// scanner's glass.
func turnedScan(pdf []byte, deg float64) ([]byte, error) {
	r, err := renderGray(pdf, 200)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	var d vdoc
	im := d.grayImage(r)
	c, s := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
	// Turn about (306, 396): translate, rotate, translate back.
	tx, ty := 306-306*c+396*s, 396-306*s-396*c
	d.page([]byte(fmt.Sprintf("q %.6f %.6f %.6f %.6f %.4f %.4f cm 612 0 0 792 0 0 cm /Im1 Do Q\n", c, s, -s, c, tx, ty)), fmt.Sprintf("/XObject << /Im1 %d 0 R >>", im))
	return d.bytes(), nil
}
