package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimOfficeOf starts an Organization span that opens with an office
// and "of", or with a signatory's name and "per" (signatoryEnd), at the
// organization: "the President of the Commission", "Prime
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
		if k := signatoryEnd(v, ss, i, f, l); k > 0 {
			ss[i] = cutTo(v, s, k+1, l)
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

// signatoryEnd returns the word of acting on someone's behalf ("per",
// "namens", "pour", "für", "por", "for") that follows a person's name
// opening Organization span ss[i] (words [f, l]; the name a Person span of
// its own), or 0: "firmato Francesco Bianco per Martino & Figli S.r.l.",
// "getekend Saar Smits namens Mulder Bouw BV." sign for a firm, and the
// firm begins after the word. The name stays masked as its Person span.
func signatoryEnd(v *view.View, ss []page.Span, i, f, l int) int {
	for _, p := range ss {
		if p.Category != page.Person || p.First != ss[i].First || p.Last >= ss[i].Last {
			continue
		}
		k := p.Last - v.First + 1
		if k < l && onBehalf[v.CoreLower(k)] && lowerWord(v.CoreText(k)) && view.IsCapitalised(v.CoreText(k+1)) {
			return k
		}
	}
	return 0
}

// onBehalf are the words a signatory writes before the firm they sign
// for.
var onBehalf = setOf("per", "namens", "pour", "für", "por", "for", "p.p.", "i.a.", "i.v.")

// officeOf are the offices trimOfficeOf cuts from an organization.
var officeOf = gazetteer.MustWords("people", "office-of")
