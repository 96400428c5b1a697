package rules

import (
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Affiliations: the organization a person belongs to stands next to the
// person in two common shapes, and names there are mostly ones no list
// knows ("Innography", "Buena Vista Garden Maintenance"):
//
//   - a contact block, one field after the other: the person, the
//     organization, the address ("Jane Doe" / "Acme Widgets" / "12 Main
//     Street", or the same on one line between separators), or another
//     person, a phone number or an email address after the organization;
//   - a sentence: "Kelvin is from Innography", "Ana works at Solarlist",
//     "Joe, employed by Politify".
//
// The organization must be a short run of capitalised words (any case on
// a line written in lower case) with a word no list knows as ordinary or
// as a place; places after "is from" are the address recognizer's.

// affiliationCues lead from a person to the organization they belong to.
var affiliationCues = [][]string{{"is", "from"}, {"was", "from"}, {"works", "at"}, {"works", "for"},
	{"worked", "at"}, {"worked", "for"}, {"employed", "by"}, {"is", "with"}}

// contactField are the categories of the fields that may follow a
// person's organization in a contact block or a signature.
var contactField = map[page.Category]bool{page.Address: true, page.Person: true, page.PhoneNumber: true, page.Email: true}

// affiliations finds the organizations next to the Person spans (merged,
// in word order), in a contact block or after a cue; grow returns them.
type affiliations struct{}

func (affiliations) grow(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for k, s := range ss {
		if s.Category != page.Person {
			continue
		}
		if f, l, ok := cuedOrg(v, gz, s.Last); ok {
			out = appendCore(out, v, f, l, page.Organization, 0.5, "org-affiliation")
			continue
		}
		if k+1 < len(ss) && contactField[ss[k+1].Category] {
			if f, l, ok := orgField(v, gz, s.Last, ss[k+1].First); ok {
				out = appendCore(out, v, f, l, page.Organization, 0.5, "org-affiliation")
			}
		}
	}
	for _, s := range ss {
		if s.Category != page.Address {
			continue
		}
		if f, l, ok := venue(v, gz, s.First); ok {
			out = appendCore(out, v, f, l, page.Organization, 0.5, "org-affiliation")
		} else if f, l, ok := letterhead(v, gz, ss, addressBefore(v, gz, s.First)); ok {
			out = appendCore(out, v, f, l, page.Organization, 0.5, "org-affiliation")
		}
	}
	return out
}

// venue finds the organization named with its address after "at" ("meet
// Saturday at Equifax, 77 Obere Bahnhofstrasse 9"): a short run of
// organization words, then a comma and the address, whose house number
// its recognizer may have left out.
func venue(v *view.View, gz *gazetteer.Gazetteers, first int) (int, int, bool) {
	l := first - 1
	for l >= 0 && pattern.AllDigits(v.CoreText(l)) && v.Text[v.CoreEnd(l):v.WordEnd(l)] == "" {
		l--
	}
	if l < 1 || v.Text[v.CoreEnd(l):v.WordEnd(l)] != "," {
		return 0, 0, false
	}
	f := l
	for f-1 >= 0 && l-f+1 < orgFieldMax && v.LineOf(f-1) == v.LineOf(l) && v.CoreLower(f-1) != "at" &&
		v.Text[v.CoreEnd(f-1):v.WordEnd(f-1)] == "" && orgWord(v, gz, f-1, f-1) {
		f--
	}
	if f < 1 || v.CoreLower(f-1) != "at" || v.Text[v.CoreEnd(f-1):v.WordEnd(f-1)] != "" {
		return 0, 0, false
	}
	for i := f; i <= l; i++ {
		if !orgWord(v, gz, i, f) {
			return 0, 0, false
		}
	}
	return f, l, orgRun(v, gz, f, l)
}

// letterhead finds the organization that opens a paragraph with its
// address right after it, as a letterhead or an addressee block does
// ("Intelius" / "Unit 4818 Box 0262"): a short run of organization words
// starting a line that starts a paragraph or follows a sentence's end,
// no other span's, with nothing but the address's house number between
// it and the address. A wrapped line's first words ("write to" / "Acme
// 12 Main Street") and a person's name are left alone.
func letterhead(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, first int) (int, int, bool) {
	l := first - 1
	for l >= 0 && pattern.AllDigits(v.CoreText(l)) && v.Text[v.CoreEnd(l):v.WordEnd(l)] == "" {
		l--
	}
	if l < 0 || v.Text[v.CoreEnd(l):v.WordEnd(l)] != "" {
		return 0, 0, false
	}
	f := l
	for f-1 >= 0 && l-f+1 < orgFieldMax && v.LineOf(f-1) == v.LineOf(l) && v.Text[v.CoreEnd(f-1):v.WordEnd(f-1)] == "" {
		f--
	}
	if ln := v.LineOf(f); f > 0 && v.LineOf(f-1) == ln || ln > 0 && v.FlowsOn(ln-1) && !view.EndsSentence(v, f-1) {
		return 0, 0, false
	}
	for i := f; i <= l; i++ {
		if !orgWord(v, gz, i, f) {
			return 0, 0, false
		}
	}
	if firstName(v, gz, f) {
		return 0, 0, false // an addressee: "Jennifer Langset" / "31 Vesturgata 66"
	}
	return f, l, listItem(v, gz, ss, f, l)
}

// cuedOrg finds the organization after an affiliation cue that follows
// the person ending at word last: the capitalised words after the cue up
// to the end of the clause.
func cuedOrg(v *view.View, gz *gazetteer.Gazetteers, last int) (int, int, bool) {
	if v.Text[v.CoreEnd(last):v.WordEnd(last)] != "" && v.Text[v.CoreEnd(last):v.WordEnd(last)] != "," {
		return 0, 0, false
	}
	for _, cue := range affiliationCues {
		f := last + 1 + len(cue)
		if f >= v.Len() {
			continue
		}
		match := true
		for i, w := range cue {
			if k := last + 1 + i; v.CoreLower(k) != w || v.Text[v.CoreEnd(k):v.WordEnd(k)] != "" {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		l := f
		for l+1 < v.Len() && l+1-f < orgFieldMax && !endsClause(v, l) && !view.EndsSentence(v, l) && orgWord(v, gz, l+1, f) {
			l++
		}
		if orgWord(v, gz, f, f) && orgRun(v, gz, f, l) {
			return f, l, true
		}
	}
	return 0, 0, false
}

// orgField finds an organization field between a person ending at word
// last and an address starting at word next: the words between are
// separated from both by a line break or a separator ("???", "|", "/",
// "-"), and form one short run of organization words; the address's
// house number may stand after the field, left out by its recognizer.
func orgField(v *view.View, gz *gazetteer.Gazetteers, last, next int) (int, int, bool) {
	f, l := last+1, next-1
	sep := func(i int) bool { return i >= 0 && i < v.Len() && v.CoreText(i) == "" }
	startsField := func(i int) bool { return v.LineOf(i) != v.LineOf(i-1) || sep(i-1) }
	for f <= l && sep(f) {
		f++
	}
	// The address may start before the words its recognizer took ("71"
	// of "71 110 Rue du Koweit"): the field ends at its first separator
	// or line break, and only numbers may follow it.
	for i := f; i < l; i++ {
		if sep(i+1) || v.LineOf(i+1) != v.LineOf(i) {
			for k := i + 1; k <= l; k++ {
				if !sep(k) && !view.HasDigit(v.CoreText(k)) {
					return 0, 0, false
				}
			}
			l = i
			break
		}
	}
	for l >= f && sep(l) {
		l--
	}
	if f > l || l-f+1 > orgFieldMax || !startsField(f) || !(v.LineOf(l) != v.LineOf(l+1) || sep(l+1)) {
		return 0, 0, false
	}
	if v.LineOf(f) != v.LineOf(l) {
		return 0, 0, false // one field on one line
	}
	for i := f; i <= l; i++ {
		if !orgWord(v, gz, i, f) || i < l && endsClause(v, i) {
			return 0, 0, false
		}
	}
	// Between a person and an address, a name of ordinary words ending
	// in an organization noun is a firm's ("State Farm Insurance"), but
	// not a job title ("Head of Research").
	return f, l, orgRun(v, gz, f, l) || l > f && orgHeads[v.CoreLower(l)] && !hasConnector(v, gz, f, l)
}

// hasConnector reports whether one of the words f..l is a connector.
func hasConnector(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	for i := f; i <= l; i++ {
		if orgConnectors[v.CoreLower(i)] {
			return true
		}
	}
	return false
}
