package rules

import (
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// dropTitleOnly drops Person spans made only of titles: "Mr President",
// "Madam President" name no one. A lone word the name lists know as a
// first name or surname stays: "Ripley and Bishop", "Baron (guitar)" are
// people (dev splits).
type dropTitleOnly struct{}

func (dropTitleOnly) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	return slices.DeleteFunc(ss, func(s page.Span) bool {
		return s.Category == page.Person && titlesOnly(v, gz, s)
	})
}

func titlesOnly(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	f, l := s.First-v.First, s.Last-v.First
	if f < 0 || l >= v.Len() {
		return false
	}
	if f == l && gz.Lex[v.CoreLower(f)]&(gazetteer.FirstName|gazetteer.Surname) != 0 {
		return false
	}
	for i := f; i <= l; i++ {
		w := strings.TrimSuffix(v.CoreLower(i), ".")
		if i < l && titleArticles[w] {
			continue // "Monsieur le Président", "Signor il Presidente", "Le Premier (ministre)"
		}
		if w == "" || !isTitleWord(gz, w) {
			return false
		}
	}
	return true
}

// titleArticles may stand between two titles ("Monsieur le Président",
// "Señor el Presidente") or before one ("Le Premier", of "Le Premier
// ministre") in a span of titles only.
var titleArticles = map[string]bool{"le": true, "la": true, "el": true, "il": true, "lo": true, "der": true, "die": true, "de": true}
