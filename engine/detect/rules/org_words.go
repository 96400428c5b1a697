package rules

import (
	"strings"
	"unicode"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// The organization words that grow-organization, affiliations and
// org-lists test: a word that may belong to an organization's name, a run
// of them, an item of a list.

// orgFieldMax is the most words an organization field may have.
const orgFieldMax = 5

// orgWord reports whether word i may be part of an organization's name
// starting at word f: capitalised, or any word of letters on a line in
// lower case, or a connector inside the name ("Seeds of Peace").
func orgWord(v *view.View, gz *gazetteer.Gazetteers, i, f int) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if t == "" || stopwords[l] && !(i > f && orgConnectors[l]) {
		return false
	}
	if view.HasDigit(t) {
		return brandWithDigits(t)
	}
	if i > f && orgConnectors[l] {
		return true
	}
	first, end := v.Line(v.LineOf(i))
	if isLowerLine(v, first, end) {
		return isLetters(strings.ReplaceAll(l, "-", ""))
	}
	return view.IsCapitalised(t)
}

// brandWithDigits reports whether w is a name written with digits
// ("6sigma", "Ideas42", "Asset4"): letters and digits only, starting or
// ending with three letters or more, so no number, year, ordinal or
// postcode ("1990s", "12th", "B2").
func brandWithDigits(w string) bool {
	rs := []rune(w)
	lead, trail := 0, 0
	for lead < len(rs) && unicode.IsLetter(rs[lead]) {
		lead++
	}
	for trail < len(rs) && unicode.IsLetter(rs[len(rs)-1-trail]) {
		trail++
	}
	for _, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return lead >= 3 || trail >= 3
}

// orgRun reports whether words f..l name an organization rather than a
// place, a person or a phrase: the run is no known place, does not end
// with a connector, and one of its words is no ordinary word, place,
// title, name, month or weekday.
func orgRun(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	if orgConnectors[v.CoreLower(l)] {
		return false
	}
	s, _ := v.Core(f)
	_, e := v.Core(l)
	if name := strings.ToLower(v.Text[s:e]); gz.Cities.Has(name) || gz.Countries.Has(name) {
		return false
	}
	const known = gazetteer.City | gazetteer.Country | gazetteer.Title | gazetteer.FirstName | gazetteer.Surname
	for i := f; i <= l; i++ {
		w := v.CoreLower(i)
		if !gz.Common.Has(w) && !stopwords[w] && !orgConnectors[w] && pattern.MonthNumber(w) == 0 && !pattern.IsWeekday(w) &&
			gz.Lex[w]&known == 0 {
			return true
		}
	}
	return false
}

// isUpperLine reports whether words first..end-1 are printed in capitals:
// no lower-case letter, and three words of two letters or more at least
// (a name alone in capitals, "JOHN SMITH", is a field, not a headline).
func isUpperLine(v *view.View, first, end int) bool {
	n := 0
	for i := first; i < end; i++ {
		letters := 0
		for _, r := range v.CoreText(i) {
			if unicode.IsLower(r) {
				return false
			}
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 2 {
			n++
		}
	}
	return n >= 3
}

// startsSentence reports whether word i starts a sentence, a line or a
// clause after a colon.
func startsSentence(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if i == 0 || v.LineOf(i-1) != v.LineOf(i) {
		return true
	}
	return view.EndsSentence(v, i-1) || strings.Contains(v.Text[v.CoreEnd(i-1):v.WordEnd(i-1)], ":")
}

// listItem reports whether words f..l, one line's run of organization
// words no other span holds, name an organization.
func listItem(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, f, l int) bool {
	if f > l || v.LineOf(f) != v.LineOf(l) || !orgRun(v, gz, f, l) {
		return false
	}
	for _, s := range ss {
		if s.Category != page.Organization && s.First <= l && s.Last >= f {
			return false
		}
	}
	return true
}
