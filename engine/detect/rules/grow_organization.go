package rules

import (
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Names a detector found only in part: the NER model often takes some
// capitalised words of a long name and leaves the rest ("Google Public
// Data" of "Google Public Data Explorer", "International" of "Impaq
// International"). An organization grows over the capitalised words
// right next to it on its line, with no punctuation between.

// growOrganization grows an Organization span over the organization
// words next to it (orgBefore, orgAfter).
type growOrganization struct{}

func (growOrganization) grow(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for _, s := range ss {
		if s.Category != page.Organization {
			continue
		}
		f, l := orgBefore(v, gz, s.First), orgAfter(v, gz, s.Last)
		if f < s.First || l > s.Last {
			out = appendCore(out, v, f, l, page.Organization, s.Score, s.Recognizer)
		}
	}
	return out
}

// orgGrowMax is the most words an organization grows by on each side.
const orgGrowMax = 3

// orgAfter returns the last word of the organization ending at last
// grown over the capitalised words after it. A name joined to a noun by
// a hyphen ends there ("SPD-Vorsitzende Oskar Lafontaine", "VW-Werk
// Wolfsburg": the compound names an office or a place of the firm, and
// what follows is its holder or its town).
func orgAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	if nounCompoundEnd(gz, v.CoreText(last)) {
		return last
	}
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

// nounCompoundEnd reports whether w joins a name to a German noun, or a
// German office, with a hyphen: the part after its last hyphen is one,
// a surname too or not ("SPD-Vorsitzende", "Airbus-Chef", "VW-Werk"; not
// "Mercedes-Benz").
func nounCompoundEnd(gz *gazetteer.Gazetteers, w string) bool {
	i := strings.LastIndexByte(w, '-')
	if i <= 0 || i == len(w)-1 {
		return false
	}
	h := strings.ToLower(w[i+1:])
	return gz.Lex[h]&(gazetteer.NounDE|gazetteer.NounDEInNames) != 0 || nounDE(gz, h) || headedInAnyForm(h, germanOffices)
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
		if strings.ContainsAny(firstRune(v.WordText(grown)), "([{«„“\"'") {
			break // "Gerhard Schröder (SPD)": a party in parentheses after its member
		}
		k := grown - 1
		if k < 0 || v.LineOf(k) != ln || v.Text[v.CoreEnd(k):v.WordEnd(k)] != "" || !orgGrowWord(v, gz, k) {
			break
		}
		if startsSentence(v, gz, k) || placeBeforeAcronym(v, gz, k, first) {
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

// placeBeforeAcronym reports whether word k is a country or town after a
// word in lower case (a preposition) and right before an organization
// named by an acronym of three letters or more (word first, in
// capitals): the place says where it is ("en Espagne CCOO", "in Berlin
// DGB"). A club's town opening its name keeps it: at the start of a line
// ("Olympique Lille OSC" / "Viborg FF"), or before a club's two letters
// ("gegen Viborg FF").
func placeBeforeAcronym(v *view.View, gz *gazetteer.Gazetteers, k, first int) bool {
	if k == 0 || v.LineOf(k-1) != v.LineOf(k) || !lowerWord(v.CoreText(k-1)) {
		return false
	}
	a := v.CoreText(first)
	return view.IsAllUpper(a) && utf8.RuneCountInString(a) >= 3 && !view.IsAllUpper(v.CoreText(k)) &&
		gz.Lex[v.CoreLower(k)]&(gazetteer.Country|gazetteer.City) != 0
}

// orgGrowWord reports whether word i may join an organization's name it
// stands next to: a capitalised word of letters that is no stopword,
// month, weekday, title or workplace noun, nor in a German block an
// ordinary noun (thingNoun: "Die Siemens Aktie", "A73 Nürnberg Richtung
// Bamberg"; a body's noun joins, "Humboldt Universität"), which German
// capitalises as it does names. On a line printed in capitals
// every word is capitalised, so there an ordinary word joins only when it
// can end a firm's name ("WIDGETS CORPORATION", not "SERVICES HAVE NOT
// INCLUDED").
func orgGrowWord(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if t == "" || !view.IsCapitalised(t) || view.HasDigit(t) || stopwords[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) ||
		workplaces[l] || gz.Titles.Has(strings.TrimSuffix(l, ".")) || thingNoun(v, gz, i) {
		return false
	}
	if gz.Common.Has(l) && !orgHeads[l] && !institutions[l] && gz.Lex[l]&gazetteer.LegalForm == 0 && view.IsAllUpper(t) {
		first, end := v.Line(v.LineOf(i))
		return !isUpperLine(v, first, end)
	}
	return true
}

// firstRune is w's first character.
func firstRune(w string) string {
	_, n := utf8.DecodeRuneInString(w)
	return w[:n]
}
