package rules

import (
	"maps"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// dropHeadings drops Person and Organization spans that lie in a heading
// of ordinary words: a line written all in capitals whose every word its
// block's language (one of the six other than English) writes in lower
// case in running text (inLang), such as "FICHA DE PERSONAL", "COMPTE
// RENDU D'HOSPITALISATION" or "LETTERA DI DIMISSIONI OSPEDALIERE"; a
// German heading's nouns and their compounds count (germanNoun:
// "ARZTBRIEF"), as do a Dutch one's compounds of its lower-case words
// ("ARBEIDSOVEREENKOMST", "ONTSLAGBRIEF"; Dutch writes its nouns in lower
// case), and so may one word no list has, built with a suffix of abstract
// nouns, beside two the lists know (derivedWord: "HOSPITALISATION"). The
// English model reads a line in capitals as a name or a firm, and the
// name lists hold many such words as surnames ("Alta", "Nota"); a
// heading that names someone holds a word no lower-case list has
// ("MARIA GARCÍA", "SIEMENS AG": first names of the lists and legal forms
// are not ordinary there); one that opens with the noun a public body's
// name begins with is that body ("CONSELHO ESPECIAL", "TRIBUNAL
// SUPREMO"; the head-first words of gazetteer/words/organizations.txt),
// and a name alone on its line stays whatever else it means ("ROSSI").
//
// Words without letters (numbers, dashes) and number signs ("N°",
// "N.º") do not count either way: "FATURA N.º 2023/6969" is a heading.
type dropHeadings struct{}

func (dropHeadings) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	out := ss[:0]
	for _, s := range ss {
		f, l := s.First-v.First, s.Last-v.First
		if (s.Category == page.Person || s.Category == page.Organization) && f >= 0 && l < v.Len() &&
			v.LineOf(f) == v.LineOf(l) && headingOfWords(v, gz, v.LineOf(f)) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// headingOfWords reports whether line k of the view is written in
// capitals and holds only ordinary words of its block's language, at
// most headingWords of them.
func headingOfWords(v *view.View, gz *gazetteer.Gazetteers, k int) bool {
	first, end := v.Line(k)
	if first == end {
		return false
	}
	lf := langFlag(v, first)
	if lf == 0 {
		return false
	}
	words, word, derived := 0, first, 0
	for i := first; i < end; i++ {
		t := v.CoreText(i)
		if !hasLetter(t) || numberSigns[v.CoreLower(i)] {
			continue
		}
		if !view.IsAllUpper(t) {
			return false
		}
		if !inLang(gz, lf, v.CoreLower(i)) && !germanNoun(v, gz, i) &&
			!(lf == gazetteer.LowerNL && compound(gz, v.CoreLower(i), lf, lf)) {
			if !derivedWord(gz, lf, v.CoreLower(i)) {
				return false
			}
			derived++
		}
		if words == 0 && headFirst[v.CoreLower(i)] {
			return false // "CONSELHO ESPECIAL", "TRIBUNAL SUPREMO": a body named head first
		}
		words, word = words+1, i
	}
	if words == 1 && gz.Lex[v.CoreLower(word)]&(gazetteer.FirstName|gazetteer.Surname) != 0 {
		return false // "ROSSI", "BIANCHI": a name alone on its line, whatever else it means
	}
	return words > 0 && words <= headingWords && (derived == 0 || derived == 1 && words-derived >= 2)
}

// derivedWord reports whether w (lower case), which no list of its
// language lf holds, is built with one of the language's suffixes of
// abstract nouns and adjectives (derivedSuffixes: "hospitalisation",
// "ospedaliere") and is no word of the name lists. Such words are many
// and rare, so the lists miss some; a heading may hold one beside two
// words the lists know ("COMPTE RENDU D'HOSPITALISATION"). An elided
// article before it must be a word of the language ("d'").
func derivedWord(gz *gazetteer.Gazetteers, lf uint32, w string) bool {
	if art, rest, ok := elided(strings.ReplaceAll(w, "’", "'")); ok {
		if !inLang(gz, lf, art) {
			return false
		}
		w = rest
	}
	if len([]rune(w)) < derivedMin || !isLetters(w) || gz.Lex[w]&notPlainWord != 0 {
		return false
	}
	for _, suf := range derivedSuffixes[lf] {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

// derivedMin is the fewest letters a derived word has: the suffixes are
// long, and short words ending so are often names.
const derivedMin = 9

// derivedSuffixes are the suffixes of abstract nouns and adjectives of
// each language (not of agents or places: French "-ier", "-ière" end
// many surnames: "Pelletier", "Lamartinière").
var derivedSuffixes = map[uint32][]string{
	gazetteer.LowerFR: {"isation", "ation", "ition", "ement", "ité", "ique", "isme", "aire", "oire", "ance", "ence"},
	gazetteer.LowerIT: {"zione", "zioni", "mento", "menti", "ità", "iere", "ieri", "iera"},
	gazetteer.LowerES: {"ción", "ciones", "miento", "mientos", "idad", "idades"},
	gazetteer.LowerPT: {"ção", "ções", "mento", "mentos", "idade", "idades"},
	gazetteer.LowerNL: {"heid", "schap", "atie", "iteit", "ering"},
	gazetteer.LowerDE: {"ung", "heit", "keit", "schaft", "ation", "ität"},
}

// headingWords is the most words a heading holds.
const headingWords = 8

// numberSigns are the abbreviations of "number" that stand before one
// (lower case, as View.CoreLower gives them): those before a house number
// (houseNumberSigns) and a bare "n" ("FATTURA N 2025/2038").
var numberSigns = func() map[string]bool {
	m := maps.Clone(houseNumberSigns)
	m["n"] = true
	return m
}()
