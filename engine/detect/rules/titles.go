package rules

import (
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Titles. One rule for honorifics ("Mr", "Dr", "Madam"), ranks and offices
// ("General", "President", "Minister"): written with a capital right
// before a name they are masked with it, whoever found the name (they tell
// gender and rank: honorificsBefore); with no name after them ("Mr
// President", "Madam Speaker", "the President") nothing is masked
// (dropTitleOnly). README, "Titles".

// offices are titles of office that address a person without naming one
// ("Mr President", "Madam Speaker"), beyond rankTitles and titles.txt.
var offices = gazetteer.MustWords("people", "office")

// isTitleWord reports whether l (lower case, no trailing dot) is an
// honorific, a rank or an office.
func isTitleWord(gz *gazetteer.Gazetteers, l string) bool {
	return gz.Titles.Has(l) || rankTitles[l] || offices[l]
}

// dropTitleOnly drops Person spans made only of titles: "Mr President",
// "Madam President" name no one. A lone word the name lists know as a
// first name or surname stays: "Ripley and Bishop", "Baron (guitar)" are
// people (dev splits).
func dropTitleOnly(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
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
		if w := strings.TrimSuffix(v.CoreLower(i), "."); w == "" || !isTitleWord(gz, w) {
			return false
		}
	}
	return true
}

// trimOfficeOf starts an Organization span that opens with an office
// and "of" at the organization: "the President of the Commission", "Prime
// Minister of Canada" name a role, and the words of the office are not
// the organization's name (as the title rule leaves "the President"
// readable). The offices are people.txt's use office-of; nobility and
// church ranks ("Duke of Wellington", "Bishop of Durham") name a person
// and are not among them. "the" after "of" goes with the office.
func trimOfficeOf(v *view.View, ss []page.Span) []page.Span {
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
