package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
)

// The words of names, titles and labels that several rules and the
// recognizers test: nationalities, celestial bodies, offices and titles,
// name labels ("Cc:", "From:").

// nationalities are adjectives of nationality, region, language and faith
// ("Dutch", "European", "Sunni").
var nationalities = gazetteer.MustWords("nationalities", "adjective")

// celestial names planets, moons, stars and constellations that the
// first-name list holds too ("Venus", "Titan"): alone, no one's name.
var celestial = gazetteer.MustWords("things", "celestial")

// Titles. One rule for honorifics ("Mr", "Dr", "Madam"), ranks and offices
// ("General", "President", "Minister"): written with a capital right
// before a name they are masked with it, whoever found the name (they tell
// gender and rank: honorificsBefore); with no name after them ("Mr
// President", "Madam Speaker", "the President") nothing is masked
// (dropTitleOnly). docs/behaviour.md, "Titles".

// offices are titles of office that address a person without naming one
// ("Mr President", "Madam Speaker"), beyond rankTitles and titles.txt.
var offices = gazetteer.MustWords("people", "office")

// isTitleWord reports whether l (lower case, no trailing dot) is an
// honorific, a rank or an office.
func isTitleWord(gz *gazetteer.Gazetteers, l string) bool {
	return gz.Titles.Has(l) || rankTitles[l] || offices[l]
}

// isFieldLabel reports whether word i of v is a name label followed by a
// colon, in the word ("Cc:") or as the next word (":"). The colon is
// tested first: most words have none, and the test is a byte compare
// where the label is two map lookups.
func isFieldLabel(v *view.View, i int) bool {
	if i < 0 || i >= v.Len() || !labelsField(v, i) {
		return false
	}
	// A mail archive's header names its fields "X-From", "X-To", "X-cc".
	l := v.CoreLower(i)
	return nameLabels[l] || nameLabels[strings.TrimPrefix(l, "x-")]
}

// labelsField reports whether word i is a word followed by a colon, in
// the word ("Sent:") or as the next word (":").
func labelsField(v *view.View, i int) bool {
	if strings.HasPrefix(v.Text[v.CoreEnd(i):v.WordEnd(i)], ":") {
		return true
	}
	return i+1 < v.Len() && v.WordText(i+1) == ":"
}

// isConjunction reports whether l (lower case) joins the items of a list
// ("and", "&", "und", "et", "y", "e", "en", "or").
func isConjunction(l string) bool {
	switch l {
	case "and", "&", "und", "et", "y", "e", "en", "or":
		return true
	}
	return false
}

// kinWords follow a founder's name in a firm's name, never a person's.
var kinWords = gazetteer.MustWords("people", "kin")

// notName are the lists whose words do not go on a name: ordinary
// words, places, titles, company forms and street and unit words.
const notName = gazetteer.Common | gazetteer.City | gazetteer.Country | gazetteer.Title | gazetteer.LegalForm |
	gazetteer.StreetSuffix | gazetteer.StreetPrefix | gazetteer.Unit

// firstName reports whether word i is a capitalised known first name.
func firstName(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	return nameShaped(v.CoreText(i)) && gz.Lex[v.CoreLower(i)]&gazetteer.FirstName != 0
}
