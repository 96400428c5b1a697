package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// maxFieldWords bounds a labelled field that lists names: a header's
// "To:" line with a dozen people in "Surname, Given" form is about 40.
const maxFieldWords = 60

// headerNames masks, as Persons, the names that a name field lists
// where a Person span already holds one of them: an e-mail printout's
// "To: Corman, Shelley; Donoho, Lindy; Lohman, TK" where the model reads
// "Shelley" and "Lindy" but not "Donoho", "Lohman" or the initials. A
// field opens after a name label and its colon ("From:", "To:", "Cc:",
// "Name:"; see isFieldLabel) and ends at the next word with a colon
// ("Sent:", "Subject:") or the end of its line. Only a field made of
// nothing but name words (see nameWord), words other spans cover, commas
// and semicolons is read as a list of names, so "To: the Board of
// Directors" or "From: Sales, 12 May" adds nothing. Where no Person span
// holds a word of the field, a comma and a word no list knows as an
// ordinary word, a place, a title or a legal form make it one ("From:
// Frolov, Yevgeny"); "To: Sales, Marketing" stays.
type headerNames struct{}

func (headerNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	covered := coveredWords(v, ss)
	person := make([]bool, v.Len())
	for _, s := range ss {
		if s.Category == page.Person {
			f, l := v.SpanWords(s)
			for w := f; w <= l; w++ {
				person[w] = true
			}
		}
	}
	var out []page.Span
	for i := 0; i < v.Len(); i++ {
		if !isFieldLabel(v, i) {
			continue
		}
		start := i + 1
		if start < v.Len() && v.WordText(start) == ":" {
			start++
		}
		end := fieldEnd(v, start)
		if listsNames(v, gz, person, covered, start, end) {
			out = appendNameRuns(out, v, covered, start, end)
		}
		i = max(i, end-1)
	}
	return append(ss, out...)
}

// appendNameRuns appends a Person span for each run of words in
// [start, end) that no span covers and no comma or semicolon breaks
// ("Michael M." of "Driscoll, Michael M.": an initial alone would read
// as a title).
func appendNameRuns(out []page.Span, v *view.View, covered []bool, start, end int) []page.Span {
	for k := start; k < end; k++ {
		if covered[k] || v.CoreLower(k) == "" {
			continue
		}
		l := k
		for l+1 < end && !covered[l+1] && v.CoreLower(l+1) != "" && !listSeparator(v, l) {
			l++
		}
		out = appendCore(out, v, k, l, page.Person, 0.5, "header-name")
		k = l
	}
	return out
}

// fieldEnd returns the end (exclusive) of the field that starts at word
// start: the next word with a colon after it, or the end of the line. A
// list that wraps (its line ends in a comma or a semicolon and the
// paragraph flows on) goes on at the next line.
func fieldEnd(v *view.View, start int) int {
	if start >= v.Len() {
		return start
	}
	ln := v.LineOf(start)
	_, end := v.Line(ln)
	for k := start; k < end && k-start < maxFieldWords; k++ {
		if v.CoreLower(k) != "" && labelsField(v, k) {
			return k
		}
		if k == end-1 && v.FlowsOn(ln) && (listSeparator(v, k) || v.CoreLower(k+1) == "" && listSeparator(v, k+1)) {
			ln++
			_, end = v.Line(ln)
		}
	}
	return min(end, start+maxFieldWords)
}

// listSeparator reports whether a comma or a semicolon follows the core
// of word i.
func listSeparator(v *view.View, i int) bool {
	return strings.ContainsAny(v.Text[v.CoreEnd(i):v.WordEnd(i)], ",;")
}

// listsNames reports whether words [start, end) are a list of names with
// at least one word no span covers and one a Person span holds, or a
// comma and an unlisted word (no ordinary word, novels' word, place,
// title or legal form).
func listsNames(v *view.View, gz *gazetteer.Gazetteers, person, covered []bool, start, end int) bool {
	found, open, comma, unlisted := false, false, false, false
	for k := start; k < end; k++ {
		t := v.CoreText(k)
		switch {
		case t == "":
			if w := v.WordText(k); w != "," && w != ";" {
				return false
			}
			comma = true
			continue
		case strings.Trim(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;.") != "":
			return false
		case person[k]:
			found = true
			continue
		case covered[k]:
			continue
		case !nameWord(v, k):
			return false
		}
		if listSeparator(v, k) {
			comma = true
		}
		l := v.CoreLower(k)
		if f := gz.Lex[l]; f&(gazetteer.Common|gazetteer.Prose|gazetteer.City|gazetteer.Country|gazetteer.Title|gazetteer.LegalForm) == 0 && isLetters(l) && len(l) >= 3 {
			unlisted = true
		}
		open = true
	}
	return (found || comma && unlisted) && open
}

// nameWord reports whether word i may be a word of a listed name: a
// capitalised word that is no function word ("Its"), an initial, or a
// word in capitals of up to three letters ("TK"). Longer words in
// capitals are not: on a line printed in capitals every word is
// capitalised ("BY: ... ITS GENERAL PARTNER").
func nameWord(v *view.View, i int) bool {
	t := v.CoreText(i)
	if view.IsAllUpper(t) {
		return len(t) <= 3 || isInitial(v.WordText(i))
	}
	return nameShaped(t) && !stopwords[strings.ToLower(t)] || isInitial(v.WordText(i))
}
