package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// listWords join listed names without belonging to either: a Person span
// that grew over one (coordinatedAfter) or that a model read as one
// ("Tom Clancy and Mario Puzo", Dutch "Rachel Weisz en Angelina Jolie")
// keeps the names masked and the word readable. "oder" and "ou" are "or"
// in German and in French and Portuguese ("William Jones ou Gaston
// Cœurdoux").
var listWords = map[string]bool{"and": true, "or": true, "&": true, "und": true, "en": true, "oder": true, "ou": true}

// pairWords join two names too ("Jared Padalecki e Jensen Ackles",
// "Mae Marsh et Florence Lawrence"), but they are also particles inside
// Spanish and Portuguese surnames ("Ortega y Gasset", "Ferreira e
// Silva", where "Silva" is a first name of the lists too): a span is cut
// at one only where it joins two people (pairCut).
var pairWords = map[string]bool{"e": true, "y": true, "et": true}

// opensFullName reports whether view words [i, last] open a person's
// full name: a capitalised first name (firstName) or title of the lists,
// or an initial ("F. Murray Abraham"), then another capitalised word.
func opensFullName(v *view.View, gz *gazetteer.Gazetteers, i, last int) bool {
	if i+1 > last || i+1 >= v.Len() || !view.IsCapitalised(v.CoreText(i+1)) {
		return false
	}
	return firstName(v, gz, i) || view.IsCapitalised(v.CoreText(i)) && gz.Titles.Has(v.CoreLower(i)) || dottedInitial(v, i)
}

// dottedInitial reports whether view word i is an initial written with
// its full stop ("F."): a lone capital without one may be an article or a
// pronoun ("A", "O", "I").
func dottedInitial(v *view.View, i int) bool {
	return isInitial(v.CoreText(i)) && v.WordText(i) != v.CoreText(i) && strings.HasSuffix(v.WordText(i), ".")
}

// pairCut reports whether the pairWord at view word i, inside a Person
// span of words [f, l], joins two people rather than two parts of one
// surname ("Ortega y Gasset", "Ferreira e Silva"): a full name follows it
// (opensFullName), reading on past the span's end into a capitalised word
// of its line where the model stopped short ("Moses Schönfinkel e
// Gottlob" / "Frege"); or a first name stands on each side of it
// ("Georges et Madeleine"); or two capitalised words stand on each side
// ("Jody Scheckter e Gilles Villeneuve"), where a double surname has one
// word after its particle.
func pairCut(v *view.View, gz *gazetteer.Gazetteers, i, f, l int) bool {
	last := l
	if n := l + 1; n < v.Len() && v.LineOf(n) == v.LineOf(l) && v.CoreEnd(l) == v.WordEnd(l) && view.IsCapitalised(v.CoreText(n)) {
		last = n
	}
	if opensFullName(v, gz, i+1, last) {
		return true
	}
	if i+1 > l || !view.IsCapitalised(v.CoreText(i+1)) {
		return false
	}
	if firstName(v, gz, i-1) && firstName(v, gz, i+1) {
		return true
	}
	return capitalisedWords(v, f, i-1) >= 2 && capitalisedWords(v, i+1, l) >= 2
}

// capitalisedWords counts the capitalised words among view words [f, l].
func capitalisedWords(v *view.View, f, l int) int {
	n := 0
	for k := max(f, 0); k <= l && k < v.Len(); k++ {
		if view.IsCapitalised(v.CoreText(k)) {
			n++
		}
	}
	return n
}

// dashCut reports whether view word i, inside a Person span opening at
// word f, is a dash or an ellipsis written as a word of its own that
// separates two names: an actor from a role, a name from the next in a
// list ("Natalia Cigliuti - Scarlett"). A dash stands in no name, but a
// tokenizer writes a name's hyphen as a word of its own ("al - Sadr",
// "Sacher - Masoch"): a hyphen cuts only after two words or more of the
// span, the last capitalised, and before a capitalised word; a dash
// ("–", "—") and an ellipsis cut wherever they stand.
func dashCut(v *view.View, i, f int) bool {
	switch w := v.WordText(i); {
	case w == "–" || w == "—" || w == "..." || w == "…":
		return true
	case w != "-":
		return false
	}
	return i-f >= 2 && i+1 < v.Len() && view.IsCapitalised(v.CoreText(i-1)) && view.IsCapitalised(v.CoreText(i+1))
}

// splitListedNames cuts Person spans at the listWords (and pairWords
// before a full name) and at dashes between names (dashCut) strictly
// inside them, so that the word between two names is not masked. It
// runs last, after the drop rules have judged the whole span.
type splitListedNames struct{}

func (splitListedNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0:0]
	for _, s := range ss {
		if s.Category != page.Person {
			out = append(out, s)
			continue
		}
		cut := false
		for k := s.First + 1; k < s.Last; k++ {
			i := k - v.First
			if k == s.First || i <= 0 || i >= v.Len() {
				continue
			}
			if w := v.WordLower(i); !listWords[w] && !dashCut(v, i, s.First-v.First) && !(pairWords[w] && pairCut(v, rc.gz, i, s.First-v.First, s.Last-v.First)) {
				continue
			}
			left := s
			left.Last, left.End = k-1, 0
			out = appendPiece(out, rc, left)
			s.First, s.Start = k+1, 0
			cut = true
		}
		if cut {
			out = appendPiece(out, rc, s)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// appendPiece appends a piece of a Person span cut apart, unless it is
// titles only (titlesOnly: "RIBEIRO - Presidente" leaves the office
// alone, which drop-title-only, having judged the whole span, kept).
func appendPiece(out []page.Span, rc ruleContext, s page.Span) []page.Span {
	if titlesOnly(rc.v, rc.gz, s) {
		return out
	}
	return append(out, s)
}
