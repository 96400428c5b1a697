package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// repeatNames masks, as a Person, the other occurrences on the page of a
// name word that a Person span holds: a novel's "Aubert" found in one
// sentence and left in the next, a surname repeated after the full name
// ("Mary Smith ... Smith said"). Only capitalised words that no list
// knows as ordinary words (common_words.txt, or prose_words.txt: the
// novels' lower-case words), titles, months, weekdays, nationalities or
// celestial bodies ("Venus", things.txt) repeat, written exactly as in
// the span (a possessive "'s" aside), and only where no span of any
// category covers them already and no determiner stands before them
// (below). Towns and countries do repeat:
// leaving them out cost gum's dev pages 1.9 points of Person recall (a
// surname is a town as often) for 0.4 of precision.
func repeatNames(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
	covered := coveredWords(v, ss)
	names := map[string]bool{}
	for _, s := range ss {
		if s.Category != page.Person && s.Category != page.Email {
			continue
		}
		if s.Category == page.Email {
			if a, b, ok := v.ByteRange(s); ok {
				for _, n := range addressNames(gz, v.Text[a:b]) {
					names[n] = true
				}
			}
			continue
		}
		f, l := v.SpanWords(s)
		for w := f; w <= l; w++ {
			if n, ok := repeatable(v, gz, w); ok {
				names[n] = true
			}
		}
	}
	if len(names) == 0 {
		return ss
	}
	for i := range v.Len() {
		// A word written as a repeatable name is one: the map lookup
		// alone decides, and most words fail it at once.
		if covered[i] || !names[withoutPossessive(v.CoreText(i))] || determinerBefore(v, i) {
			continue
		}
		if sp, ok := v.CoreSpan(i, i, page.Person, 0.5, "repeat-name"); ok {
			ss = append(ss, sp)
		}
	}
	return ss
}

// coveredWords marks the view's words that a span of ss covers.
func coveredWords(v *view.View, ss []page.Span) []bool {
	covered := make([]bool, v.Len())
	for _, s := range ss {
		f, l := v.SpanWords(s)
		for w := f; w <= l; w++ {
			covered[w] = true
		}
	}
	return covered
}

// withoutPossessive is t without a possessive "'s" or "’s".
func withoutPossessive(t string) string {
	if t, ok := strings.CutSuffix(t, "'s"); ok {
		return t
	}
	t, _ = strings.CutSuffix(t, "’s")
	return t
}

// determiners before a capitalised word make it a defined term or a
// thing's name ("the Borrower", "the London Review", "a Chamberland
// filter"), not a person's: an occurrence after one does not repeat.
var determiners = setOf("the", "a", "an", "this", "that", "these", "those", "each", "every", "any", "such", "said",
	"our", "your", "their", "its", "his", "her", "my")

// determinerBefore reports whether a determiner stands right before word
// i, with no punctuation between them: in "he said. Smith left" the
// "said" ends a sentence and determines nothing.
func determinerBefore(v *view.View, i int) bool {
	return i > 0 && determiners[v.CoreLower(i-1)] && v.CoreEnd(i-1) == v.WordEnd(i-1)
}

// repeatable returns word i as a name that may repeat (its core without a
// possessive ending), or false.
func repeatable(v *view.View, gz *gazetteer.Gazetteers, i int) (string, bool) {
	t := withoutPossessive(v.CoreText(i))
	return t, repeatableName(gz, t)
}

// addressNames returns the parts of an e-mail address's local part
// ("ramona.betancourt" in "ramona.betancourt@enron.com", split at dots,
// hyphens, underscores and digits) that may repeat as names, capitalised
// as a name is written ("Ramona", "Betancourt"): an e-mail printout names
// its sender in the address and again in the "From: Betancourt, Ramona"
// line, where the model often reads neither word. Role addresses
// ("info", "sales") are ordinary words and give nothing. addr is the
// text of an Email span: the recognizer has bounded the address.
func addressNames(gz *gazetteer.Gazetteers, addr string) []string {
	local, _, ok := strings.Cut(addr, "@")
	if !ok {
		return nil
	}
	var out []string
	for _, part := range strings.FieldsFunc(local, func(r rune) bool { return !unicode.IsLetter(r) }) {
		r, n := utf8.DecodeRuneInString(part)
		if t := string(unicode.ToUpper(r)) + part[n:]; repeatableName(gz, t) {
			out = append(out, t)
		}
	}
	return out
}

// repeatableName reports whether t, a word without a possessive ending,
// is a name that may repeat.
func repeatableName(gz *gazetteer.Gazetteers, t string) bool {
	if len(t) < 3 || !nameShaped(t) || view.IsAllUpper(t) {
		return false
	}
	l := strings.ToLower(t)
	if gz.Lex[l]&(gazetteer.Common|gazetteer.Prose|gazetteer.Title) != 0 || stopwords[l] || isTitleWord(gz, l) || nationalities[l] || celestial[l] ||
		pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) {
		return false
	}
	return true
}

