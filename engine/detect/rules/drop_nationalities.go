package rules

import (
	"slices"

	"github.com/redactd/redactd/engine/page"
)

// dropNationalities drops Person spans that are one such adjective alone
// ("a Dutch passenger", "the Sunni cleric") or two of them ("Sunni Arab
// regions"): they name no one. With other name words it stays ("Dutch
// Schultz"), and so does the lone word when a longer Person span on the
// page holds it: "Dutch" after "Dutch Quigley" is his name (the Enron dev
// threads). Organization spans keep theirs: corpora label "Iraqi" in
// "Iraqi forces" an organization (re3d, BTC), and dropping those cost
// 1.2-1.5 points of masking recall on their dev splits for 0.3-2.4 of
// precision.
type dropNationalities struct{}

func (dropNationalities) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
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
