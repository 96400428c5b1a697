package rules

import (
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// eventHeads end the name of an award, contest, festival, war, election
// or law ("Nobel Prize", "World Cup", "Olympic Games", "Civil War", "Clean
// Air Act").
var eventHeads = gazetteer.MustWords("organizations", "event")

// dropEventNames drops Organization spans that end with an event head:
// the model reads many such names as organizations, and they name no
// one; a number after the head numbers the event of a series ("World
// War II"). A name that goes on past the head stays ("the Nobel Prize
// Committee").
type dropEventNames struct{}

func (dropEventNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	return slices.DeleteFunc(ss, func(s page.Span) bool {
		f, l := s.First-v.First, s.Last-v.First
		if s.Category != page.Organization || f < 0 || l >= v.Len() {
			return false
		}
		if l > f && isOrdinal(v.CoreText(l)) {
			l-- // "World War II", "World Cup 2014"
		}
		return eventHeads[withoutPossessive(v.CoreLower(l))] || headOfField(v, f, l)
	})
}

// headOfField reports whether an event head inside words f..l is
// followed by "of", "for" or "in" and the field it is given for: "the
// National Medal of Science", "the Nobel Prize in Physics", "the
// National Book Award for Fiction".
func headOfField(v *view.View, f, l int) bool {
	for k := f; k+1 < l; k++ {
		if eventHeads[v.CoreLower(k)] && view.IsCapitalised(v.CoreText(k)) {
			switch v.CoreLower(k + 1) {
			case "of", "for", "in":
				return true
			}
		}
	}
	return false
}

// isOrdinal reports whether w numbers an event of a series: a Roman
// numeral in capitals ("II", "XLII") or a number of up to four digits.
func isOrdinal(w string) bool {
	if w == "" || len(w) > 7 {
		return false
	}
	if pattern.AllDigits(w) {
		return len(w) <= 4
	}
	return strings.Trim(w, "IVXLC") == ""
}
