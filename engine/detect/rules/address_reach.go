package rules

import (
	"strings"
	"unicode"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
)

// How far an address reaches: the address words around an address span,
// which grow-address, labelled-addresses, address-blocks, affiliations
// and drop-amount-rows read.

// Growth limits: how far an address grows on its line, over how many
// following lines, how many words a following line may have, and the
// longest multi-word place name ("Democratic Republic of the Congo").
const (
	growLineWords = 8
	growLines     = 4
	growLineMax   = 5
	maxPlaceWords = 6
)

// Address growth: the words around an address span that belong to it,
// addresses after labels and cues, and address blocks. A word's class
// (classify) says whether it may belong to an address at all; evidence
// says whether it shows that it does (a number, a known place, a street
// or unit word), since capitalised words alone prove nothing in languages
// that capitalise every noun.

// addrWord classifies word i for address growth.
type addrWord uint8

const (
	awStop    addrWord = iota // ends the address
	awPart                    // belongs to an address
	awNeutral                 // punctuation only ("⏎, LA", "> 12"): neither
)

// classify tells whether word i may be part of an address: a short number
// or code, a capitalised or upper-case word that is not an ordinary word,
// or a lower-case place, street or unit word.
func classify(v *view.View, gz *gazetteer.Gazetteers, i int) addrWord {
	t, l := bare(v, i)
	if t == "" {
		return awNeutral
	}
	if strings.ContainsAny(t, "@/\\") || strings.Contains(l, "www") {
		return awStop
	}
	if view.HasDigit(t) {
		if shortCode(t) {
			return awPart
		}
		return awStop
	}
	if regionCode(t) || militaryWords[l] {
		return awPart
	}
	f := gz.Lex[l]
	place := f&(gazetteer.City|gazetteer.Country|gazetteer.StreetSuffix|gazetteer.StreetPrefix|gazetteer.Unit|gazetteer.POBox) != 0
	switch {
	case runningText(v, gz, i):
		if addrParticles[l] && !isConjunction(l) {
			return awNeutral
		}
		return awStop // "..., 7328 ZC Apeldoorn, en dr. Saar De Boer"
	case growStop[l] || addrNameStop[l] && !place:
		return awStop
	case place:
		return awPart
	case view.IsCapitalised(t):
		if f&gazetteer.Common != 0 && !view.IsAllUpper(t) {
			return awStop
		}
		return awPart
	case addrParticles[l]:
		return awNeutral
	case f&gazetteer.Common == 0 && len(l) >= 4 && isLetters(l):
		// A lower-case word no list knows: a foreign street or town
		// name in an address written in lower case.
		return awPart
	}
	return awStop
}

// shortCode reports whether t, which holds a digit, may be a house
// number or postcode ("12", "10.", "D-12345", "2B"); longer digit runs
// are phone, account or card numbers.
func shortCode(t string) bool { return len(t) <= 10 && countDigits(t) <= 6 }

// regionCode reports whether t is a US state or Canadian province code
// written in capitals ("IL", "ON").
func regionCode(t string) bool {
	return len(t) == 2 && view.IsAllUpper(t) && (usStates[t] != "" || caProvinces[t])
}

func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && r != '-' {
			return false
		}
	}
	return true
}

// addressWords are the Lex flags of the words only addresses hold:
// street types before and after the name, unit and post-box words.
const addressWords = gazetteer.StreetSuffix | gazetteer.StreetPrefix | gazetteer.Unit | gazetteer.POBox

// runningText reports whether word i, in a block of one of the six other
// languages than English, is written in lower case and is a word of
// running text there: a particle of street and place names ("la", "de",
// "und") or a word of the language's lower-case list (inLang), and no
// street, unit or post-box word (but for particles: "la" is also an
// abbreviation of "Lane"). The town lists hold such words as names
// ("La", "Und"), which would grow an address over the sentence after it
// ("48381 Berreño, la comisión resolvió ...").
//
// Next to a number on its line, or just after a street type, such a word
// is the address's own: a floor ("3, bajo der."), a street named with
// words ("Calle puente cesures"), a gap in a form ("Rotokauri nan 88775").
func runningText(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	lf := langFlag(v, i)
	if lf == 0 || !lowerWord(v.CoreText(i)) {
		return false
	}
	l := v.CoreLower(i)
	if !addrParticles[l] && (gz.Lex[l]&addressWords != 0 || !inLang(gz, lf, l)) {
		return false // particles first: "la" is also English's "Lane"
	}
	line := v.LineOf(i)
	for k := i - 2; k <= i+1; k++ {
		if k == i || k < 0 || k >= v.Len() || v.LineOf(k) != line {
			continue
		}
		if t := v.CoreText(k); view.HasDigit(t) && k >= i-1 || k < i && gz.Lex[v.CoreLower(k)]&gazetteer.StreetPrefix != 0 {
			return false
		}
	}
	return true
}

