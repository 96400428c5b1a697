package rules

import (
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimNounOf starts a Person or Organization span of the NER model in a
// block read as German at the name after an ordinary noun and a genitive
// article or "von": "die Fläche der Volksrepublik China", "die Sammlung
// des Metropolitan Museum", "die Vororte von Melbourne". German joins a
// thing to the entity it belongs to so, and the model, trained on
// English, takes the capitalised noun for the start of the name, as
// trimOfficeOf does for "the President of". A chain of such nouns goes
// ("Schalterhalle des Bahnhofs Basel" keeps "Basel" when "Bahnhofs" is
// one). The noun must be in no list of names, places or titles
// (germanNoun: "Haus der Kunst" stays, "Haus" is a surname), must head
// no public body (institution-de: "Verwaltung des Landkreises Harburg"
// is one name), and the word after the article must be capitalised: what
// is left is a name, or ordinary words the later rules judge
// ("Fortsetzung des Kongresses"). A span that holds only such nouns, the
// model having read the name after them apart, is dropped.
type trimNounOf struct{}

func (trimNounOf) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	out := ss[:0]
	for _, s := range ss {
		f, l := s.First-v.First, s.Last-v.First
		if s.Recognizer != nerRecognizer || s.Category != page.Person && s.Category != page.Organization ||
			f < 0 || l >= v.Len() || langFlag(v, f) != gazetteer.LowerDE {
			out = append(out, s)
			continue
		}
		k := f
		for k+2 <= l && nounOfAt(v, gz, k) {
			k += 2
		}
		switch {
		case k == l && nounOfAt(v, gz, l):
			// The model read the thing apart from its entity ("Fläche",
			// then "Volksrepublik China"): the span is only the thing.
			continue
		case k > f:
			s = cutTo(v, s, k, l)
		}
		out = append(out, s)
	}
	return out
}

// nounOfAt reports whether word k is an ordinary noun (thingNoun) that
// belongs to a name after it: "Fläche der Volksrepublik China" at
// "Fläche".
func nounOfAt(v *view.View, gz *gazetteer.Gazetteers, k int) bool {
	return k+2 < v.Len() && thingNoun(v, gz, k) && nounOf[v.CoreText(k+1)] &&
		view.IsCapitalised(v.CoreText(k+2)) && v.LineOf(k+2) == v.LineOf(k)
}

// thingNoun reports whether word i is an ordinary German noun
// (germanNoun: ranks and titles are not) that names no body
// ("Verwaltung des Landkreises Harburg" is one name).
func thingNoun(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if !germanNoun(v, gz, i) {
		return false
	}
	return !headedInAnyForm(v.CoreLower(i), institutionsDE)
}

// nounOf are the words, in lower case as German writes them after a
// noun, that join a thing to what it belongs to.
var nounOf = map[string]bool{"der": true, "des": true, "von": true, "vom": true}
