package visible

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Documents whose words are broken apart: the glyphs a reader sees make
// one piece of personal data, but the words the text layer gives do not,
// so detection on the layer passes it by. They are the cases of the
// pipeline's release check (engine/pipeline, release.go): a page showing
// a sign of broken words has its burned pixels read again before it is
// released.

var (
	spacedPhonePII = []string{"+44 20 7946 0958"}
	zwspEmailPII   = []string{"lucinda.hargreave@fernleigh-trust.org"}
	// The right edge leaves the beginning of each: an IBAN's country,
	// check digits and bank, a phone number's country and area.
	edgeCutPII = []string{"GB33BUKB20201", "+44 20 79"}
)

// ReleaseCorpus builds the documents of broken words, of kind "release".
func ReleaseCorpus() ([]Case, error) {
	var out []Case
	for _, c := range []struct {
		name string
		gen  func() ([]byte, error)
		pii  []string
	}{
		{"release-spaced-phone", SpacedPhone, spacedPhonePII},
		{"release-zwsp-email", ZeroWidthEmail, zwspEmailPII},
		{"release-edge-cut-iban", EdgeCut, edgeCutPII},
	} {
		pdf, err := c.gen()
		if err != nil {
			return nil, fmt.Errorf("visible: case %s: %w", c.name, err)
		}
		out = append(out, Case{Name: c.name, Kind: "release", PDF: pdf, PII: c.pii})
	}
	return out, nil
}

// SpacedPhone is a phone number drawn one glyph at a time, each its own
// text object, spaced 6 pt apart beyond the font's advance (as form
// fillers and some typesetters place digits): the layer gives one word a
// digit, and a reader sees the number.
func SpacedPhone() ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 720)
	const size, y = 12.0, 600.0
	textOp(&c, "F1", size, 72, y, 0, 0, "Phone:")
	x := 72 + testpdf.StringWidth("Phone: ", size)
	for _, r := range spacedPhonePII[0] {
		if r != ' ' {
			textOp(&c, "F1", size, x, y, 0, 0, string(r))
		}
		x += testpdf.StringWidth(string(r), size) + 6
	}
	body(&c, 500)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}

// zwspCMap is identityCMap with the space's code mapped to U+200B, the
// zero-width space.
const zwspCMap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Zw def\n1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfchar <20> <200B> endbfchar\n1 beginbfrange <21> <7E> <0021> endbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end\n"

// ZeroWidthEmail is an e-mail address with a zero-width space before its
// "@": the font's space, mapped to U+200B by its ToUnicode map, its
// advance taken back by the TJ array, so a reader sees the address
// whole and the layer gives "lucinda.hargreave\u200b@fernleigh-trust.org".
func ZeroWidthEmail() ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	f2 := d.helvetica(zwspCMap)
	var c bytes.Buffer
	body(&c, 720)
	const size, y = 12.0, 600.0
	textOp(&c, "F1", size, 72, y, 0, 0, "E-mail:")
	local, domain, _ := strings.Cut(zwspEmailPII[0], "@")
	fmt.Fprintf(&c, "BT /F2 %g Tf %g %g Td [(%s ) %d (@%s)] TJ ET\n", size, 72+testpdf.StringWidth("E-mail: ", size), y,
		pdfEscape(local), testpdf.RuneWidth(' '), pdfEscape(domain))
	body(&c, 500)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R /F2 %d 0 R >>", f1, f2))
	return d.bytes(), nil
}

// EdgeCut is a page whose right edge cuts two lines: an IBAN after its
// bank code and a phone number after its area code, the rest drawn past
// the page. What a reader sees fails every checksum and numbering plan.
func EdgeCut() ([]byte, error) {
	var d vdoc
	f1 := d.helvetica("")
	var c bytes.Buffer
	body(&c, 720)
	const size = 12.0
	lines := []struct{ seen, rest string }{
		{"Payment to IBAN " + edgeCutPII[0], "555555555"},
		{"Call the branch on " + edgeCutPII[1], "46 0958"},
	}
	for i, l := range lines {
		// The last visible glyph is cut a point before its end.
		x := 612 + 1 - testpdf.StringWidth(l.seen, size)
		textOp(&c, "F1", size, x, 600-float64(i)*24, 0, 0, l.seen+l.rest)
	}
	body(&c, 500)
	d.page(c.Bytes(), fmt.Sprintf("/Font << /F1 %d 0 R >>", f1))
	return d.bytes(), nil
}
