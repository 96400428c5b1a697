package rules

import (
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimGermanClauses cuts an Organization span of the NER model in a
// block read as German at its verbs: "Lufthansa streicht acht Prozent
// der Arbeitsplätze", "Seehundstationen ziehen 2015 fast 300 Jungtiere
// auf", "Austragungsort war das White City Stadium". German capitalises
// its nouns, so a headline or a sentence's subject and what follows it
// look to the model like the capitalised words of a name. A verb is a
// word of the German lower-case list of three letters or more (no
// particle's letter: "Giornale d ' Italia"; no "of" or "de"), written in
// lower case, no function word, right after a capitalised word and not
// before one: an adjective of a name stands before its noun ("Anstalt
// öffentlichen Rechts", "Gesellschaft für bedrohte Völker") or after
// another word in lower case ("Museum für moderne und zeitgenössische
// Kunst"), a verb does not. An ordinary noun between two towns is cut
// too, as traffic reports write a road's direction (betweenTowns), also
// where it ends the span, and from a Person span as well ("Heilbronn
// Richtung", "Stuttgart" after it). The
// word leaves the span, and the pieces on either side of it stay for the
// later rules to judge (drop-common-words takes a phrase of ordinary
// German: "acht Prozent der Arbeitsplätze").
type trimGermanClauses struct{}

func (trimGermanClauses) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for _, s := range ss {
		f, l := s.First-v.First, s.Last-v.First
		org := s.Category == page.Organization
		if s.Recognizer != nerRecognizer || !org && s.Category != page.Person || f < 0 || l >= v.Len() ||
			langFlag(v, f) != gazetteer.LowerDE {
			out = append(out, s)
			continue
		}
		start := f
		for k := f + 1; k <= l; k++ {
			if org && clauseVerbAt(v, gz, k, l) || betweenTowns(v, gz, k) {
				out = append(out, cutTo(v, s, start, k-1))
				start = k + 1
			}
		}
		if start <= l {
			out = append(out, cutTo(v, s, start, l))
		}
	}
	return out
}

// clauseVerbAt reports whether word k of a German span ending at word l
// reads as a verb (trimGermanClauses).
func clauseVerbAt(v *view.View, gz *gazetteer.Gazetteers, k, l int) bool {
	t, lw := v.CoreText(k), v.CoreLower(k)
	if len(lw) < 3 || !lowerWord(t) || germanFunctionWords[lw] || !inLang(gz, gazetteer.LowerDE, lw) {
		return false
	}
	return view.IsCapitalised(v.CoreText(k-1)) && (k == l || !view.IsCapitalised(v.CoreText(k+1)))
}

// betweenTowns reports whether word k is an ordinary German noun
// (germanNoun) between two towns, as traffic reports give a road's
// direction: "A73 Nürnberg Richtung Bamberg". The second town may stand
// after the span ("A40 Essen Richtung" read by the model, "Dortmund"
// after it), which the rules that grow spans would otherwise join.
func betweenTowns(v *view.View, gz *gazetteer.Gazetteers, k int) bool {
	town := func(i int) bool { l := v.CoreLower(i); return gz.Cities.Has(l) || gz.Places.Has(l) }
	return k > 0 && k+1 < v.Len() && germanNoun(v, gz, k) && town(k-1) && town(k+1)
}
