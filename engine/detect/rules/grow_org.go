package rules

import (
	"strings"
	"unicode"

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

// orgFieldMax is the most words an organization field may have.
const orgFieldMax = 5

// affiliationCues lead from a person to the organization they belong to.
var affiliationCues = [][]string{{"is", "from"}, {"was", "from"}, {"works", "at"}, {"works", "for"},
	{"worked", "at"}, {"worked", "for"}, {"employed", "by"}, {"is", "with"}}

// contactField are the categories of the fields that may follow a
// person's organization in a contact block or a signature.
var contactField = map[page.Category]bool{page.Address: true, page.Person: true, page.PhoneNumber: true, page.Email: true}

// affiliations returns the organizations found next to the Person spans
// of ss (merged, in word order).
func affiliations(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
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

// orgWord reports whether word i may be part of an organization's name
// starting at word f: capitalised, or any word of letters on a line in
// lower case, or a connector inside the name ("Seeds of Peace").
func orgWord(v *view.View, gz *gazetteer.Gazetteers, i, f int) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if t == "" || stopwords[l] && !(i > f && orgConnectors[l]) {
		return false
	}
	if view.HasDigit(t) {
		return brandWithDigits(t)
	}
	if i > f && orgConnectors[l] {
		return true
	}
	first, end := v.Line(v.LineOf(i))
	if isLowerLine(v, first, end) {
		return isLetters(strings.ReplaceAll(l, "-", ""))
	}
	return view.IsCapitalised(t)
}

// brandWithDigits reports whether w is a name written with digits
// ("6sigma", "Ideas42", "Asset4"): letters and digits only, starting or
// ending with three letters or more, so no number, year, ordinal or
// postcode ("1990s", "12th", "B2").
func brandWithDigits(w string) bool {
	rs := []rune(w)
	lead, trail := 0, 0
	for lead < len(rs) && unicode.IsLetter(rs[lead]) {
		lead++
	}
	for trail < len(rs) && unicode.IsLetter(rs[len(rs)-1-trail]) {
		trail++
	}
	for _, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return lead >= 3 || trail >= 3
}

// orgRun reports whether words f..l name an organization rather than a
// place, a person or a phrase: the run is no known place, does not end
// with a connector, and one of its words is no ordinary word, place,
// title, name, month or weekday.
func orgRun(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	if orgConnectors[v.CoreLower(l)] {
		return false
	}
	s, _ := v.Core(f)
	_, e := v.Core(l)
	if name := strings.ToLower(v.Text[s:e]); gz.Cities.Has(name) || gz.Countries.Has(name) {
		return false
	}
	const known = gazetteer.City | gazetteer.Country | gazetteer.Title | gazetteer.FirstName | gazetteer.Surname
	for i := f; i <= l; i++ {
		w := v.CoreLower(i)
		if !gz.Common.Has(w) && !stopwords[w] && !orgConnectors[w] && pattern.MonthNumber(w) == 0 && !pattern.IsWeekday(w) &&
			gz.Lex[w]&known == 0 {
			return true
		}
	}
	return false
}

// Names a detector found only in part: the NER model often takes some
// capitalised words of a long name and leaves the rest ("Google Public
// Data" of "Google Public Data Explorer", "International" of "Impaq
// International"). An organization grows over the capitalised words
// right next to it on its line, with no punctuation between.

// orgGrowMax is the most words an organization grows by on each side.
const orgGrowMax = 3

// orgAfter returns the last word of the organization ending at last
// grown over the capitalised words after it.
func orgAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	ln := v.LineOf(last)
	for n := 0; n < orgGrowMax; n++ {
		k := last + 1
		if k >= v.Len() || v.LineOf(k) != ln || v.Text[v.CoreEnd(last):v.WordEnd(last)] != "" {
			break
		}
		if orgConnectors[v.CoreLower(k)] && k+1 < v.Len() && v.LineOf(k+1) == ln &&
			v.Text[v.CoreEnd(k):v.WordEnd(k)] == "" && orgGrowWord(v, gz, k+1) {
			k++ // "of" in "Bank of Montreal"
		} else if !orgGrowWord(v, gz, k) {
			break
		}
		last = k
	}
	return last
}

