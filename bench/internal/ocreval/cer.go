// Package ocreval measures OCR systems on pages whose text is known: real
// PDF pages with a text layer, rendered to clean PNGs, read by redactd's
// OCR (models/ocr) and by Tesseract on the same files. The text layer is
// the truth; the score is a character error rate that does not depend on
// the order a system reads its lines in, and a word recall.
package ocreval

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Box is an axis-aligned rectangle in pixels, Y down.
type Box struct{ X0, Y0, X1, Y1 float64 }

func (b Box) cx() float64 { return (b.X0 + b.X1) / 2 }
func (b Box) cy() float64 { return (b.Y0 + b.Y1) / 2 }
func (b Box) h() float64  { return b.Y1 - b.Y0 }

func (b Box) union(o Box) Box {
	return Box{min(b.X0, o.X0), min(b.Y0, o.Y0), max(b.X1, o.X1), max(b.Y1, o.Y1)}
}

func (b Box) area() float64 { return max(0, b.X1-b.X0) * max(0, b.Y1-b.Y0) }

// iou is the area of the intersection over that of the union.
func (b Box) iou(o Box) float64 {
	in := Box{max(b.X0, o.X0), max(b.Y0, o.Y0), min(b.X1, o.X1), min(b.Y1, o.Y1)}.area()
	if in == 0 {
		return 0
	}
	return in / (b.area() + o.area() - in)
}

// Word is a word with its box: from the text layer or from a system.
type Word struct {
	Text string
	Box  Box
}

// Line is a line of the truth: its words, left to right, and the box
// around them.
type Line struct {
	Words []Word
	Box   Box
}

// Text is the line's normalised text: its words joined by single spaces.
func (l Line) Text() string {
	s := make([]string, len(l.Words))
	for i, w := range l.Words {
		s[i] = w.Text
	}
	return Normalize(strings.Join(s, " "))
}

// Padding of a truth line's box when matching words to it, as fractions
// of the line's height: a system's word box is often a little taller or
// wider than the font's, and its centre may sit off the text layer's.
const (
	padX = 0.5
	padY = 0.25
)

// Tally counts what Score measured; tallies of pages add up.
type Tally struct {
	Lines      int // truth lines
	Chars      int // runes of the truth lines, spaces between words included
	Edits      int // Levenshtein distance between truth and system lines
	TruthWords int
	Found      int // truth words the system read exactly on their line
	Extra      int // system words whose centre fell in no truth line
}

// Add adds o to t.
func (t *Tally) Add(o Tally) {
	t.Lines += o.Lines
	t.Chars += o.Chars
	t.Edits += o.Edits
	t.TruthWords += o.TruthWords
	t.Found += o.Found
	t.Extra += o.Extra
}

// CER is the character error rate: edits over truth characters (NaN
// without truth).
func (t Tally) CER() float64 {
	if t.Chars == 0 {
		return math.NaN()
	}
	return float64(t.Edits) / float64(t.Chars)
}

// Recall is the share of truth words read exactly (NaN without truth).
func (t Tally) Recall() float64 {
	if t.TruthWords == 0 {
		return math.NaN()
	}
	return float64(t.Found) / float64(t.TruthWords)
}

// Score compares a system's words with the truth lines of one page. Each
// system word goes to the truth line whose padded box holds its centre
// (the nearest one vertically when several do), so the order the system
// read its lines in does not matter; a line's words are joined left to
// right by single spaces. Words that land in no line (text the text layer
// lacks: logos, pictures) are counted as Extra, not as errors.
func Score(truth []Line, got []Word) Tally {
	var t Tally
	read, extra := assign(truth, got)
	t.Extra = extra
	for i, l := range truth {
		want := []rune(l.Text())
		have := []rune(read[i].Text())
		t.Lines++
		t.Chars += len(want)
		t.Edits += Levenshtein(want, have)
		wantW := strings.Fields(string(want))
		t.TruthWords += len(wantW)
		t.Found += common(wantW, strings.Fields(string(have)))
	}
	return t
}

// assign gives each system word to the truth line whose padded box holds
// its centre, the vertically nearest when several do, and returns what
// each line got, words left to right, and the number of words no line
// took.
func assign(truth []Line, got []Word) (read []Line, extra int) {
	read = make([]Line, len(truth))
	for _, w := range got {
		cx, cy := w.Box.cx(), w.Box.cy()
		best, bestD := -1, math.Inf(1)
		for i, l := range truth {
			px, py := padX*l.Box.h(), padY*l.Box.h()
			if cx < l.Box.X0-px || cx > l.Box.X1+px || cy < l.Box.Y0-py || cy > l.Box.Y1+py {
				continue
			}
			if d := math.Abs(cy - l.Box.cy()); d < bestD {
				best, bestD = i, d
			}
		}
		if best < 0 {
			extra++
			continue
		}
		read[best].Words = append(read[best].Words, w)
	}
	for i := range read {
		slices.SortStableFunc(read[i].Words, func(a, b Word) int { return cmp.Compare(a.Box.cx(), b.Box.cx()) })
	}
	return read, extra
}

// common is the size of the multiset intersection of a and b.
func common(a, b []string) int {
	have := map[string]int{}
	for _, w := range b {
		have[w]++
	}
	n := 0
	for _, w := range a {
		if have[w] > 0 {
			have[w]--
			n++
		}
	}
	return n
}

// typographic maps characters that a text layer and an OCR system may
// write either way to their plain ASCII forms. NFKC already handles
// ligatures (ﬁ), full-width forms, the ellipsis and no-break spaces.
var typographic = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'", "\u2032", "'", "`", "'", "\u00B4", "'",
	"\u201C", `"`, "\u201D", `"`, "\u201E", `"`, "\u201F", `"`, "\u2033", `"`, "\u00AB", `"`, "\u00BB", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u00AD", "", // soft hyphen: invisible
	"\u2022", "\u00B7", // bullets: one symbol for both
)

// Normalize prepares text for comparison: NFKC, typographic quotes,
// dashes and bullets mapped to one form, two apostrophes taken for a
// double quote, whitespace collapsed to single
// spaces and trimmed. Case is kept: reading "l" for "I" is an error.
func Normalize(s string) string {
	// Before NFKC (″ would become two primes) and after (NFKC turns a
	// non-breaking hyphen into U+2010).
	s = typographic.Replace(norm.NFKC.String(typographic.Replace(s)))
	s = strings.ReplaceAll(s, "''", `"`) // two apostrophes look like a double quote
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// Levenshtein is the edit distance between a and b in runes (insertions,
// deletions and substitutions cost one).
func Levenshtein(a, b []rune) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0] // row[i-1][j-1]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur := min(row[j]+1, row[j-1]+1, prev+cost)
			prev, row[j] = row[j], cur
		}
	}
	return row[len(b)]
}
