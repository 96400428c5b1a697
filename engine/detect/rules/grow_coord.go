package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
)

// Coordination with surnames that are also ordinary words or towns:
// "Willis and Green were engineers", "founders: Mazzi, Bowman and Hill",
// "Nadbath, Smith and Stanton". knownName refuses "Green", "Hill" and
// "Stanton" on their own, rightly; listed with a name they are names.
// The ordinary reading still wins where the word heads a phrase of its
// own ("Hill Street", "Green Group"), names a firm's kin ("Smith and
// Sons") or a date ("and April"), or where the neighbour is no name the
// lists know ("Research and Development").

// kinWords follow a founder's name in a firm's name, never a person's.
var kinWords = gazetteer.MustWords("people", "kin")

// coordName reports whether word k, listed with the name word anchor
// (the last word of the name before it or the first of the name after
// it), is a name: a capitalised known surname or first name, ordinary
// word and town allowed, but no country, title, street, unit or legal
// word, no month or weekday, not followed by another capitalised word.
func coordName(v *view.View, gz *gazetteer.Gazetteers, anchor, k int) bool {
	t, l := v.CoreText(k), v.CoreLower(k)
	if !nameShaped(t) || view.IsAllUpper(t) || stopwords[l] || kinWords[l] || orgHeads[l] || pattern.MonthNumber(l) > 0 || pattern.IsWeekday(l) {
		return false
	}
	// Street types are allowed ("Hill", "Green"): they are streets only
	// before or after a street name, which the test below refuses.
	const not = gazetteer.Country | gazetteer.Title | gazetteer.Unit | gazetteer.LegalForm
	f := gz.Lex[l]
	if f&(gazetteer.FirstName|gazetteer.Surname) == 0 || f&not != 0 {
		return false
	}
	// An ordinary word needs an anchor the lists know as a name: the
	// model's "Research" does not make "Development" a name. A town
	// ("Lopez", "Cantu") listed with any name is a name.
	a := v.CoreLower(anchor)
	if f&gazetteer.Common != 0 && (!nameShaped(v.CoreText(anchor)) || gz.Lex[a]&(gazetteer.FirstName|gazetteer.Surname) == 0 || gz.Lex[a]&gazetteer.Country != 0) {
		return false
	}
	// "Hill Street", "Green Group": the word starts a phrase of its own.
	_, end := v.Line(v.LineOf(k))
	if k+1 < end && view.IsCapitalised(v.CoreText(k+1)) && !strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;:.!?") {
		return false
	}
	return true
}

// listTail reports whether word k, a month or weekday that is also a
// first name ("April", "June"), ends a list of names: "Brandon, John,
// Evan and April." It must follow "and" after a name that itself follows
// a comma, and end the sentence.
func listTail(v *view.View, gz *gazetteer.Gazetteers, last, k, end int) bool {
	l := v.CoreLower(k)
	if pattern.MonthNumber(l) == 0 && !pattern.IsWeekday(l) || !nameShaped(v.CoreText(k)) || gz.Lex[l]&gazetteer.FirstName == 0 {
		return false
	}
	lf, _ := v.Line(v.LineOf(last))
	if k-1 != last+1 || !isConjunction(v.CoreLower(k-1)) || last-1 < lf ||
		!strings.HasPrefix(v.Text[v.CoreEnd(last-1):v.WordEnd(last-1)], ",") || !firstName(v, gz, last) || !firstName(v, gz, last-1) {
		return false
	}
	tail := v.Text[v.CoreEnd(k):v.WordEnd(k)]
	return view.EndsSentence(v, k) || k+1 == end && tail == ""
}

// firstName reports whether word i is a capitalised known first name.
func firstName(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	return nameShaped(v.CoreText(i)) && gz.Lex[v.CoreLower(i)]&gazetteer.FirstName != 0
}
