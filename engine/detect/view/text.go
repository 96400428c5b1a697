package view

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// PageFromText builds a page whose words are the whitespace-separated runs
// of text, one line per '\n'-separated line, and returns with it each
// word's byte offset in text. Each word gets the box a monospaced font
// would give it (textQuad), so that a blank line breaks a paragraph as a
// wider gap does on a PDF's page (View.FlowsOn). Tests, the evaluation
// and debugging tools use it to run detectors on plain text.
func PageFromText(text string) (*page.Page, []int) {
	p := &page.Page{}
	var offs []int
	line := 0
	for off := 0; off <= len(text); {
		nl := strings.IndexByte(text[off:], '\n')
		end := len(text)
		if nl >= 0 {
			end = off + nl
		}
		l := text[off:end]
		for i := 0; i < len(l); {
			r, n := utf8.DecodeRuneInString(l[i:])
			if unicode.IsSpace(r) {
				i += n
				continue
			}
			j := i
			for j < len(l) {
				r, n := utf8.DecodeRuneInString(l[j:])
				if unicode.IsSpace(r) {
					break
				}
				j += n
			}
			p.Words = append(p.Words, page.Word{Text: l[i:j], Line: line, Conf: 1, Quad: textQuad(line, i, j)})
			offs = append(offs, off+i)
			i = j
		}
		line++
		if nl < 0 {
			break
		}
		off = end + 1
	}
	return p, offs
}

// textQuad is the box of the bytes [i, j) of line ln of a plain text in
// a monospaced font: textCellW points a byte, lines textLineH points
// apart, each textCellH high, so lines that follow each other flow on and a
// blank line between two opens a new paragraph.
func textQuad(ln, i, j int) page.Quad {
	x0, x1 := float64(i)*textCellW, float64(j)*textCellW
	y0 := float64(ln) * textLineH
	y1 := y0 + textCellH
	return page.Quad{UL: page.Point{X: x0, Y: y0}, UR: page.Point{X: x1, Y: y0}, LL: page.Point{X: x0, Y: y1}, LR: page.Point{X: x1, Y: y1}}
}

const (
	textCellW = 6.0
	textCellH = 10.0
	textLineH = 12.0
)

// EndsSentence reports whether word i ends a sentence: it ends in a full
// stop, question or exclamation mark, before any closing quotes or
// brackets ("home.", "you?", "ok!\""). It is the one sentence-end
// predicate; address growth narrows it for abbreviations
// (engine/detect/rules, endsAddressSentence: "Apt. 676", "St. John").
func EndsSentence(v *View, i int) bool {
	tail := strings.TrimRight(v.WordText(i), `"')”’\`)
	return strings.HasSuffix(tail, ".") || strings.HasSuffix(tail, "!") || strings.HasSuffix(tail, "?")
}