// growStop are words that end an address whatever their case: labels
// and greetings that follow address blocks, and sentence words.
var growStop = gazetteer.MustWords("stopwords", "address-end")

// evidence reports whether word i is more than a capitalised word: a
// house number or postcode, a known place, street, unit or post-box word,
// a US state or Canadian province code or a military-address word. Growth
// keeps capitalised words no list knows only between such words: in
// German text every noun is capitalised ("Rechnungsdatum Kundennr.").
func evidence(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	t, l := bare(v, i)
	switch {
	case t == "":
		return false
	case view.HasDigit(t):
		return shortCode(t)
	case regionCode(t), militaryWords[l]:
		return true
	}
	const place = gazetteer.Country | addressWords
	f := gz.Lex[l]
	switch {
	case growStop[l] || runningText(v, gz, i):
		return false
	case f&place != 0:
		return true
	}
	// Many towns are named like people ("Anna", "Jackson"): a town that
	// is also a first name or surname is no evidence by itself.
	return f&gazetteer.City != 0 && f&(gazetteer.FirstName|gazetteer.Surname) == 0
}

// lineEvidence is evidence strong enough to make a line part of an
// address: a bare number of one to three digits only next to a street
// name, a word of four letters or more that is no ordinary word
// ("Vesturgata 66"), not next to an abbreviation ("Qty 3"); a unit, street
// or place word elsewhere on the line ("Apt. 217") counts by itself.
func lineEvidence(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if !evidence(v, gz, i) {
		return false
	}
	t, _ := bare(v, i)
	if !pattern.AllDigits(t) || len(t) >= 4 {
		return true
	}
	for _, k := range []int{i - 1, i + 1} {
		if k < 0 || k >= v.Len() || v.LineOf(k) != v.LineOf(i) {
			continue
		}
		n, l := bare(v, k)
		if len([]rune(n)) >= 4 && isLetters(l) && gz.Lex[l]&gazetteer.Common == 0 {
			return true
		}
	}
	return false
}

// militaryWords are the words of US military and diplomatic addresses
// ("USNS Frías, FPO AA 88037", "PSC 2905, Box 1278, APO AE 40674").
var militaryWords = gazetteer.MustWords("addresses", "military")

// bare is word i's core, as written and in lower case, without the
// punctuation that quoting and form layouts put before it (">31",
// "•Suite", "(Apt").
func bare(v *view.View, i int) (text, lower string) {
	t, l := v.CoreText(i), v.CoreLower(i)
	n := len(t) - len(strings.TrimLeftFunc(t, notAlnum))
	if n > 0 && len(l) == len(t) {
		return t[n:], l[n:]
	}
	return t, l
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if view.IsDigit(s[i]) {
			n++
		}
	}
	return n
}

// placeAt matches a multi-word city or country starting at word i ("Antigua
// and Barbuda", "Democratic Republic of the Congo"), possibly wrapped onto
// the next line, and returns its last word, or -1.
func placeAt(v *view.View, gz *gazetteer.Gazetteers, i int) int {
	_, first := bare(v, i)
	if gz.Lex[first]&gazetteer.MultiStart == 0 {
		return -1
	}
	// The name may wrap onto the next line ("Bosnia and" / "Herzegovina").
	_, end := v.Line(min(v.LineOf(i)+1, v.Lines()-1))
	words := []string{first}
	best := -1
	for k := i + 1; k < end && k < i+maxPlaceWords; k++ {
		words = append(words, v.CoreLower(k))
		name := strings.Join(words, " ")
		if gz.Countries.Has(name) || gz.Cities.Has(name) {
			best = k
		}
	}
	return best
}

