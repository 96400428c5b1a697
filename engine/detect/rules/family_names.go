package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// familyNames masks, as a Person, a family named by its surname in the
// plural after "the" ("the Claytons", "the Ambersons", "the Joneses"):
// a capitalised word ending in "s" whose singular a surname list holds
// and no list knows as an ordinary word, where the plural itself is no
// ordinary word, place or nationality and no span covers it.
type familyNames struct{}

func (familyNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	covered := coveredWords(v, ss)
	for i := 1; i < v.Len(); i++ {
		if covered[i] || v.CoreLower(i-1) != "the" || v.Text[v.CoreEnd(i-1):v.WordEnd(i-1)] != "" {
			continue
		}
		if t := v.CoreText(i); familyPlural(gz, t) {
			if sp, ok := v.CoreSpan(i, i, page.Person, 0.5, "family-name"); ok {
				ss = append(ss, sp)
			}
		}
	}
	return ss
}

// familyPlural reports whether t is a surname in the plural (see
// familyNames).
func familyPlural(gz *gazetteer.Gazetteers, t string) bool {
	if len(t) < 4 || !nameShaped(t) || view.IsAllUpper(t) || !strings.HasSuffix(t, "s") || strings.HasSuffix(t, "ss") {
		return false
	}
	l := strings.ToLower(t)
	if gz.Lex[l]&(gazetteer.Common|gazetteer.City|gazetteer.Country|gazetteer.Title) != 0 || stopwords[l] || nationalities[l] {
		return false
	}
	for _, sing := range []string{l[:len(l)-1], strings.TrimSuffix(l, "es")} {
		if f := gz.Lex[sing]; sing != l && f&gazetteer.Surname != 0 && f&gazetteer.Common == 0 && !nationalities[sing] {
			return true
		}
	}
	return false
}
