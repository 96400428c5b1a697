package detect

import (
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// normTerm lower-cases a caller's term the way View.Lower is built and
// collapses its whitespace to single spaces, so that a term typed as
// "Acme  Corp" matches the words "Acme" and "Corp" on one line or two.
func normTerm(t string) string {
	return view.LowerSameLen(strings.Join(strings.Fields(t), " "))
}

// termRanges returns the byte ranges of Text where any of terms occurs as
// whole words, case-insensitively. Line breaks count as spaces.
func termRanges(v *View, terms []string) [][2]int {
	if len(terms) == 0 || len(v.Text) == 0 {
		return nil
	}
	hay := strings.ReplaceAll(v.Lower, "\n", " ")
	var out [][2]int
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		t = normTerm(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		first, _ := utf8.DecodeRuneInString(t)
		last, _ := utf8.DecodeLastRuneInString(t)
		checkBefore, checkAfter := view.IsWordRune(first), view.IsWordRune(last)
		for off := 0; off < len(hay); {
			i := strings.Index(hay[off:], t)
			if i < 0 {
				break
			}
			s, e := off+i, off+i+len(t)
			off = s + 1
			if checkBefore && s > 0 {
				if r, _ := utf8.DecodeLastRuneInString(hay[:s]); view.IsWordRune(r) {
					continue
				}
			}
			if checkAfter && e < len(hay) {
				if r, _ := utf8.DecodeRuneInString(hay[e:]); view.IsWordRune(r) {
					continue
				}
			}
			out = append(out, [2]int{s, e})
		}
	}
	return out
}

// findTerms returns one span per occurrence of terms.
func findTerms(v *View, terms []string, c page.Category, score float32, rec string) []page.Span {
	var out []page.Span
	for _, r := range termRanges(v, terms) {
		if s, ok := v.Span(r[0], r[1], c, score, rec); ok {
			out = append(out, s)
		}
	}
	return out
}

// dropExcluded removes spans whose text, without surrounding punctuation,
// lies within an occurrence of an excluded term.
func dropExcluded(v *View, ss []page.Span, excluded []string) []page.Span {
	occ := termRanges(v, excluded)
	if len(occ) == 0 {
		return ss
	}
	out := ss[:0]
	for _, s := range ss {
		bs, be, ok := v.ByteRange(s)
		if ok {
			bs, be = view.TrimPunct(v.Text, bs, be)
		}
		if ok && withinAny(bs, be, occ) {
			continue
		}
		out = append(out, s)
	}
	return out
}

func withinAny(s, e int, occ [][2]int) bool {
	for _, o := range occ {
		if s >= o[0] && e <= o[1] {
			return true
		}
	}
	return false
}