// addressBefore grows an address starting at word first to the left on
// its line, over at most three numbers and name words ("07 262 Pavlou"
// before "Drandaki 15") as far as the farthest evidence word, stopping at
// punctuation that ends a clause.
func addressBefore(v *view.View, gz *gazetteer.Gazetteers, first int) int {
	f := first
	lf, _ := v.Line(v.LineOf(first))
	if first == lf && v.LineOf(first) > 0 && v.FlowsOn(v.LineOf(first)-1) {
		// Text that wraps: the address may start on the line before
		// ("... send it to 53 Pierre" / "Delannoyplaats 211 ...").
		lf, _ = v.Line(v.LineOf(first) - 1)
	}
	_, le := v.Line(v.LineOf(first))
	for k := first - 1; k >= lf && k >= first-4; k-- {
		if endsClause(v, k) && !abbrevInName(v, k, le) || classify(v, gz, k) != awPart {
			break
		}
		if evidence(v, gz, k) {
			f = k
		}
	}
	// "the corner of X and Y": the crossing is the address.
	if f >= 2 && v.CoreLower(f-1) == "of" && v.CoreLower(f-2) == "corner" {
		f -= 2
		if f >= 1 && v.CoreLower(f-1) == "the" {
			f--
		}
	}
	return f
}

// addressAfter grows an address ending at word last over the rest of its
// line and the address lines under it; it returns the new last word.
func addressAfter(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	last = alongLine(v, gz, last)
	for n := 0; n < growLines; n++ {
		_, end := v.Line(v.LineOf(last))
		if !onlyNeutralBetween(v, gz, last+1, end) || v.LineOf(last)+1 >= v.Lines() {
			break
		}
		k := v.LineOf(last) + 1
		f, e := v.Line(k)
		l, full, ev := addressLine(v, gz, f, e, true)
		if l >= 0 && !ev && full && k+1 < v.Lines() {
			// A line without evidence joins when the next one has some.
			f2, e2 := v.Line(k + 1)
			if l2, full2, ev2 := addressLine(v, gz, f2, e2, true); l2 >= 0 && ev2 {
				l, full, ev = l2, full2, true
				n++
			}
		}
		if l < 0 || !ev {
			break
		}
		last = l
		if !full {
			break
		}
	}
	return last
}

// alongLine grows over the address words after last on its line.
func alongLine(v *view.View, gz *gazetteer.Gazetteers, last int) int {
	_, end := v.Line(v.LineOf(last))
	if endsAddressSentence(v, gz, last) {
		return last
	}
	out := last
	wrapped := false
	for k := last + 1; k <= last+growLineWords; k++ {
		if k >= end {
			// An address that runs to the end of its line may wrap
			// onto the next one in flowed text ("... Apt. 094 Montzen"
			// / "Liège"): go on there once, under the same rules.
			if wrapped || k >= v.Len() || !v.FlowsOn(v.LineOf(k-1)) || strings.ContainsAny(v.Text[v.CoreEnd(k-1):v.WordEnd(k-1)], ":;") {
				return out
			}
			wrapped = true
			_, end = v.Line(v.LineOf(k))
		}
		if wrapped && strings.Contains(v.Text[v.CoreEnd(k):v.WordEnd(k)], ":") {
			return out // "Bot:", "Phone:": a label starts something new
		}
		if p := placeAt(v, gz, k); p >= 0 {
			out, k = p, p
			_, end = v.Line(v.LineOf(p)) // a place name may wrap
		} else if j := crossing(v, gz, k, end); j > k {
			out, k = j, j
		} else {
			switch classify(v, gz, k) {
			case awStop:
				if !nameBeforeNumber(v, gz, k, end) {
					return out
				}
			case awPart:
				// Capitalised words no list knows join only when
				// evidence follows ("Ebermannsdorf Belarus").
				// On the next line only line evidence counts: "Qty 3"
				// under an address is no part of it.
				if evidence(v, gz, k) && (!wrapped || lineEvidence(v, gz, k)) {
					out = k
				}
			}
		}
		if endsAddressSentence(v, gz, k) || strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ":;") {
			return out
		}
	}
	return out
}