// orgBefore returns the first word of the organization starting at first
// grown over the capitalised words before it. A sentence's first word
// ("Contact Acme Corp.") is capitalised anyway: it never joins. Ordinary
// words (common_words.txt) join only when "the" stands before them all
// ("the Member States", "the National Bank": europarl's dev Organization
// recall 0.752 -> 0.779); elsewhere the growth stops at the first one
// ("Second Chance Fund", "the new Global Acme").
func orgBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	ln := v.LineOf(first)
	grown, common := first, false
	for n := 0; n < orgGrowMax; n++ {
		k := grown - 1
		if k < 0 || v.LineOf(k) != ln || v.Text[v.CoreEnd(k):v.WordEnd(k)] != "" || !orgGrowWord(v, gz, k) {
			break
		}
		if startsSentence(v, gz, k) {
			break
		}
		grown = k
		common = common || gz.Common.Has(v.CoreLower(k))
	}
	if common && !(grown > 0 && v.LineOf(grown-1) == ln && v.CoreLower(grown-1) == "the") {
		// Ordinary words join only after "the": "the Member States", not
		// "Second World" of a war. Elsewhere the growth stops at the
		// first ordinary word.
		f := first
		for f > grown && !gz.Common.Has(v.CoreLower(f-1)) {
			f--
		}
		return f
	}
	return grown
}

// orgGrowWord reports whether word i may join an organization's name it
// stands next to: a capitalised word of letters that is no stopword,
// month, weekday, title or workplace noun. On a line printed in capitals
// every word is capitalised, so there an ordinary word joins only when it
// can end a firm's name ("WIDGETS CORPORATION", not "SERVICES HAVE NOT
// INCLUDED").
func orgGrowWord(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if t == "" || !view.IsCapitalised(t) || view.HasDigit(t) || stopwords[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) ||
		workplaces[l] || gz.Titles.Has(strings.TrimSuffix(l, ".")) {
		return false
	}
	if gz.Common.Has(l) && !orgHeads[l] && !institutions[l] && gz.Lex[l]&gazetteer.LegalForm == 0 && view.IsAllUpper(t) {
		first, end := v.Line(v.LineOf(i))
		return !isUpperLine(v, first, end)
	}
	return true
}

