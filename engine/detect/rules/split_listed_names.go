package rules

import (
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// listWords join listed names without belonging to either: a Person span
// that grew over one (coordinatedAfter) or that a model read as one
// ("Tom Clancy and Mario Puzo", Dutch "Rachel Weisz en Angelina Jolie")
// keeps the names masked and the word readable.
var listWords = map[string]bool{"and": true, "or": true, "&": true, "und": true, "en": true}

// pairWords join two names too ("Jared Padalecki e Jensen Ackles",
// "Mae Marsh et Florence Lawrence"), but they are also particles inside
// Spanish and Portuguese surnames ("Ortega y Gasset", "Ferreira e
// Silva", where "Silva" is a first name of the lists too): a span is cut
// at one only where a second full name follows it inside the span.
var pairWords = map[string]bool{"e": true, "y": true, "et": true}

// opensFullName reports whether view words [i, last] open a person's
// full name: a capitalised first name (firstName) or title of the lists,
// then another capitalised word.
func opensFullName(v *view.View, gz *gazetteer.Gazetteers, i, last int) bool {
	if i+1 > last || i+1 >= v.Len() || !view.IsCapitalised(v.CoreText(i+1)) {
		return false
	}
	return firstName(v, gz, i) || view.IsCapitalised(v.CoreText(i)) && gz.Titles.Has(v.CoreLower(i))
}

// splitListedNames cuts Person spans at the listWords (and pairWords
// before a full name) strictly inside them, so that the conjunction
// between two names is not masked. It runs last, after the drop rules
// have judged the whole span.
type splitListedNames struct{}

func (splitListedNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0:0]
	for _, s := range ss {
		if s.Category != page.Person {
			out = append(out, s)
			continue
		}
		for k := s.First + 1; k < s.Last; k++ {
			i := k - v.First
			if k == s.First || i <= 0 || i >= v.Len() {
				continue
			}
			if w := v.WordLower(i); !listWords[w] && !(pairWords[w] && opensFullName(v, rc.gz, i+1, s.Last-v.First)) {
				continue
			}
			left := s
			left.Last, left.End = k-1, 0
			out = append(out, left)
			s.First, s.Start = k+1, 0
		}
		out = append(out, s)
	}
	return out
}
