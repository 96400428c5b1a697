package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/page"
)

// repeatOrgs masks, as an Organization, the other occurrences on the page
// of a whole Organization span's words: a club or firm found once and left
// where it comes again ("Heerenveen won ... at Heerenveen"). The words must
// match exactly (a possessive "'s" aside), in order, where no span covers
// any of them. A name of one word must be repeatable (see repeatable) or
// an organisation's initials (see acronym: re3d's "ISIL", which the model
// finds in one sentence and misses in the next), and does not repeat
// after a determiner, nor to a sentence's opening word where it is an
// ordinary word of the block's language ("Podemos decir" after the
// party Podemos);
// a longer one, of at most six words, must start and end with a
// capitalised word. A country's name never repeats: the model reads "the
// United States" as a government now and then, and the country is named
// everywhere.
type repeatOrgs struct{}

func (repeatOrgs) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
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
			if len(n) == 1 && (determinerBefore(v, i) || opensSentence(v, i) && inLang(gz, langFlag(v, i), strings.ToLower(n[0]))) {
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
