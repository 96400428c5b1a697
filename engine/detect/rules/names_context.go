package rules

import (
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Names told by their place in a sentence rather than by the lists:
// dialogue, address and a few fixed phrases put a lone name, often one no
// list knows, where only a name can stand. Each rule asks for a word that
// is no ordinary word (and, unless the context is strong, no town), and
// for a pattern around it that ordinary words do not fill:
//
//   - a speaker label: `Amber:"I'm Cynthia's daughter"`, `Rafaela: "Who
//     are you?"`: a sentence start, a colon and a quotation mark;
//   - an attribution: `...," says Rintanen.`, `jealous! said Tómas to
//     Colleen`, news' indirect speech in every language: `..., sagte
//     Alt.`, `..., aldus Rutte.`; a speaker: `Lasse shouted at Sara`;
//   - a vocative: "Don't go to town, Charlotte!" (a known first name);
//     "Vala, can I please speak to your boss?";
//   - an owner or a recipient: "here's Viktor's address", "I'm Cynthia's
//     daughter", "had given Aija his address";
//   - a work or period named after a person: "the Bodnár novel", "a
//     Zachary Örlygsdóttir concert", "than early Andersson?";
//   - a name given: "call me philipp", "starring Lafontaine", "dr. hurst"
//     on a line in lower case;
//   - names listed: "Hermansen and Lowery were", "founders: Nadbath, Smith
//     and Stanton" (two known names, one of them no word and no town).

// speechVerbs attribute a quotation to a speaker.
var speechVerbs = gazetteer.MustWords("context", "speech")

// requestOpeners follow a vocative at the start of a sentence: "Vala,
// can I ...", "Tom, please ...".
var requestOpeners = gazetteer.MustWords("context", "request")

// quoteByte reports whether b is an ASCII quotation mark.
func quoteByte(b byte) bool { return b == '"' || b == '\'' }

// opensQuote reports whether s starts with a quotation mark, possibly
// escaped ("\"" in text exported from JSON).
func opensQuote(s string) bool {
	s = strings.TrimPrefix(s, `\`)
	if s == "" {
		return false
	}
	if quoteByte(s[0]) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r == '“' || r == '„' || r == '«'
}

// closesQuote reports whether the text after a word's core ends a
// quotation: `,"`, `?”`, `.\"`.
func closesQuote(tail string) bool {
	tail = strings.TrimRight(tail, " ")
	if tail == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(tail)
	return r == '"' || r == '”' || r == '»' || r == '\''
}

// loneName reports whether w (a word's core) can be a name on its own
// where the sentence calls for one: capitalised (or any case on a line in
// lower case), letters only, and no ordinary word, town, country, title,
// month or weekday; known first names that are also towns pass when
// frequent ("Charlotte"), or any known name that is also a town where the
// context is strong (a speaker label, an attribution), where a frequent
// first name may even be a country ("Jordan").
func loneName(gz *gazetteer.Gazetteers, w string, lower, strong bool) bool {
	l := strings.ToLower(w)
	if !(nameShaped(w) && !view.IsAllUpper(w) || lower && l == w && isLetters(l) && utf8.RuneCountInString(l) >= 3) {
		return false
	}
	if stopwords[l] || nameLabels[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) || speechVerbs[l] || requestOpeners[l] {
		return false
	}
	f := gz.Lex[l]
	if strong && f&gazetteer.TopFirstName != 0 {
		f &^= gazetteer.Country // a speaker "Jordan:" is a person
	}
	if f&(gazetteer.Common|gazetteer.Country|gazetteer.Title|gazetteer.StreetSuffix|gazetteer.StreetPrefix|gazetteer.Unit|gazetteer.LegalForm) != 0 {
		return false
	}
	return f&gazetteer.City == 0 || f&gazetteer.TopFirstName != 0 || strong && f&(gazetteer.FirstName|gazetteer.Surname) != 0
}

// sentenceStart reports whether word i of the line starting at word first
// starts a sentence.
func sentenceStart(v *view.View, i, first int) bool {
	if i == 0 {
		return true
	}
	if view.EndsSentence(v, i-1) {
		return true
	}
	// A line that starts a paragraph, or starts after a line ending in a
	// quotation ("...?\"") or in anything but a comma: a line break
	// after a number or a name ends a record as often as it wraps one,
	// and the rules that ask for a sentence start also ask for a strong
	// pattern after it.
	if i != first {
		return false
	}
	prev := v.WordText(i - 1)
	return !v.FlowsOn(v.LineOf(i)-1) || closesQuote(v.Text[v.CoreEnd(i-1):v.WordEnd(i-1)]) ||
		!strings.HasSuffix(prev, ",") && !strings.HasSuffix(prev, ";") && !strings.HasSuffix(prev, "-")
}

// contextNames finds names on the line [first, end) by their place in the
// sentence (see above).
func contextNames(v *view.View, gz *gazetteer.Gazetteers, first, end int, lower bool) []page.Span {
	var out []page.Span
	// Rules look ahead into the next line where the paragraph wraps.
	pend := end
	if ln := v.LineOf(first); v.FlowsOn(ln) {
		_, pend = v.Line(ln + 1)
	}
	for i := first; i < end; i++ {
		if sp, ok := speakerAt(v, gz, i, first, lower); ok {
			out = append(out, sp)
			continue
		}
		k := listAt(v, gz, i, first, pend, lower)
		if k == 0 {
			k = pairAt(v, gz, i, first, pend, lower)
		}
		if k > 0 {
			js := []int{i, i + k} // a pair
			if k == 3 {
				js = []int{i, i + 1, i + 3} // a list
			}
			for _, j := range js {
				if sp, ok := v.CoreSpan(j, j, page.Person, 0.45, "name-context"); ok {
					out = append(out, sp)
				}
			}
			i += k
			continue
		}
		if k := ownerAt(v, gz, i, pend, lower); k > 0 {
			s, _ := v.Core(i) // the name without its "'s"
			if sp, ok := v.Span(s, s+k, page.Person, 0.5, "name-context"); ok {
				out = append(out, sp)
			}
			continue
		}
		if a := authorAt(v, gz, i, pend, lower); a >= 0 {
			if sp, ok := v.CoreSpan(a, i, page.Person, 0.5, "name-context"); ok {
				out = append(out, sp)
			}
			continue
		}
		if lowerTitled(v, gz, i, first, lower) {
			if sp, ok := v.CoreSpan(i-1, i, page.Person, 0.5, "name-context"); ok {
				out = append(out, sp)
			}
			continue
		}
		if namedAt(v, gz, i, first, lower) || attributedAt(v, gz, i, first, pend, lower) || vocativeAt(v, gz, i, first, pend, lower) || speakingAt(v, gz, i, first, pend, lower) ||
			recipientAt(v, gz, i, pend, lower) || periodAt(v, gz, i, pend, lower) {
			if sp, ok := v.CoreSpan(i, i, page.Person, 0.5, "name-context"); ok {
				out = append(out, sp)
			}
		}
	}
	return out
}

// speakerAt finds a speaker label at word i: the word starts a sentence
// and its name is followed by a colon and a quotation mark, in the same
// word (`Amber:"I'm`) or the next (`Emma: "Who`).
func speakerAt(v *view.View, gz *gazetteer.Gazetteers, i, first int, lower bool) (page.Span, bool) {
	if !sentenceStart(v, i, first) {
		return page.Span{}, false
	}
	s, e := v.WordRange(i)
	w := v.Text[s:e]
	name, rest, ok := strings.Cut(w, ":")
	if !ok || !loneName(gz, name, lower, true) {
		return page.Span{}, false
	}
	switch {
	case rest != "":
		if !opensQuote(rest) {
			return page.Span{}, false
		}
	case i+1 < v.Len() && opensQuote(v.WordText(i+1)):
	default:
		return page.Span{}, false
	}
	return v.Span(s, s+len(name), page.Person, 0.5, "name-context")
}

// attributedAt reports whether word i names the speaker of a quotation
// or of reported speech, closing its sentence after a verb of speech that
// follows the quotation or a comma: `...," says Rintanen.`, `I'm so
// jealous! said Tómas to Colleen`, `..., sagte Alt.`.
func attributedAt(v *view.View, gz *gazetteer.Gazetteers, i, first, end int, lower bool) bool {
	if i-2 < 0 || !speechVerbs[v.WordLower(i-1)] || !loneName(gz, v.CoreText(i), lower, true) {
		return false
	}
	if i+2 < end && v.WordLower(i+1) == "to" && v.Text[v.CoreEnd(i):v.WordEnd(i)] == "" && view.EndsSentence(v, i-2) {
		return true // `I'm so jealous! said Tómas to Colleen`
	}
	if !closesQuote(v.WordText(i-2)) && !strings.HasSuffix(v.WordText(i-2), ",") {
		return false
	}
	tail := v.Text[v.CoreEnd(i):v.WordEnd(i)]
	return endsSentenceAt(v, i) || tail == "" && i+1 == v.Len()
}

// endsSentenceAt reports whether word i ends its sentence: with its own
// period, "!" or "?" (view.EndsSentence), or before one standing alone on
// its line, as tokenised text writes it ("sagte Alt .").
func endsSentenceAt(v *view.View, i int) bool {
	if view.EndsSentence(v, i) {
		return true
	}
	if i+1 >= v.Len() || v.LineOf(i+1) != v.LineOf(i) {
		return false
	}
	switch v.WordText(i + 1) {
	case ".", "!", "?":
		return true
	}
	return false
}

// vocativeAt reports whether word i is a person addressed: ", Charlotte!"
// (a known first name) or "Vala, can I ..." at the start of a sentence.
func vocativeAt(v *view.View, gz *gazetteer.Gazetteers, i, first, end int, lower bool) bool {
	c := v.CoreText(i)
	tail := v.Text[v.CoreEnd(i):v.WordEnd(i)]
	if i > 0 && strings.HasSuffix(v.WordText(i-1), ",") && (strings.HasPrefix(tail, "!") || strings.HasPrefix(tail, "?")) {
		l := strings.ToLower(c)
		return loneName(gz, c, lower, false) && gz.Lex[l]&gazetteer.FirstName != 0 && gz.Lex[l]&gazetteer.Surname == 0 ||
			loneName(gz, c, lower, false) && gz.Lex[l]&gazetteer.TopFirstName != 0
	}
	if tail != "," || i+1 >= v.Len() || !sentenceStart(v, i, first) || !requestOpeners[v.WordLower(i+1)] {
		return false
	}
	return loneName(gz, c, lower, false)
}

// speakingAt reports whether word i, starting a sentence, is the subject
// of a verb of speech aimed at someone: "Lasse shouted at Sara: ...",
// "Kotoya said to Morgan".
func speakingAt(v *view.View, gz *gazetteer.Gazetteers, i, first, end int, lower bool) bool {
	if i+2 >= end || v.Text[v.CoreEnd(i):v.WordEnd(i)] != "" || !speechVerbs[v.WordLower(i+1)] || !sentenceStart(v, i, first) {
		return false
	}
	if p := v.WordLower(i + 2); p != "at" && p != "to" {
		return false
	}
	return loneName(gz, v.CoreText(i), lower, true)
}

// dataNouns are personal data a person has ("Viktor's address") and a
// person's kin.
var dataNouns = gazetteer.MustWords("labels", "data-noun")

// possessives are the pronouns after a recipient: "had given Chise his
// address".
var possessives = gazetteer.MustWords("context", "possessive")

// givingVerbs take a recipient before what is given.
var givingVerbs = gazetteer.MustWords("context", "giving")

// ownerAt returns the length in bytes of the name at word i when it is
// in the possessive before a personal-data or kin noun ("here's Viktor's
// address", "Emre's phone number", "Cynthia's daughter"), or 0.
func ownerAt(v *view.View, gz *gazetteer.Gazetteers, i, end int, lower bool) int {
	if i+1 >= end || !dataNouns[strings.TrimRight(v.CoreLower(i+1), `\`)] {
		return 0
	}
	for _, p := range []string{"'s", "’s", `\'s`} {
		if c, ok := strings.CutSuffix(v.CoreText(i), p); ok && plainName(gz, c, lower) {
			return len(c)
		}
	}
	return 0
}

// recipientAt reports whether word i is a name between a verb of giving
// and a possessive pronoun: "Anthony had given Aija his address".
func recipientAt(v *view.View, gz *gazetteer.Gazetteers, i, end int, lower bool) bool {
	if i < 1 || i+1 >= end || !givingVerbs[v.WordLower(i-1)] || !possessives[v.WordLower(i+1)] ||
		v.Text[v.CoreEnd(i):v.WordEnd(i)] != "" {
		return false
	}
	return plainName(gz, v.CoreText(i), lower)
}

// plainName is loneName without towns at all: outside dialogue, "London's
// address" is a town's.
func plainName(gz *gazetteer.Gazetteers, w string, lower bool) bool {
	return loneName(gz, w, lower, false) && gz.Lex[strings.ToLower(w)]&gazetteer.City == 0
}

// pairAt finds two surnames joined by "and" or "&" at word i ("Hermansen
// and Lowery were engineers", "schiavone & livingston") and returns the
// distance to the second, or 0. Both must be names the lists know, one at
// least neither an ordinary word nor a town (as for a firm's partners),
// and the pair must stand alone: no capitalised word right before or
// after it ("Marks and Spencer Group"), no firm's kin after it ("Smith
// and Sons").
func pairAt(v *view.View, gz *gazetteer.Gazetteers, i, first, end int, lower bool) int {
	if i+2 >= end || !isConjunction(v.CoreLower(i+1)) || v.CoreLower(i+1) == "or" || v.Text[v.CoreEnd(i):v.WordEnd(i)] != "" ||
		v.Text[v.CoreEnd(i+1):v.WordEnd(i+1)] != "" || !standsAlone(v, gz, i, i+2, first, end) {
		return 0
	}
	ok1, known1, plain1 := listWord(v, gz, i, lower)
	ok2, known2, plain2 := listWord(v, gz, i+2, lower)
	if !ok1 || !ok2 || !known1 || !known2 || !plain1 && !plain2 {
		return 0
	}
	if lower && (gz.Lex[v.CoreLower(i)]|gz.Lex[v.CoreLower(i+2)])&gazetteer.Common != 0 {
		return 0 // "jack and max": in lower case, both must be no words
	}
	return 2
}

// listAt finds three names listed at word i ("founders: Mazzi, Bowman
// and Hill", "chaussée, blair and parks") and returns the distance to the
// last, or 0. Two of them at least must be names the lists know, one of
// those neither an ordinary word nor a town; a word no list knows must be
// no ordinary word either. "Paris, London and Berlin" and "Red, Green and
// Blue" are no names.
func listAt(v *view.View, gz *gazetteer.Gazetteers, i, first, end int, lower bool) int {
	if i+3 >= end || !strings.HasPrefix(v.Text[v.CoreEnd(i):v.WordEnd(i)], ",") || v.Text[v.CoreEnd(i+1):v.WordEnd(i+1)] != "" ||
		!isConjunction(v.CoreLower(i+2)) || v.CoreLower(i+2) == "or" || v.Text[v.CoreEnd(i+2):v.WordEnd(i+2)] != "" ||
		!standsAlone(v, gz, i, i+3, first, end) {
		return 0
	}
	known, plain := 0, false
	for _, j := range []int{i, i + 1, i + 3} {
		ok, k, p := listWord(v, gz, j, lower)
		if !ok || !k && gz.Lex[v.CoreLower(j)]&gazetteer.Common != 0 {
			return 0
		}
		if k {
			known++
			plain = plain || p
		}
	}
	if known < 2 || !plain {
		return 0
	}
	return 3
}

// standsAlone reports whether the words s..e have no capitalised word
// right before or after them.
func standsAlone(v *view.View, gz *gazetteer.Gazetteers, s, e, first, end int) bool {
	if s > first && view.IsCapitalised(v.CoreText(s-1)) && v.Text[v.CoreEnd(s-1):v.WordEnd(s-1)] == "" {
		return false
	}
	return !(e+1 < end && view.IsCapitalised(v.CoreText(e+1)) && v.Text[v.CoreEnd(e):v.WordEnd(e)] == "")
}

// listWord reports whether word j can be a name in a list: capitalised
// (any case on a line in lower case), letters only, no function word,
// month, weekday, firm's kin, country, title, street, unit or legal word;
// whether the lists know it as a first name or surname; and whether it is
// then plain: neither an ordinary word nor a town.
func listWord(v *view.View, gz *gazetteer.Gazetteers, j int, lower bool) (ok, known, plain bool) {
	w, l := v.CoreText(j), v.CoreLower(j)
	if !(nameShaped(w) && !view.IsAllUpper(w) || lower && l == w && isLetters(l) && utf8.RuneCountInString(l) >= 3) {
		return false, false, false
	}
	if stopwords[l] || kinWords[l] || orgHeads[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) {
		return false, false, false
	}
	const not = gazetteer.Country | gazetteer.Title | gazetteer.Unit | gazetteer.LegalForm |
		gazetteer.StreetSuffix | gazetteer.StreetPrefix
	f := gz.Lex[l]
	if f&not != 0 {
		return false, false, false
	}
	known = f&(gazetteer.FirstName|gazetteer.Surname) != 0
	return true, known, known && f&(gazetteer.Common|gazetteer.City) == 0
}

// workNouns are works and followers named after a person: "the Bodnár
// novel", "a Zachary Örlygsdóttir concert", "a huge Rangel fan".
var workNouns = gazetteer.MustWords("context", "work")

// authorAt returns the first word of the name of the person a work is
// named after that ends at word i, or -1: an article (or "huge") and a
// name, a first name with it, right before a work noun.
func authorAt(v *view.View, gz *gazetteer.Gazetteers, i, end int, lower bool) int {
	if i < 1 || i+1 >= end || !workNouns[v.CoreLower(i+1)] || v.Text[v.CoreEnd(i):v.WordEnd(i)] != "" {
		return -1
	}
	a := i - 1
	if a > 0 && gz.Lex[v.CoreLower(a)]&gazetteer.FirstName != 0 && v.Text[v.CoreEnd(a):v.WordEnd(a)] == "" &&
		(nameShaped(v.CoreText(a)) || lower) {
		a-- // "a Zachary Örlygsdóttir concert"
	}
	switch v.WordLower(a) {
	case "the", "a", "an", "huge", "big":
	default:
		return -1
	}
	if !artistName(gz, v.CoreText(i), lower) {
		return -1
	}
	return a + 1
}

// periodAt reports whether word i is an artist named by a period of the
// work: "than early Andersson?", "of late Picasso,". The name ends a
// clause.
func periodAt(v *view.View, gz *gazetteer.Gazetteers, i, end int, lower bool) bool {
	if i < 1 || v.Text[v.CoreEnd(i):v.WordEnd(i)] == "" && i+1 < end {
		return false
	}
	if p := v.WordLower(i - 1); p != "early" && p != "late" && p != "mid-period" {
		return false
	}
	return artistName(gz, v.CoreText(i), lower)
}

// styleSuffixes end adjectives of style and origin written with a capital
// ("Gothic", "Victorian", "Japanese", "Baroque" aside), which stand where
// an artist's name does: "the Gothic novel", "late Victorian".
var styleSuffixes = []string{"ic", "ian", "ean", "ese", "ish", "ist", "ism", "al", "que", "ance", "ern", "ine", "ive"}

// artistName is plainName, except that a word that is no known first
// name must not look like an adjective of style or origin (the surname
// lists hold "Victorian").
func artistName(gz *gazetteer.Gazetteers, w string, lower bool) bool {
	if !plainName(gz, w, lower) {
		return false
	}
	l := strings.ToLower(w)
	if gz.Lex[l]&gazetteer.FirstName != 0 {
		return true
	}
	for _, s := range styleSuffixes {
		if strings.HasSuffix(l, s) {
			return false
		}
	}
	return true
}

// namedAt reports whether word i is a name given right after a phrase
// that names a person, on a line in lower case ("sometimes people call
// me philipp", "she named him anthony", "my name is omar"; cued
// does this for capitalised names), or after "starring" or "featuring"
// in any case.
func namedAt(v *view.View, gz *gazetteer.Gazetteers, i, first int, lower bool) bool {
	if i < 1 {
		return false
	}
	b := v.WordLower(i - 1)
	if b == "starring" || b == "featuring" {
		return loneName(gz, v.CoreText(i), lower, true)
	}
	if !lower || i < 2 {
		return false
	}
	a := v.WordLower(i - 2)
	switch {
	case (a == "call" || a == "calls" || a == "called" || a == "named" || a == "name") && (b == "me" || b == "him" || b == "her"):
	case a == "name" && b == "is":
	default:
		return false
	}
	return loneName(gz, v.CoreText(i), lower, true)
}

// lowerTitled reports whether word i is a name after an honorific with
// its dot on a line in lower case: "dr. hurst is a 50 year old man".
func lowerTitled(v *view.View, gz *gazetteer.Gazetteers, i, first int, lower bool) bool {
	if !lower || i < 1 {
		return false
	}
	switch v.WordText(i - 1) {
	case "dr.", "mr.", "mrs.", "ms.", "prof.", "mx.":
	default:
		return false
	}
	return loneName(gz, v.CoreText(i), lower, true)
}
