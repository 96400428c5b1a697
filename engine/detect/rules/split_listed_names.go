package rules

import (
	"github.com/redactd/redactd/engine/page"
)

// listWords join listed names without belonging to either: a Person span
// that grew over one (coordinatedAfter) or that a model read as one
// ("Tom Clancy and Mario Puzo") keeps the names masked and the word
// readable. "y", "e" and "et" are left out: they are particles inside
// Spanish and Portuguese names ("Ortega y Gasset").
var listWords = map[string]bool{"and": true, "or": true, "&": true, "und": true}

// splitListedNames cuts Person spans at the listWords strictly inside
// them, so that the conjunction between two names is not masked. It runs
// last, after the drop rules have judged the whole span.
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
			if k == s.First || i <= 0 || i >= v.Len() || !listWords[v.WordLower(i)] {
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
