package pattern

import (
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Text the page's edge cuts. A number printed past the right or bottom
// edge of the page (a statement scanned or cropped short, a form printed
// off its margin) shows only its beginning: "GB33 BUKB 2020 1" of an
// IBAN, "4111 1111 11" of a card, "+44 20 79" of a phone number. What is
// left fails its checksum or numbering plan, so the validated recognizers
// pass it by, yet the prefix is the part that identifies: the bank, the
// issuer, the country and area. FindEdgeCut masks such a prefix when,
// and only when, the page's edge cuts it; elsewhere the same text is an
// ordinary number and validation decides.
//
// The rule, for a line whose last word reaches the right edge (a run
// must then go on to the end of the line: only punctuation, a cut glyph
// or an ellipsis, may follow it), or whose words reach the bottom edge
// (any run on it):
//
//   - IBAN: a known country code in capitals, two check digits and at
//     least four more letters or digits, compact or in groups of four,
//     no longer than the country's IBAN;
//   - CreditCard: at least 8 digits starting with 2 to 6 (the issuers'
//     first digits), compact or in groups of four;
//   - PhoneNumber: "+" or "00" and a country code's first digit, then at
//     least 6 digits in all; or "0" or "(" and at least 8 digits, with
//     spaces, dashes, dots, slashes and parentheses between them.

// edgeScore is the score of an edge-cut span: below the validated
// recognizers', since no check confirms it.
const edgeScore = 0.8

// FindEdgeCut finds PII-shaped prefixes the page's right or bottom edge
// cuts (see above). It needs the page's geometry: a view without a page
// size (plain text) finds nothing.
func FindEdgeCut(v *view.View) []page.Span {
	if v.Width <= 0 || v.Height <= 0 {
		return nil
	}
	t := v.Text
	var out []page.Span
	for k := 0; k < v.Lines(); k++ {
		f, e := v.Line(k)
		if f == e {
			continue
		}
		right := nearEdge(v.Word(e-1), v.Width, v.Height, true)
		bottom := false
		for i := f; i < e && !bottom; i++ {
			bottom = nearEdge(v.Word(i), v.Width, v.Height, false)
		}
		if !right && !bottom {
			continue
		}
		ls, le := v.LineRange(k)
		line := t[:le]
		for i := ls; i < le; i++ {
			c := t[i]
			if !view.IsAlnumByte(c) && c != '+' && c != '(' || view.WordCharBefore(t, i) {
				continue
			}
			cat, end, ok := edgePrefix(line, i)
			if !ok {
				continue
			}
			if right && onlyPunct(t[end:le]) {
				end = le // to the edge: a cut glyph may read as punctuation
			} else if !bottom {
				continue
			}
			if sp, ok := v.Span(i, end, cat, edgeScore, "edge-cut"); ok {
				out = append(out, sp)
			}
			i = end - 1
		}
	}
	return out
}

// nearEdge reports whether w's box reaches the page's right edge (right)
// or its bottom edge, or past it, to within half the word's height: the
// last glyph a reader sees is cut there, and OCR's box of it ends at the
// last inked pixel, a little inside.
func nearEdge(w *page.Word, width, height float64, right bool) bool {
	b := w.Quad.Bounds()
	tol := max(1, 0.5*(b.Y1-b.Y0))
	if right {
		return b.X1 >= width-tol && b.X1 > b.X0
	}
	return b.Y1 >= height-tol && b.Y1 > b.Y0
}

// onlyPunct reports whether s holds no letter or digit.
func onlyPunct(s string) bool {
	for _, r := range s {
		if view.IsWordRune(r) {
			return false
		}
	}
	return true
}

// edgePrefix reads the PII-shaped prefix starting at t[i], if any (see
// FindEdgeCut), and returns its category and end.
func edgePrefix(t string, i int) (page.Category, int, bool) {
	c := t[i]
	switch {
	case c >= 'A' && c <= 'Z':
		if end, ok := ibanPrefix(t, i); ok {
			return page.IBAN, end, true
		}
	case c >= '2' && c <= '6':
		if end, ok := cardPrefix(t, i); ok {
			return page.CreditCard, end, true
		}
	case c == '+' || c == '0' || c == '(':
		if end, ok := phonePrefix(t, i); ok {
			return page.PhoneNumber, end, true
		}
	}
	return "", 0, false
}

// ibanPrefix collects an IBAN's beginning from t[i]: country code, check
// digits and at least four alphanumerics, compact or in groups of four
// split by single spaces or dashes (a cut line has no way to tell a
// looser grouping from the words after it), at most the country's length.
func ibanPrefix(t string, i int) (int, bool) {
	if i+4 > len(t) || !(t[i+1] >= 'A' && t[i+1] <= 'Z') || !view.IsDigit(t[i+2]) || !view.IsDigit(t[i+3]) {
		return 0, false
	}
	n, ok := ibanLengths[t[i:i+2]]
	if !ok {
		return 0, false
	}
	k, group, j := 0, 0, i
	for j < len(t) && k < n {
		c := t[j]
		switch {
		case view.IsAlnumByte(c):
			k++
			group++
			j++
		case (c == ' ' || c == '-') && group == 4 && j+1 < len(t) && view.IsAlnumByte(t[j+1]):
			group = 0
			j++
		default:
			return j, k >= 8 && !view.WordCharAt(t, j)
		}
	}
	return j, k >= 8 && !view.WordCharAt(t, j)
}

// cardPrefix collects at least 8 digits from t[i], compact or in groups
// of four split by one kind of separator (the last group may be short).
func cardPrefix(t string, i int) (int, bool) {
	n, group, j := 0, 0, i
	var sep byte
	for j < len(t) && n < 19 {
		c := t[j]
		if view.IsDigit(c) {
			n++
			group++
			j++
			continue
		}
		if (c == ' ' || c == '-') && group == 4 && (sep == 0 || sep == c) && j+1 < len(t) && view.IsDigit(t[j+1]) {
			sep, group = c, 0
			j++
			continue
		}
		break
	}
	// Compact runs may have any grouping; grouped ones were checked above.
	return j, n >= 8 && !view.WordCharAt(t, j)
}

// phonePrefix collects a phone number's beginning from t[i]: "+" or "00"
// and a non-zero digit with at least 6 digits in all, or "0" or "(" with
// at least 8, with single separators between digit groups.
func phonePrefix(t string, i int) (int, bool) {
	need := 8
	switch {
	case t[i] == '+':
		if i+1 >= len(t) || t[i+1] < '1' || t[i+1] > '9' {
			return 0, false
		}
		need = 6
	case i+2 < len(t) && t[i] == '0' && t[i+1] == '0' && t[i+2] >= '1' && t[i+2] <= '9':
		need = 6
	}
	n, j := 0, i
	if t[j] == '+' || t[j] == '(' {
		j++
	}
	for j < len(t) {
		c := t[j]
		switch {
		case view.IsDigit(c):
			n++
			j++
			continue
		case c == ' ' || c == '-' || c == '.' || c == '/' || c == '(' || c == ')':
			if next := j + 1; next < len(t) && (view.IsDigit(t[next]) || c == ')' && t[next] == ' ' || c == ' ' && t[next] == '(') {
				j++
				continue
			}
		}
		break
	}
	end := j
	if end > i && t[end-1] == ' ' {
		end--
	}
	if n < need || view.WordCharAt(t, end) {
		return 0, false
	}
	return end, true
}
