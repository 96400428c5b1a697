package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// What the rules that mask a name again where it repeats share
// (repeat-names, repeat-orgs, family-names, header-names): the words
// spans cover already, possessives, determiners and the name words that
// may repeat.

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
