package detect

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Included and excluded terms match the page's words in Unicode NFC and
// case-folded form (Unicode simple case folding), whatever the caller
// typed and however the text layer or OCR spelt it: "Müller" typed with a
// precomposed ü matches a text layer's u + combining diaeresis, "großmann"
// matches "GROẞMANN". ß folds to "ss" as Unicode's full case folding has
// it, since German writes ß in capitals as SS: "Straße" matches "STRASSE"
// and "Strasse", "Großmann" "GROSSMANN". Letters with diacritics stay distinct letters:
// "Muller" does not match "Müller", nor "Isil" "Işıl" (the interface's
// terms are exact strings, and a looser match would mask other people's
// names). The one exception is Romanian's comma below: ş and ș, ţ and ț
// are one letter (see cedillaToComma). Options.IgnoreDiacritics (off by default) loosens this for an
// operator who asks: marks are dropped and stroked letters and ligatures
// spelt out on both sides (see stripMarks).

// normTerm puts a caller's term in the form termRanges searches: NFC,
// case-folded, whitespace collapsed to single spaces, so that a term
// typed as "Acme  Corp" matches the words "Acme" and "Corp" on one line
// or two.
func normTerm(t string, loose bool) string {
	return foldText(strings.Join(strings.Fields(t), " "), loose).s
}

// folded is a text in NFC with every rune case-folded; start[i], end[i]
// are the byte range of the original text that byte i of s comes from
// (its NFC segment), so a match in s maps back to whole source runes.
type folded struct {
	s          string
	start, end []int32
}

// foldText folds text (see folded); loose also strips diacritics
// (stripMarks).
func foldText(text string, loose bool) folded {
	b := make([]byte, 0, len(text))
	start := make([]int32, 0, len(text))
	end := make([]int32, 0, len(text))
	var it norm.Iter
	it.InitString(norm.NFC, text)
	for !it.Done() {
		p0 := it.Pos()
		seg := it.Next()
		p1 := it.Pos()
		n := len(b)
		if loose {
			seg = stripMarks(seg)
		}
		for len(seg) > 0 {
			r, size := utf8.DecodeRune(seg)
			seg = seg[size:]
			if f := foldRune(r); f == 'ß' {
				b = append(b, "ss"...) // full case folding: STRASSE is Straße in capitals
			} else {
				b = utf8.AppendRune(b, f)
			}
		}
		for range len(b) - n {
			start = append(start, int32(p0))
			end = append(end, int32(p1))
		}
	}
	return folded{s: string(b), start: start, end: end}
}

// foldRune maps r to one member of its case-folding orbit (the lower case
// of the orbit's least rune): K, k and the Kelvin sign to k; ß and ẞ to
// ß; Σ, σ and ς to σ. Runes without an orbit (ı) stay themselves. The
// cedilla letters ş and ţ fold to Romanian's comma-below ș and ț (see
// cedillaToComma).
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	r = unicode.ToLower(least)
	if c, ok := cedillaToComma[r]; ok {
		return c
	}
	return r
}

// cedillaToComma folds the letters with a cedilla that stand for
// Romanian's ș and ț. Romanian writes a comma below; legacy code pages,
// fonts and keyboards had only the cedilla forms, so text layers spell
// "Ştefan" as often as "Ștefan", and at scanning resolutions the two
// marks are a few pixels apart, so OCR reads either. They are one letter
// for matching an operator's terms. Turkish ş (Şükrü), the same code
// point, matches ș too: no two names differ only there.
var cedillaToComma = map[rune]rune{'ş': 'ș', 'ţ': 'ț'}

// termRanges returns the byte ranges of Text where any of terms occurs as
// whole words, compared in NFC and case-folded form. Line breaks count as
// spaces.
func termRanges(v *View, terms []string, loose bool) [][2]int {
	if len(terms) == 0 || len(v.Text) == 0 {
		return nil
	}
	f := foldText(v.Text, loose)
	hay := strings.ReplaceAll(f.s, "\n", " ")
	var out [][2]int
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		t = normTerm(t, loose)
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
				// A combining mark after the match belongs to its last letter.
				if r, _ := utf8.DecodeRuneInString(hay[e:]); view.IsWordRune(r) || unicode.Is(unicode.Mn, r) {
					continue
				}
			}
			out = append(out, [2]int{int(f.start[s]), int(f.end[e-1])})
		}
	}
	return out
}

// stripMarks spells an NFC segment without diacritics: its canonical
// decomposition less the combining marks, and the letters written with a
// stroke or as ligatures, which have no decomposition, spelt out (ø o,
// ł l, đ d, ß ss, æ ae, þ th).
func stripMarks(seg []byte) []byte {
	var out []byte
	for _, r := range string(norm.NFD.Bytes(seg)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if s, ok := unmarked[r]; ok {
			out = append(out, s...)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

// unmarked spells the Latin letters without a canonical decomposition.
var unmarked = map[rune]string{
	'ø': "o", 'Ø': "O", 'ł': "l", 'Ł': "L", 'đ': "d", 'Đ': "D", 'ð': "d", 'Ð': "D", 'ħ': "h", 'Ħ': "H",
	'ŧ': "t", 'Ŧ': "T", 'ı': "i", 'ŀ': "l", 'Ŀ': "L", 'ß': "ss", 'ẞ': "SS", 'æ': "ae", 'Æ': "AE",
	'œ': "oe", 'Œ': "OE", 'þ': "th", 'Þ': "TH", 'ĳ': "ij", 'Ĳ': "IJ", 'ŉ': "n", 'ĸ': "k",
}

// findTerms returns one span per occurrence of terms.
func findTerms(v *View, terms []string, loose bool, c page.Category, score float32, rec string) []page.Span {
	var out []page.Span
	for _, r := range termRanges(v, terms, loose) {
		if s, ok := v.Span(r[0], r[1], c, score, rec); ok {
			out = append(out, s)
		}
	}
	return out
}

// dropExcluded removes spans whose text, without surrounding punctuation,
// lies within an occurrence of an excluded term.
func dropExcluded(v *View, ss []page.Span, excluded []string, loose bool) []page.Span {
	occ := termRanges(v, excluded, loose)
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
