package rules

import (
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Place names. A place name standing alone, outside a postal address, is
// not personal data: "lives in London" and "lives in New York" are both
// left, and the town or country is masked only as part of an address
// (README, "Place names"). The name lists know many towns as first names
// or surnames too ("London", "Florence", "Paris"), and the model sometimes
// calls a town after "in" a person; dropPlaceNames applies the one rule
// to whatever found them.

// locatives are the words after which a town or country is a place.
// "to" and "at" are not among them: they take people as often ("forward
// to Brant", "turned to Clayton", "smiled at Florence"; dev splits).
var locatives = gazetteer.MustWords("context", "locative")

// dropPlaceNames drops Person spans whose words are exactly a town or
// country the gazetteers know, written right after a locative on the same
// line ("lives in London", "sailed from Dover").
func dropPlaceNames(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
	return slices.DeleteFunc(ss, func(s page.Span) bool {
		return s.Category == page.Person && isLonePlace(v, gz, s)
	})
}

// isLonePlace reports whether span s (whole words) is a known town or
// country after a locative.
func isLonePlace(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	f, l := s.First-v.First, s.Last-v.First
	if f <= 0 || l >= v.Len() || l-f >= maxPlaceWords || s.Start != 0 || v.LineOf(f-1) != v.LineOf(f) {
		return false
	}
	if !locatives[v.CoreLower(f-1)] {
		return false
	}
	words := make([]string, 0, l-f+1)
	for i := f; i <= l; i++ {
		words = append(words, v.CoreLower(i))
	}
	name := strings.Join(words, " ")
	return gz.Cities.Has(name) || gz.Countries.Has(name)
}

// nationalities are adjectives of nationality, region, language and faith
// ("Dutch", "European", "Sunni").
var nationalities = gazetteer.MustWords("nationalities", "adjective")

// dropNationalities drops Person spans that are one such adjective alone
// ("a Dutch passenger", "the Sunni cleric") or two of them ("Sunni Arab
// regions"): they name no one. With other name words it stays ("Dutch
// Schultz"), and so does the lone word when a longer Person span on the
// page holds it: "Dutch" after "Dutch Quigley" is his name (the Enron dev
// threads). Organization spans keep theirs: corpora label "Iraqi" in
// "Iraqi forces" an organization (re3d, BTC), and dropping those cost
// 1.2-1.5 points of masking recall on their dev splits for 0.3-2.4 of
// precision.
func dropNationalities(v *view.View, ss []page.Span) []page.Span {
	// lone: one adjective, or two ("Sunni Arab": a first name and a
	// capitalised word to the name recognizer).
	lone := func(s page.Span) bool {
		f, l := s.First-v.First, s.Last-v.First
		if s.Category != page.Person || f < 0 || l >= v.Len() || l-f > 1 {
			return false
		}
		for i := f; i <= l; i++ {
			if !nationalities[v.CoreLower(i)] {
				return false
			}
		}
		return true
	}
	if !slices.ContainsFunc(ss, lone) {
		return ss
	}
	named := map[string]bool{} // words of the page's longer Person spans
	for _, s := range ss {
		if s.Category != page.Person || s.First == s.Last {
			continue
		}
		f, l := v.SpanWords(s)
		for w := f; w <= l; w++ {
			named[v.CoreLower(w)] = true
		}
	}
	return slices.DeleteFunc(ss, func(s page.Span) bool {
		return lone(s) && (s.First != s.Last || !named[v.CoreLower(s.First-v.First)])
	})
}
