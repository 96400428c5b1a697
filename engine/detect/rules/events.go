package rules

import (
	"slices"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// eventHeads end the name of an award, contest, festival, war, election
// or law ("Nobel Prize", "World Cup", "Olympic Games", "Civil War", "Clean
// Air Act").
var eventHeads = gazetteer.MustWords("organizations", "event")

// dropEventNames drops Organization spans that end with an event head:
// the model reads many such names as organizations, and they name no
// one. A name that goes on past the head stays ("the Nobel Prize
// Committee").
func dropEventNames(v *view.View, ss []page.Span) []page.Span {
	return slices.DeleteFunc(ss, func(s page.Span) bool {
		l := s.Last - v.First
		return s.Category == page.Organization && l >= 0 && l < v.Len() &&
			eventHeads[withoutPossessive(v.CoreLower(l))]
	})
}
