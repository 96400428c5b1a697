package rules

import (
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimPortfolios takes a minister's portfolio out of Person spans (the
// NER model's and the recognizers'): "De
// minister van Financiën, Gerrit Zalm", "Der Minister der Finanzen, Hans
// Eichel", "O ministro das Finanças". The model reads the capitalised
// word after "minister" and a genitive particle as a name, and growth
// then joins it to the minister's name after the comma. The portfolio
// names an office, not a person: a span that holds only it (and the
// office and particles before it) is dropped; one that runs on past it
// into the minister's name ("Financiën, Gerrit Zalm", "Staat Rouher")
// starts at the name. The portfolio's first word must be a portfolio of
// the list, or an ordinary word of some language and no name of the
// lists: after the particle a surname stands too ("el ministro de
// Guindos", "le ministre de Villepin").
type trimPortfolios struct{}

// ministers are the words for a minister whose portfolio follows a
// genitive particle, and portfolioParticles those particles.
var (
	ministers          = map[string]bool{"minister": true, "ministerin": true, "ministre": true, "ministra": true, "ministro": true}
	portfolioParticles = map[string]bool{"van": true, "der": true, "des": true, "de": true, "del": true, "della": true, "delle": true,
		"dello": true, "degli": true, "dei": true, "do": true, "da": true, "das": true, "dos": true, "du": true, "of": true, "for": true, "für": true}
)

func (trimPortfolios) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	out := ss[:0]
	for _, s := range ss {
		f, l := s.First-v.First, s.Last-v.First
		if s.Category != page.Person || f < 0 || l >= v.Len() {
			out = append(out, s)
			continue
		}
		k, ok := portfolioStart(v, f, l)
		if !ok || !portfolioWord(gz, v.CoreLower(k)) {
			// "el ministro de Guindos": a surname's particle
			out = append(out, s)
			continue
		}
		e := portfolioEnd(v, gz, k, l)
		if e >= l {
			continue // the portfolio alone
		}
		out = append(out, cutTo(v, s, e+1, l)) // "Financiën, Gerrit Zalm", "Staat Rouher"
	}
	return out
}

// portfolioStart returns the first word after a minister and the
// genitive particles after it, where the span [f, l] holds that word and
// opens at most at the minister: "minister [van Financiën]", "[Minister
// van Financien]".
func portfolioStart(v *view.View, f, l int) (int, bool) {
	from := f
	if ministers[v.CoreLower(f)] {
		from = f + 1
	}
	k := from
	for k <= l && portfolioParticles[v.CoreLower(k)] {
		k++
	}
	if k > l {
		return 0, false
	}
	if from > f {
		return k, k > from // the span holds the minister and its particles
	}
	p := k - 1
	for p >= 0 && v.LineOf(p) == v.LineOf(k) && portfolioParticles[v.CoreLower(p)] {
		p--
	}
	return k, p >= 0 && p < k-1 && v.LineOf(p) == v.LineOf(k) && ministers[v.CoreLower(p)]
}

// portfolioEnd returns the last word of the portfolio from word k: its
// words (portfolioWord, or words in lower case: "Buitenlandse Zaken",
// "Affaires étrangères") up to a punctuation mark, within the span's last
// word l. A name ends it ("minister van Justitie Smit": "Smit" is the
// minister).
func portfolioEnd(v *view.View, gz *gazetteer.Gazetteers, k, l int) int {
	for e := k; e <= l; e++ {
		if e > k && !portfolioWord(gz, v.CoreLower(e)) && !lowerWord(v.CoreText(e)) {
			return e - 1
		}
		if v.CoreEnd(e) != v.WordEnd(e) {
			return e
		}
	}
	return l
}

// portfolios are the portfolios' first words the lower-case lists lack
// ("sanidad", "innern", "defensie").
var portfolios = gazetteer.MustWords("people", "portfolio")

// portfolioWord reports whether l (lower case) may open a portfolio: a
// portfolio of the list ("sanidad", "Marine" too, a first name), or an
// ordinary word of a lower-case list or a German noun ("finanzen",
// "financiën") that is no first name or surname.
func portfolioWord(gz *gazetteer.Gazetteers, l string) bool {
	if portfolios[l] {
		return true // "Marine", "Justice": first names and surnames too
	}
	f := gz.Lex[l]
	if f&(gazetteer.FirstName|gazetteer.Surname) != 0 {
		return false
	}
	if f&(gazetteer.LowerAny|gazetteer.NounDE|gazetteer.Common) != 0 {
		return true
	}
	for _, c := range []string{"fr", "es", "it", "nl", "pt"} {
		if inLang(gz, gazetteer.LowerIn(c), l) {
			return true // a plural of a listed singular: "finanze", "finanças"
		}
	}
	return false
}
