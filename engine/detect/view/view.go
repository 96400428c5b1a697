package view

import (
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
)

// View is the text of a run of consecutive lines of a page, built so that
// pattern matches on the text map back to words: words of a line are joined
// by one space and lines by one newline, so a pattern that must stay on one
// line simply never crosses '\n', and one that may span lines (addresses,
// names in a letterhead) allows it.
//
// Lower is Text lower-cased rune by rune, keeping every rune's byte length
// (runes whose lower case has another length are left alone), so offsets
// into Lower are offsets into Text and case-insensitive matching costs one
// conversion per page rather than one per recognizer.
type View struct {
	Text  string
	Lower string
	// First is the page index of the view's first word.
	First int
	// Width and Height are the page's size in points (0 when the page
	// has no geometry, as PageFromText's): what a recognizer needs to
	// tell text the page's edge cuts (pattern.FindEdgeCut).
	Width, Height float64

	words []page.Word
	start []int32 // byte offset of word i in Text
	end   []int32 // byte offset just past word i
	// cs, ce are word i's core: its bytes without leading and trailing
	// punctuation (TrimPunct), which most recognizers look at.
	cs, ce []int32
	line   []int32 // ordinal of word i's line within the view
	// lines[k] is [first word, end word) of the view's k-th line.
	lines [][2]int32

	// The blocks and their languages, found on first use (lang.go).
	langOnce  sync.Once
	lineBlock []int32 // block of each line
	blockLang []lang.Result
	langHint  lang.Code // SetLangHint
}

// PageView is the view over all lines of p.
func PageView(p *page.Page) *View { return NewView(p, 0, len(p.Words)) }

// NewView builds the view of words [first, end) of p. Whitespace inside a
// word (which a producer should not emit) is replaced by '_' so that it
// cannot be mistaken for a word or line separator.
func NewView(p *page.Page, first, end int) *View {
	first = max(0, min(first, len(p.Words)))
	end = max(first, min(end, len(p.Words)))
	ws := p.Words[first:end]
	v := &View{
		First:  first,
		Width:  p.Width,
		Height: p.Height,
		words:  ws,
		start:  make([]int32, len(ws)),
		end:    make([]int32, len(ws)),
		cs:     make([]int32, len(ws)),
		ce:     make([]int32, len(ws)),
		line:   make([]int32, len(ws)),
	}
	n := 0
	for i := range ws {
		n += len(ws[i].Text) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for i := range ws {
		if i > 0 {
			if ws[i].Line != ws[i-1].Line {
				b.WriteByte('\n')
				v.lines[len(v.lines)-1][1] = int32(i)
				v.lines = append(v.lines, [2]int32{int32(i), int32(i)})
			} else {
				b.WriteByte(' ')
			}
		} else {
			v.lines = append(v.lines, [2]int32{0, 0})
		}
		v.start[i] = int32(b.Len())
		writeWord(&b, ws[i].Text)
		v.end[i] = int32(b.Len())
		v.line[i] = int32(len(v.lines) - 1)
	}
	if len(v.lines) > 0 {
		v.lines[len(v.lines)-1][1] = int32(len(ws))
	}
	v.Text = b.String()
	v.Lower = LowerSameLen(v.Text)
	for i := range ws {
		s, e := TrimPunct(v.Text, int(v.start[i]), int(v.end[i]))
		v.cs[i], v.ce[i] = int32(s), int32(e)
	}
	return v
}

func writeWord(b *strings.Builder, s string) {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean || strings.IndexFunc(s, unicode.IsSpace) < 0 {
		b.WriteString(s)
		return
	}
	for _, r := range s {
		if unicode.IsSpace(r) {
			// Same byte length as r, so rune offsets into the word hold.
			b.WriteString(strings.Repeat("_", utf8.RuneLen(r)))
			continue
		}
		b.WriteRune(r)
	}
}

// LowerSameLen lower-cases s rune by rune, leaving runes whose lower case
// has a different UTF-8 length unchanged.
func LowerSameLen(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		l := unicode.ToLower(r)
		if utf8.RuneLen(l) != utf8.RuneLen(r) {
			l = r
		}
		b = utf8.AppendRune(b, l)
	}
	return string(b)
}

// Len is the number of words in the view.
func (v *View) Len() int { return len(v.words) }

// Word returns the view's i-th word (page index First+i).
func (v *View) Word(i int) *page.Word { return &v.words[i] }

// WordRange is the byte range of word i in Text.
func (v *View) WordRange(i int) (start, end int) { return int(v.start[i]), int(v.end[i]) }

// WordText is word i as it appears in Text.
func (v *View) WordText(i int) string { return v.Text[v.start[i]:v.end[i]] }

// WordLower is word i as it appears in Lower.
func (v *View) WordLower(i int) string { return v.Lower[v.start[i]:v.end[i]] }

// LineOf is the ordinal, within the view, of word i's line.
func (v *View) LineOf(i int) int { return int(v.line[i]) }