// nameBeforeNumber reports whether word k is a lower-case street word
// that no list knows, followed by a house number ("Trg revolucije 12",
// "Gosposka ulica 47"): letters only, not an ordinary English word.
func nameBeforeNumber(v *view.View, gz *gazetteer.Gazetteers, k, end int) bool {
	t, l := bare(v, k)
	if k+1 >= end || t != l || !isLetters(l) || growStop[l] || addrNameStop[l] || gz.Lex[l]&gazetteer.Common != 0 {
		return false
	}
	n, _ := bare(v, k+1)
	return view.HasDigit(n) && len(n) <= 6
}

// crossing matches the second street of a crossing ("... and Sinko
// Street", "... and 98 Tylova 1036") at the conjunction k and returns its
// last word, or k when there is none: the run after the conjunction must
// reach a street type or a number within four words. In flowed text
// the run may go on over the line break after the conjunction's line
// ("... and Maclean" / "Street").
func crossing(v *view.View, gz *gazetteer.Gazetteers, k, end int) int {
	if l := v.CoreLower(k); !isConjunction(l) || l == "or" {
		return k
	}
	if ln := v.LineOf(k); end == v.LineEnd(k) && v.FlowsOn(ln) {
		_, end = v.Line(ln + 1)
	}
	for j := k + 1; j < end && j <= k+4; j++ {
		if classify(v, gz, j) != awPart {
			return k
		}
		if view.HasDigit(v.CoreText(j)) || j > k+1 && gz.Lex[v.CoreLower(j)]&gazetteer.StreetSuffix != 0 {
			return j // a street type needs its name before it: "en dr. Saar De Boer" is no crossing
		}
	}
	return k
}

// addressLine reports whether words [f, e) form an address line (unit,
// town, postcode, region, country: at most growLineMax words, no label
// such as "Vorstand:") and returns its last address word, or -1. ev tells
// whether the line holds evidence; one without ("Alluitsup Paa") only
// belongs to an address between lines that do. With partial, the line
// may go on with other words after its evidence ("Reykjavík for the
// forms.").
func addressLine(v *view.View, gz *gazetteer.Gazetteers, f, e int, partial bool) (last int, full, ev bool) {
	if e-f == 0 || !partial && e-f > growLineMax {
		return -1, false, false
	}
	last = -1
	lastEv := -1
	for k := f; k < e && k-f < growLineMax; k++ {
		if p := placeAt(v, gz, k); p >= 0 {
			last, lastEv, k = p, p, p
			continue
		}
		c := classify(v, gz, k)
		if c == awStop || strings.Contains(v.Text[v.CoreEnd(k):v.WordEnd(k)], ":") {
			if partial && lastEv >= 0 {
				return lastEv, false, true
			}
			return -1, false, false
		}
		if c == awPart {
			last = k
			if lineEvidence(v, gz, k) {
				lastEv = k
			}
		}
	}
	return last, last >= 0 && e-f <= growLineMax, lastEv >= 0
}

func onlyNeutralBetween(v *view.View, gz *gazetteer.Gazetteers, f, e int) bool {
	for k := f; k < e; k++ {
		if classify(v, gz, k) != awNeutral {
			return false
		}
	}
	return true
}

// endsAddressSentence reports whether word i ends a sentence for address
// growth: it ends one (endsSentence) with a question or exclamation mark,
// or with a full stop that is no abbreviation's ("Belarus. Please" but not
// "Apt. 676" or "St. John"): the word is no unit, street type, title or
// post-box word, and the next word on its line, if any, is capitalised.
func endsAddressSentence(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if !view.EndsSentence(v, i) {
		return false
	}
	_, ce := v.Core(i)
	_, e := v.WordRange(i)
	if strings.ContainsAny(v.Text[ce:e], "?!") {
		return true
	}
	_, l := bare(v, i)
	if len(l) <= 1 || gz.Lex[l]&(gazetteer.Unit|gazetteer.StreetSuffix|gazetteer.StreetPrefix|gazetteer.Title|gazetteer.POBox) != 0 {
		return false
	}
	if i+1 < v.Len() && v.LineOf(i+1) == v.LineOf(i) {
		t, _ := bare(v, i+1)
		return t == "" || !view.HasDigit(t[:1]) && view.IsCapitalised(t)
	}
	return true
}
