package view

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// Small character and word helpers shared by the recognizers and rules.

// IsDigit reports whether b is an ASCII digit.
func IsDigit(b byte) bool { return b >= '0' && b <= '9' }

// IsAlnumByte reports whether b is an ASCII letter or digit.
func IsAlnumByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// WordCharBefore reports whether the rune ending at s[:i] is a letter or
// digit: i is then not at a word boundary.
func WordCharBefore(s string, i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return IsWordRune(r)
}

// WordCharAt reports whether the rune starting at s[i:] is a letter or digit.
func WordCharAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return IsWordRune(r)
}

// IsCapitalised reports whether w starts with an upper-case letter.
func IsCapitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// IsAllUpper reports whether w has letters and all of them are upper case.
func IsAllUpper(w string) bool {
	letters := false
	for _, r := range w {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters = true
		}
	}
	return letters
}

// HasDigit reports whether s contains an ASCII digit.
func HasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if IsDigit(s[i]) {
			return true
		}
	}
	return false
}

func isWordByteStart(b byte) bool { return b >= 'a' && b <= 'z' || b >= 0x80 }

// Core returns word i of v without leading and trailing punctuation, as a
// byte range of Text.
func (v *View) Core(i int) (int, int) { return int(v.cs[i]), int(v.ce[i]) }

// CoreSpan is the span of words first..last (view indices) without the
// punctuation before the first and after the last.
func (v *View) CoreSpan(first, last int, c page.Category, score float32, rec string) (page.Span, bool) {
	s, _ := v.Core(first)
	_, e := v.Core(last)
	if s >= e {
		return v.WordSpan(first, last, c, score, rec), true
	}
	return v.Span(s, e, c, score, rec)
}

// CoreLower is word i's core in lower case.
func (v *View) CoreLower(i int) string {
	s, e := v.Core(i)
	return v.Lower[s:e]
}

// CoreText is word i's core as written.
func (v *View) CoreText(i int) string {
	s, e := v.Core(i)
	return v.Text[s:e]
}

// LineContext reports whether any of words occurs (as a whole word, lower
// case) on word i's line or the line before it. Recognizers use it to
// accept weaker matches next to a label such as "Tel." or "Address:".
func (v *View) LineContext(i int, words map[string]bool) bool {
	k := v.LineOf(i)
	from, _ := v.Line(max(0, k-1))
	_, to := v.Line(k)
	for j := from; j < to; j++ {
		w := v.WordLower(j)
		if words[w] {
			return true
		}
		// Labels glued to punctuation or to the value: "tel.:", "phone:+1".
		s, e := 0, len(w)
		for s < e && !isWordByteStart(w[s]) {
			s++
		}
		t := s
		for t < e && (w[t] >= 'a' && w[t] <= 'z' || w[t] >= 0x80 || w[t] == '-') {
			t++
		}
		if t > s && words[w[s:t]] {
			return true
		}
	}
	return false
}

// ByteRange converts a span of the page to a byte range of Text; false when
// the span lies outside the view.
func (v *View) ByteRange(s page.Span) (start, end int, ok bool) {
	f, l := s.First-v.First, s.Last-v.First
	if f < 0 || l >= len(v.words) || f > l {
		return 0, 0, false
	}
	start = runeByte(v.WordText(f), s.Start) + int(v.start[f])
	end = int(v.end[l])
	if s.End > 0 {
		end = runeByte(v.WordText(l), s.End) + int(v.start[l])
	}
	return start, end, start < end
}

// runeByte is the byte offset of rune n of s (len(s) past the end).
func runeByte(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// LineFirst is the index of the first word on word i's line.
func (v *View) LineFirst(i int) int { f, _ := v.Line(v.LineOf(i)); return f }

// LineEnd is the index past the last word on word i's line.
func (v *View) LineEnd(i int) int { _, e := v.Line(v.LineOf(i)); return e }

// CoreStart is the byte offset in Text where word i's core starts (Core).
func (v *View) CoreStart(i int) int { s, _ := v.Core(i); return s }

// CoreEnd is the byte offset in Text where word i's core ends (Core).
func (v *View) CoreEnd(i int) int { _, e := v.Core(i); return e }

// WordEnd is the byte offset in Text where word i ends.
func (v *View) WordEnd(i int) int { _, e := v.WordRange(i); return e }

// FlowsOn reports whether line ln of v goes on at line ln+1 as the same
// paragraph: the gap between them is less than about half a line's
// height. A paragraph break (a wider gap) ends a name or an address that
// ends line ln, and so does a line starting with one of itemMarks
// (">Acme", "• Acme": a new item). Words without geometry (plain text)
// always flow on otherwise.
func (v *View) FlowsOn(ln int) bool {
	if ln+1 >= v.Lines() {
		return false
	}
	a, _ := v.Line(ln)
	b, _ := v.Line(ln + 1)
	if r, _ := utf8.DecodeRuneInString(v.Word(b).Text); strings.ContainsRune(itemMarks, r) {
		return false
	}
	ra, rb := v.Word(a).Quad.Bounds(), v.Word(b).Quad.Bounds()
	h := ra.Y1 - ra.Y0
	if h <= 0 || rb.Y1-rb.Y0 <= 0 {
		return true
	}
	gap := max(rb.Y0-ra.Y1, ra.Y0-rb.Y1)
	return gap <= 0.6*h
}

// IsWordRune reports whether r is part of a word: a letter or a digit.
func IsWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