// Lines is the number of lines in the view.
func (v *View) Lines() int { return len(v.lines) }

// Line returns line k's words [first, end) as view indices.
func (v *View) Line(k int) (first, end int) { return int(v.lines[k][0]), int(v.lines[k][1]) }

// LineRange is the byte range of line k in Text (without its newline).
func (v *View) LineRange(k int) (start, end int) {
	f, e := v.Line(k)
	if f == e {
		return 0, 0
	}
	return int(v.start[f]), int(v.end[e-1])
}

// WordAt returns the view index of the word containing byte offset off, or
// of the word that follows when off falls on a separator; Len() when none.
func (v *View) WordAt(off int) int {
	// First word whose end is beyond off.
	return sort.Search(len(v.end), func(i int) bool { return int(v.end[i]) > off })
}

// wordBefore returns the view index of the last word starting before off
// (the word holding byte off-1 or the one just before the separator).
func (v *View) wordBefore(off int) int {
	return sort.Search(len(v.start), func(i int) bool { return int(v.start[i]) >= off }) - 1
}

// Span converts the byte range [start, end) of Text to a span on the page.
// Ranges that begin or end inside a word give a partial span (rune offsets
// in Start/End); a range that covers no word gives false.
func (v *View) Span(start, end int, c page.Category, score float32, recognizer string) (page.Span, bool) {
	start = max(0, start)
	end = min(len(v.Text), end)
	// Offsets inside a rune (a term or pattern matched part of a
	// multi-byte character) widen to whole runes, so the span's rune
	// offsets stay within its words.
	for start > 0 && start < len(v.Text) && !utf8.RuneStart(v.Text[start]) {
		start--
	}
	for end < len(v.Text) && !utf8.RuneStart(v.Text[end]) {
		end++
	}
	if start >= end {
		return page.Span{}, false
	}
	f := v.WordAt(start)
	l := v.wordBefore(end)
	if f >= len(v.words) || l < f {
		return page.Span{}, false
	}
	s := page.Span{First: v.First + f, Last: v.First + l, Category: c, Score: score, Recognizer: recognizer}
	if ws := int(v.start[f]); start > ws {
		s.Start = utf8.RuneCountInString(v.Text[ws:start])
	}
	if we := int(v.end[l]); end < we {
		s.End = utf8.RuneCountInString(v.Text[v.start[l]:end])
		if l == f && s.End <= s.Start {
			return page.Span{}, false
		}
	}
	return s, true
}

// WordSpan is the span of whole words [first, last] (view indices).
func (v *View) WordSpan(first, last int, c page.Category, score float32, recognizer string) page.Span {
	return page.Span{First: v.First + first, Last: v.First + last, Category: c, Score: score, Recognizer: recognizer}
}

// SpanWords returns the view indices of the first and last words of s
// that lie in v (last < first when none does): the inverse of WordSpan.
func (v *View) SpanWords(s page.Span) (first, last int) {
	return max(s.First-v.First, 0), min(s.Last-v.First, len(v.words)-1)
}

// trailing and leading punctuation that is never part of an entity;
// itemMarks start an item of their own: an e-mail quote mark (">John
// Smith" in a quoted reply) or a bullet.
const (
	trailPunct = ".,;:!?'\"»”’)]}>"
	itemMarks  = ">•"
	leadPunct  = "([{<«“‘'\"" + itemMarks
)

// TrimPunct narrows [start, end) of s past leading opening punctuation and
// trailing closing punctuation; a closing bracket stays when its opening
// bracket is inside the range, as in "(555) 123" or "Müller (GmbH)".
func TrimPunct(s string, start, end int) (int, int) {
	// Fast path: a word that starts and ends with a letter or digit.
	if start < end && IsAlnumByte(s[start]) && IsAlnumByte(s[end-1]) {
		return start, end
	}
	for start < end {
		r, n := utf8.DecodeRuneInString(s[start:end])
		if !strings.ContainsRune(leadPunct, r) {
			break
		}
		if r == '(' || r == '[' || r == '{' || r == '<' {
			if closes(s[start:end], r) {
				break
			}
		}
		start += n
	}
	for end > start {
		r, n := utf8.DecodeLastRuneInString(s[start:end])
		if !strings.ContainsRune(trailPunct, r) {
			break
		}
		if r == ')' || r == ']' || r == '}' || r == '>' {
			if strings.Count(s[start:end], string(opening(r))) >= strings.Count(s[start:end], string(r)) {
				break
			}
		}
		end -= n
	}
	return start, end
}

func opening(r rune) rune {
	switch r {
	case ')':
		return '('
	case ']':
		return '['
	case '}':
		return '{'
	}
	return '<'
}

func closes(s string, open rune) bool {
	var c rune
	switch open {
	case '(':
		c = ')'
	case '[':
		c = ']'
	case '{':
		c = '}'
	default:
		c = '>'
	}
	return strings.ContainsRune(s, c)
}
