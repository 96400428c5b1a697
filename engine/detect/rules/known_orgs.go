package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// KnownOrgs is the Recognizer of the organizations the word list names
// (KnownOrgRecognizer).
const KnownOrgs = "org-known"

// knownOrgUses are the uses of gazetteer words/known_organizations.txt:
// the kinds of organization it lists.
var knownOrgUses = []string{"company", "party", "international", "club", "media", "public", "union"}

// knownOrgFinder finds the organizations of gazetteer
// words/known_organizations.txt written as each writes its name: the
// companies of the main stock indices, parties, international
// organizations, football clubs and media the news names daily ("VW",
// "thyssenkrupp", "PvdA", "OTAN", "Feyenoord", "ZDF"), which the models,
// trained on few of them, read as organizations only now and then.
type knownOrgFinder struct {
	gz *gazetteer.Gazetteers
	// byFirst holds each name as the cores of its words, under its first
	// word's core.
	byFirst map[string][][]string
	// ordinary are the one-word names that are ordinary words or places
	// of the word lists too ("Apple", "Ford", "Podemos", "WHO"): they
	// count only inside a sentence on a line not in capitals.
	ordinary map[string]bool
}

// ordinaryName are the Lex flags that make a one-word name of the list
// an ordinary word or a place as well.
const ordinaryName = gazetteer.Common | gazetteer.Prose | gazetteer.LowerAny | gazetteer.NounDE | gazetteer.City |
	gazetteer.Country

func newKnownOrgFinder(gz *gazetteer.Gazetteers) *knownOrgFinder {
	c := &knownOrgFinder{gz: gz, byFirst: map[string][][]string{}, ordinary: map[string]bool{}}
	names := map[string]bool{}
	for _, use := range knownOrgUses {
		for name := range gazetteer.MustWords("known_organizations", use) {
			names[name] = true
		}
	}
	for name := range names {
		var words []string
		for w := range strings.FieldsSeq(name) {
			s, e := view.TrimPunct(w, 0, len(w))
			words = append(words, w[s:e])
		}
		c.byFirst[words[0]] = append(c.byFirst[words[0]], words)
		if len(words) == 1 && gz.Lex[strings.ToLower(words[0])]&ordinaryName != 0 {
			c.ordinary[words[0]] = true
		}
	}
	return c
}

// find returns the view's names of the list, the longest name at a word
// first, and the words that join a one-word name to a noun with a hyphen
// ("VW-Werk", "Siemens-Chef", "ZDF-Morgenmagazin"), whole.
func (c *knownOrgFinder) find(v *view.View) []page.Span {
	var out []page.Span
	for k := 0; k < v.Lines(); k++ {
		first, end := v.Line(k)
		upper := isUpperLine(v, first, end)
		for i := first; i < end; i++ {
			if n := c.nameAt(v, i, end, upper); n > 0 {
				out = appendCore(out, v, i, i+n-1, page.Organization, 0.6, KnownOrgs)
				i += n - 1
				continue
			}
			if c.compoundAt(v, i, upper) {
				out = appendCore(out, v, i, i, page.Organization, 0.6, KnownOrgs)
			}
		}
	}
	return out
}

// nameAt returns how many words of the line (which ends before end) a
// name of the list takes from word i, or 0. The first word may carry an
// elided article or preposition ("l'OTAN", "dell'ONU").
func (c *knownOrgFinder) nameAt(v *view.View, i, end int, upper bool) int {
	best := 0
	first := v.CoreText(i)
	if _, rest, ok := elided(first); ok && len(c.byFirst[rest]) > 0 {
		first = rest // "l'OTAN", "dell'ONU"
	}
	for _, name := range c.byFirst[first] {
		if len(name) <= best || i+len(name) > end {
			continue
		}
		match := true
		for k, w := range name[1:] {
			match = match && v.CoreText(i+1+k) == w
		}
		if match && (len(name) > 1 || c.standsAsName(v, i, name[0], upper)) {
			best = len(name)
		}
	}
	return best
}

// compoundAt reports whether word i joins a one-word name of the list to
// another word with a hyphen ("VW-Werk", "Airbus-Chef").
func (c *knownOrgFinder) compoundAt(v *view.View, i int, upper bool) bool {
	t := v.CoreText(i)
	for k := 1; k < len(t)-1; k++ {
		if t[k] != '-' {
			continue
		}
		for _, name := range c.byFirst[t[:k]] {
			if len(name) == 1 && c.standsAsName(v, i, name[0], upper) {
				return true
			}
		}
	}
	return false
}

// standsAsName reports whether the one-word name at word i may be the
// organization's: not after a first name, where it is a person's surname
// ("Henry Ford", "Enzo Ferrari", "Nikola Tesla"), and a name that is an
// ordinary word too only inside a sentence on a line not in capitals.
func (c *knownOrgFinder) standsAsName(v *view.View, i int, name string, upper bool) bool {
	if i > 0 && v.LineOf(i-1) == v.LineOf(i) && v.CoreEnd(i-1) == v.WordEnd(i-1) && firstName(v, c.gz, i-1) &&
		c.gz.Lex[v.CoreLower(i-1)]&ordinaryName == 0 && !stopwords[v.CoreLower(i-1)] {
		return false // a first name that is no ordinary word ("De PvdA" is an article)
	}
	return !c.ordinary[name] || !upper && !opensSentence(v, i)
}
