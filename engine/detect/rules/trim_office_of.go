package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimOfficeOf starts an Organization span that opens with an office
// and "of" at the organization: "the President of the Commission", "Prime
// Minister of Canada" name a role, and the words of the office are not
// the organization's name (as the title rule leaves "the President"
// readable). The offices are people.txt's use office-of; nobility and
// church ranks ("Duke of Wellington", "Bishop of Durham") name a person
// and are not among them. "the" after "of" goes with the office.
type trimOfficeOf struct{}

func (trimOfficeOf) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	for i, s := range ss {
		if s.Category != page.Organization {
			continue
		}
		f, l := s.First-v.First, s.Last-v.First
		if f < 0 || l >= v.Len() {
			continue
		}
		k := f
		for k < l && officeOf[strings.TrimSuffix(v.CoreLower(k), ".")] && view.IsCapitalised(v.CoreText(k)) {
			k++
		}
		if k == f || k >= l || v.CoreLower(k) != "of" {
			continue
		}
		if k++; k < l && v.CoreLower(k) == "the" {
			k++
		}
		if sp, ok := v.CoreSpan(k, l, s.Category, s.Score, s.Recognizer); ok {
			ss[i] = sp
		}
	}
	return ss
}

// officeOf are the offices trimOfficeOf cuts from an organization.
var officeOf = gazetteer.MustWords("people", "office-of")