// repeatOrgs masks, as an Organization, the other occurrences on the page
// of a whole Organization span's words: a club or firm found once and left
// where it comes again ("Heerenveen won ... at Heerenveen"). The words must
// match exactly (a possessive "'s" aside), in order, where no span covers
// any of them. A name of one word must be repeatable (see repeatable) or
// an organisation's initials (see acronym: re3d's "ISIL", which the model
// finds in one sentence and misses in the next), and does not repeat
// after a determiner;
// a longer one, of at most six words, must start and end with a
// capitalised word. A country's name never repeats: the model reads "the
// United States" as a government now and then, and the country is named
// everywhere.
func repeatOrgs(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
	covered := coveredWords(v, ss)
	var names [][]string
	seen := map[string]bool{}
	for _, s := range ss {
		f, l := v.SpanWords(s)
		if s.Category != page.Organization || l-f > 5 {
			continue
		}
		words := make([]string, 0, l-f+1)
		for w := f; w <= l; w++ {
			words = append(words, withoutPossessive(v.CoreText(w)))
		}
		if l == f {
			if _, ok := repeatable(v, gz, f); !ok && !acronym(gz, words[0]) {
				continue
			}
		} else if !nameShaped(words[0]) || !nameShaped(words[len(words)-1]) {
			continue
		}
		k := strings.Join(words, " ")
		if gz.Countries.Has(strings.ToLower(k)) {
			continue
		}
		if !seen[k] {
			seen[k] = true
			names = append(names, words)
		}
	}
	for _, n := range names {
	next:
		for i := 0; i+len(n) <= v.Len(); i++ {
			for j, w := range n {
				if covered[i+j] || withoutPossessive(v.CoreText(i+j)) != w {
					continue next
				}
			}
			if len(n) == 1 && determinerBefore(v, i) {
				continue
			}
			if sp, ok := v.CoreSpan(i, i+len(n)-1, page.Organization, 0.5, "repeat-org"); ok {
				ss = append(ss, sp)
				for j := range n {
					covered[i+j] = true
				}
			}
		}
	}
	return ss
}

// acronym reports whether w is an organisation's initials: two to six
// capital letters (a dot after each allowed, "U.N."), not a word any list
// knows as ordinary or as a title, unit or country ("NOTE", "MR", "UK").
func acronym(gz *gazetteer.Gazetteers, w string) bool {
	letters := 0
	for _, r := range w {
		switch {
		case r >= 'A' && r <= 'Z':
			letters++
		case r == '.':
		default:
			return false
		}
	}
	if letters < 2 || letters > 6 {
		return false
	}
	l := strings.ToLower(strings.ReplaceAll(w, ".", ""))
	return gz.Lex[l]&(gazetteer.Common|gazetteer.Title|gazetteer.Unit) == 0 && !stopwords[l] &&
		!gz.Countries.Has(l) && pattern.MonthNumber(l) == 0 && !pattern.IsWeekday(l)
}

// familyNames masks, as a Person, a family named by its surname in the
// plural after "the" ("the Claytons", "the Ambersons", "the Joneses"):
// a capitalised word ending in "s" whose singular a surname list holds
// and no list knows as an ordinary word, where the plural itself is no
// ordinary word, place or nationality and no span covers it.
func familyNames(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
	covered := coveredWords(v, ss)
	for i := 1; i < v.Len(); i++ {
		if covered[i] || v.CoreLower(i-1) != "the" || v.Text[v.CoreEnd(i-1):v.WordEnd(i-1)] != "" {
			continue
		}
		if t := v.CoreText(i); familyPlural(gz, t) {
			if sp, ok := v.CoreSpan(i, i, page.Person, 0.5, "family-name"); ok {
				ss = append(ss, sp)
			}
		}
	}
	return ss
}

// familyPlural reports whether t is a surname in the plural (see
// familyNames).
func familyPlural(gz *gazetteer.Gazetteers, t string) bool {
	if len(t) < 4 || !nameShaped(t) || view.IsAllUpper(t) || !strings.HasSuffix(t, "s") || strings.HasSuffix(t, "ss") {
		return false
	}
	l := strings.ToLower(t)
	if gz.Lex[l]&(gazetteer.Common|gazetteer.City|gazetteer.Country|gazetteer.Title) != 0 || stopwords[l] || nationalities[l] {
		return false
	}
	for _, sing := range []string{l[:len(l)-1], strings.TrimSuffix(l, "es")} {
		if f := gz.Lex[sing]; sing != l && f&gazetteer.Surname != 0 && f&gazetteer.Common == 0 && !nationalities[sing] {
			return true
		}
	}
	return false
}
