package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Growth: after every detector has run and their spans are merged, spans
// grow over neighbouring words that belong to the same entity but that no
// detector claimed. Detectors see an entity's core (a street with its
// number, a surname the model knows); the words around it are where real
// documents leak: the honorific before a name, the unit, town, postcode
// and country lines under a street, a foreign street name before a house
// number. Growth works on the merged spans of all detectors, so a street
// the NER model found grows as one the address recognizer found does.
//
// Growth only ever adds words next to an existing span, after an address
// label or cue, or in a block of address lines each of which holds
// evidence of an address (grow_address.go), so it does not mask words far
// from personal data.

// Growth limits: how far an address grows on its line, over how many
// following lines, how many words a following line may have, and the
// longest multi-word place name ("Democratic Republic of the Congo").
const (
	growLineWords = 8
	growLines     = 4
	growLineMax   = 5
	maxPlaceWords = 6
)

// grow returns the grown versions of ss (only those that changed) and
// the addresses that follow an address label. Its parts are rules of the
// registry (Rules: grow-person, grow-organization, grow-address,
// affiliations, org-lists, labelled-addresses, address-blocks); on(name)
// says whether a part is enabled. All parts read the same merged spans.
func grow(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, on func(string) bool) []page.Span {
	var out []page.Span
	person, org, addr := on("grow-person"), on("grow-organization"), on("grow-address")
	for _, s := range ss {
		switch {
		case s.Category == page.Person && person:
			f := honorificsBefore(v, gz, wrappedHonorific(v, gz, initialsBefore(v, gz, firstNameBefore(v, gz, s.First))))
			f = coordinatedBefore(v, gz, f)
			l := wrappedAfter(v, gz, surnameAfter(v, gz, nameLineAfter(v, gz, s.First, s.Last)))
			l = postNominalsAfter(v, gz, coordinatedAfter(v, gz, l))
			if f < s.First || l > s.Last {
				out = appendCore(out, v, f, l, page.Person, s.Score, s.Recognizer)
			}
		case s.Category == page.Organization && org:
			f, l := orgBefore(v, gz, s.First), orgAfter(v, gz, s.Last)
			if f < s.First || l > s.Last {
				out = appendCore(out, v, f, l, page.Organization, s.Score, s.Recognizer)
			}
		case s.Category == page.Address && addr:
			f := addressBefore(v, gz, s.First)
			l := addressAfter(v, gz, s.Last)
			if f < s.First || l > s.Last {
				out = appendCore(out, v, f, l, page.Address, s.Score, s.Recognizer)
			}
		}
	}
	if on("affiliations") {
		out = append(out, affiliations(v, gz, ss)...)
	}
	if on("org-lists") {
		out = append(out, orgLists(v, gz, ss)...)
	}
	if on("labelled-addresses") {
		out = append(out, labelledAddresses(v, gz)...)
	}
	if on("address-blocks") {
		out = append(out, addressBlocks(v, gz)...)
	}
	return out
}

// appendCore appends the span of words first..last without the
// punctuation around them.
func appendCore(out []page.Span, v *view.View, first, last int, c page.Category, score float32, rec string) []page.Span {
	if sp, ok := v.CoreSpan(first, last, c, score, rec); ok {
		out = append(out, sp)
	}
	return out
}

// honorificsBefore returns the first word of up to two honorifics ("Dr.",
// "Prof. Dr.", "Mme") right before word first on its line. Ranks and
// offices ("General", "President") count too when capitalised: one rule
// for all titles (titles.go).
func honorificsBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	f := first
	for k := first - 1; k >= 0 && k >= first-2 && v.LineOf(k) == v.LineOf(first); k-- {
		l := strings.TrimSuffix(v.CoreLower(k), ".")
		if l == "" || strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;:") {
			break
		}
		if !gz.Titles.Has(l) && !((rankTitles[l] || offices[l]) && view.IsCapitalised(v.CoreText(k))) {
			break
		}
		// One-letter titles ("M." for Monsieur) only in capitals with a dot.
		if len(l) == 1 && v.CoreText(k) != strings.ToUpper(l)+"." {
			break
		}
		f = k
	}
	return f
}

// Coordination: names listed with a name ("Kovalev, Lee and Phillips",
// "Lang and Fowler") are names too when the gazetteers know them as first
// names or surnames and they are neither ordinary words nor places.

func isConjunction(l string) bool {
	switch l {
	case "and", "&", "und", "et", "y", "e", "en", "or":
		return true
	}
	return false
}

// knownName reports whether word i is a capitalised first name or surname
// that is not also an ordinary word or a place.
func knownName(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if !nameShaped(t) {
		return false
	}
	f := gz.Lex[l]
	return f&(gazetteer.FirstName|gazetteer.Surname) != 0 && f&(gazetteer.Common|gazetteer.City|gazetteer.Country|gazetteer.Title) == 0
}

// coordinatedAfter grows a name ending at last over the names listed
// after it on its line and, where the paragraph wraps, the next.
func coordinatedAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	ln := v.LineOf(last)
	_, end := v.Line(ln)
	if v.FlowsOn(ln) {
		_, end = v.Line(ln + 1) // a list wrapped onto the next line
	}
	for {
		k := last + 1
		switch {
		case k < end && isConjunction(v.CoreLower(k)):
			k++
		case strings.HasPrefix(v.Text[v.CoreEnd(last):v.WordEnd(last)], ","):
		default:
			return last
		}
		if k >= end || !knownName(v, gz, k) && !coordName(v, gz, last, k) && !listTail(v, gz, last, k, end) {
			return last
		}
		last = k
		if k+1 < end && knownName(v, gz, k+1) && !strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;:") {
			last = k + 1
		}
	}
}

// coordinatedBefore grows a name starting at first over the names listed
// before it on its line and, where the paragraph wraps, the one before.
func coordinatedBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	ln := v.LineOf(first)
	lf, _ := v.Line(ln)
	if ln > 0 && v.FlowsOn(ln-1) {
		lf, _ = v.Line(ln - 1) // a list wrapped from the line before
	}
	for {
		k := first - 1
		switch {
		case k > lf && isConjunction(v.CoreLower(k)):
			k--
		case k >= lf && strings.HasPrefix(v.Text[v.CoreEnd(k):v.WordEnd(k)], ","):
		default:
			return first
		}
		if k < lf || isConjunction(v.CoreLower(k)) || !knownName(v, gz, k) && !(k > lf && !view.EndsSentence(v, k-1) && coordName(v, gz, first, k)) {
			return first
		}
		first = k
	}
}
