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
// (docs/behaviour.md, "Place names"). The name lists know many towns as first names
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
type dropPlaceNames struct{}

func (dropPlaceNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
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
