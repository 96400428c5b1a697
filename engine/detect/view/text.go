package view

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// PageFromText builds a page whose words are the whitespace-separated runs
// of text, one line per '\n'-separated line, and returns with it each
// word's byte offset in text. Words get no geometry. Tests, the evaluation
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
			p.Words = append(p.Words, page.Word{Text: l[i:j], Line: line, Conf: 1})
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

// EndsSentence reports whether word i ends a sentence: it ends in a full
// stop, question or exclamation mark, before any closing quotes or
// brackets ("home.", "you?", "ok!\""). It is the one sentence-end
// predicate; address growth narrows it for abbreviations
// (engine/detect/rules, endsAddressSentence: "Apt. 676", "St. John").
func EndsSentence(v *View, i int) bool {
	tail := strings.TrimRight(v.WordText(i), `"')”’\`)
	return strings.HasSuffix(tail, ".") || strings.HasSuffix(tail, "!") || strings.HasSuffix(tail, "?")
}