// isUpperLine reports whether words first..end-1 are printed in capitals:
// no lower-case letter, and three words of two letters or more at least
// (a name alone in capitals, "JOHN SMITH", is a field, not a headline).
func isUpperLine(v *view.View, first, end int) bool {
	n := 0
	for i := first; i < end; i++ {
		letters := 0
		for _, r := range v.CoreText(i) {
			if unicode.IsLower(r) {
				return false
			}
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 2 {
			n++
		}
	}
	return n >= 3
}

// startsSentence reports whether word i starts a sentence, a line or a
// clause after a colon.
func startsSentence(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if i == 0 || v.LineOf(i-1) != v.LineOf(i) {
		return true
	}
	return view.EndsSentence(v, i-1) || strings.Contains(v.Text[v.CoreEnd(i-1):v.WordEnd(i-1)], ":")
}

// Lists: organizations listed with an organization ("Flightstats,
// Transunion and Impaq International", "Merrill Lynch, Arrive Labs and
// Buildzoom") are organizations too when each is a short run of
// organization words that orgRun accepts: places, weekdays and ordinary
// phrases listed with a firm ("Acme Corp, London and Paris") are not.

// orgLists returns the organizations listed before and after the
// Organization spans of ss.
func orgLists(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
	var out []page.Span
	for _, s := range ss {
		if s.Category != page.Organization {
			continue
		}
		for last := s.Last; ; {
			f, l, ok := listedAfter(v, gz, ss, last)
			if !ok {
				break
			}
			out = appendCore(out, v, f, l, page.Organization, 0.5, "org-list")
			last = l
		}
		for first := s.First; ; {
			f, l, ok := listedBefore(v, gz, ss, first)
			if !ok {
				break
			}
			out = appendCore(out, v, f, l, page.Organization, 0.5, "org-list")
			first = f
		}
	}
	return out
}

// listItem reports whether words f..l, one line's run of organization
// words no other span holds, name an organization.
func listItem(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, f, l int) bool {
	if f > l || v.LineOf(f) != v.LineOf(l) || !orgRun(v, gz, f, l) {
		return false
	}
	for _, s := range ss {
		if s.Category != page.Organization && s.First <= l && s.Last >= f {
			return false
		}
	}
	return true
}

// listConjunction reports whether word i joins list items ("and", "or";
// "&" joins the words of one name instead).
func listConjunction(v *view.View, i int) bool {
	l := v.CoreLower(i)
	return l == "and" || l == "or"
}

// listedAfter finds the item listed after the word last: after its comma
// or an "and".
func listedAfter(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, last int) (int, int, bool) {
	k := last + 1
	if k >= v.Len() || v.LineOf(k) != v.LineOf(last) && !v.FlowsOn(v.LineOf(last)) {
		return 0, 0, false
	}
	switch tail := v.Text[v.CoreEnd(last):v.WordEnd(last)]; {
	case tail == "," && listConjunction(v, k):
		k++
	case tail == "," || tail == "" && listConjunction(v, k):
		if tail == "" {
			k++
		}
	default:
		return 0, 0, false
	}
	if k >= v.Len() || !orgWord(v, gz, k, k) {
		return 0, 0, false
	}
	l := k
	for l+1 < v.Len() && l+1-k < orgFieldMax && v.LineOf(l+1) == v.LineOf(k) && v.Text[v.CoreEnd(l):v.WordEnd(l)] == "" &&
		!listConjunction(v, l+1) && orgWord(v, gz, l+1, k) {
		l++
	}
	return k, l, itemEnds(v, l) && listItem(v, gz, ss, k, l)
}

// itemEnds reports whether a list item may end at word l: with
// punctuation, before a conjunction or at the end of its line, not
// before more words of its clause ("open data nation invested heavily
// in ..." lists nothing).
func itemEnds(v *view.View, l int) bool {
	return l+1 >= v.Len() || v.LineOf(l+1) != v.LineOf(l) || listConjunction(v, l+1) ||
		strings.ContainsAny(v.Text[v.CoreEnd(l):v.WordEnd(l)], ",;:.!?)")
}

// itemStarts reports whether a list item may start at word f: at the
// start of its line, after punctuation or after a stopword ("by Acme,
// ..."), not after more words of its clause.
func itemStarts(v *view.View, f int) bool {
	return f == 0 || v.LineOf(f-1) != v.LineOf(f) || stopwords[v.CoreLower(f-1)] ||
		strings.ContainsAny(v.Text[v.CoreEnd(f-1):v.WordEnd(f-1)], ",;:.!?(")
}

// listedBefore finds the item listed before the word first: before an
// "and" or ending with a comma. A sentence's capitalised first word does
// not join the item when it is an ordinary word.
func listedBefore(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, first int) (int, int, bool) {
	l := first - 1
	if l >= 0 && listConjunction(v, l) && v.Text[v.CoreEnd(l):v.WordEnd(l)] == "" {
		l--
	}
	if l < 0 || v.Text[v.CoreEnd(l):v.WordEnd(l)] != "," && !listConjunction(v, l+1) ||
		v.LineOf(l) != v.LineOf(first) && !v.FlowsOn(v.LineOf(l)) {
		return 0, 0, false
	}
	f := l
	for f-1 >= 0 && l-f+1 < orgFieldMax && v.LineOf(f-1) == v.LineOf(l) && v.Text[v.CoreEnd(f-1):v.WordEnd(f-1)] == "" &&
		!listConjunction(v, f-1) && orgWord(v, gz, f-1, f-1) && !(gz.Common.Has(v.CoreLower(f-1)) && startsSentence(v, gz, f-1)) {
		f--
	}
	if !orgWord(v, gz, f, f) {
		return 0, 0, false
	}
	for i := f + 1; i <= l; i++ {
		if !orgWord(v, gz, i, f) {
			return 0, 0, false
		}
	}
	return f, l, itemStarts(v, f) && listItem(v, gz, ss, f, l)
}
