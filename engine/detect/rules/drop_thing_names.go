package rules

import (
	"slices"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/page"
)

// thingNouns are written before a one-word name that makes it a thing's:
// a storm ("Hurricane Katrina", "Cyclone Phailin") or a ship ("HMS
// Victory").
var thingNouns = gazetteer.MustWords("things", "named")

// dropThingNames drops the Person and Organization spans that name a
// thing. A thing noun followed by a capitalised word on its line names a
// storm or a ship; a span made only of such nouns and such names is
// dropped, wherever on the page it stands: the news that names
// "Hurricane Rita" goes on with "Rita packed winds of 240 km/h", and the
// model reads both as a woman and "Hurricane" as a firm. A longer span
// with another word ("Rita Moreno") stays.
type dropThingNames struct{}

func (dropThingNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	names := map[string]bool{}
	nouns := map[int]bool{}
	for i := 0; i+1 < v.Len(); i++ {
		if !thingNouns[v.CoreLower(i)] || v.CoreEnd(i) != v.WordEnd(i) || v.LineOf(i+1) != v.LineOf(i) {
			continue
		}
		if n := withoutPossessive(v.CoreText(i + 1)); nameShaped(n) && !thingNouns[v.CoreLower(i+1)] {
			names[n] = true
			nouns[i] = true
		}
	}
	if len(names) == 0 {
		return ss
	}
	return slices.DeleteFunc(ss, func(s page.Span) bool {
		if s.Category != page.Person && s.Category != page.Organization {
			return false
		}
		f, l := v.SpanWords(s)
		for w := f; w <= l; w++ {
			if !nouns[w] && !names[withoutPossessive(v.CoreText(w))] {
				return false
			}
		}
		return f <= l
	})
}
