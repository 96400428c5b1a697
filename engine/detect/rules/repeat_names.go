package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
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
type repeatNames struct{}

func (repeatNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
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
