package rules

import (
	"regexp"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// notLangWord are the flags that keep a word of a language's lower-case
// list (gazetteer.LowerIn) from counting as ordinary there: the most
// common first names of the name lists, countries, titles, legal forms,
// and street, unit and post-box words. Surnames, rarer first names and
// cities do not: the English lists hold "de", "la", "bien", "merci" and
// "sur" as names or places, which a French block writes in lower case.
const notLangWord = gazetteer.TopFirstName | gazetteer.Country | gazetteer.Title | gazetteer.LegalForm |
	gazetteer.StreetSuffix | gazetteer.StreetPrefix | gazetteer.Unit | gazetteer.POBox

// langFlag is the Lex flag of the lower-case words of word i's block's
// language, or 0 in English blocks and blocks too short to tell.
func langFlag(v *view.View, i int) uint32 { return gazetteer.LowerIn(string(v.Lang(i))) }

// sureLangFlag is langFlag where the identifier is sure of the block's
// language (lang.Result.Sure: about six words or more), else 0: for the
// rules that judge words English shares with the others ("in", "is",
// "op"), which short English posts told as another language would lose.
func sureLangFlag(v *view.View, i int) uint32 {
	if !v.BlockLang(v.BlockOf(i)).Sure() {
		return 0
	}
	return langFlag(v, i)
}

// inLang reports whether w (lower case) is an ordinary word of the
// language whose flag is lf (langFlag): in its lower-case list and
// without a flag of notLangWord. A word with an elided article or
// preposition ("l'affaire", "dell'uomo", "d'hospitalisation") is one when
// both of its parts are, and one written for both genders ("né(e)",
// "nato/a", "Estimado/a") when its first form is.
func inLang(gz *gazetteer.Gazetteers, lf uint32, w string) bool {
	if lf == 0 || w == "" {
		return false
	}
	w = strings.ReplaceAll(w, "’", "'")
	if base := genderBase(w); base != w {
		return genderMarked(w) || inLang(gz, lf, base)
	}
	if art, rest, ok := elided(w); ok {
		return inLang(gz, lf, art) && inLang(gz, lf, rest)
	}
	f := gz.Lex[w]
	if f&notLangWord != 0 {
		return false
	}
	if f&lf != 0 {
		return true
	}
	for _, o := range otherForms(lf, w) {
		if g := gz.Lex[o]; g&lf != 0 && g&notLangWord == 0 {
			return true
		}
	}
	return false
}

// otherForms returns the singular or plural forms of w (lower case) that
// a list of words as they were written may hold instead of w: the lists
// count what their sources wrote, and a word seen only in the plural
// there is as ordinary in the singular ("commissione" for "commissioni",
// "ficha" for "fichas"). Italian changes the last vowel; Spanish,
// Portuguese and French add or drop an "s" (French an "x" too). German
// and Dutch inflect otherwise and get none.
func otherForms(lf uint32, w string) []string {
	if len(w) < 4 {
		return nil
	}
	stem, last := w[:len(w)-1], w[len(w)-1]
	switch lf {
	case gazetteer.LowerIT:
		switch last {
		case 'e':
			return []string{stem + "i", stem + "a"}
		case 'i':
			return []string{stem + "e", stem + "o"}
		case 'a':
			return []string{stem + "e"}
		case 'o':
			return []string{stem + "i"}
		}
	case gazetteer.LowerES, gazetteer.LowerPT:
		if last == 's' {
			return []string{stem, strings.TrimSuffix(w, "es")}
		}
		return []string{w + "s"}
	case gazetteer.LowerFR:
		if last == 's' || last == 'x' {
			return []string{stem}
		}
		return []string{w + "s"}
	}
	return nil
}

// plainInLang reports whether word i is an ordinary word of its block's
// language (inLang) as written: in lower case, or in capitals (a heading,
// where case tells nothing; but not a word of the name lists alone). A
// capitalised word is one only when it
// stands alone (alone: a span of one word) where its sentence or line
// begins ("Mais", "Enfin" opening a novel's line of dialogue) and no name
// list holds it ("Blanc", "Renard" open sentences as surnames). Elsewhere
// it is not: French, Spanish, Italian and Portuguese capitalise only the
// first word of a firm's or a body's name ("Musée des arts et métiers",
// "Agence du revenu"), and names are made of words ("Serviteur de Dieu").
func plainInLang(v *view.View, gz *gazetteer.Gazetteers, i int, alone bool) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if view.IsAllUpper(t) && romanNumeral.MatchString(t) || nameLinks[l] {
		return false // "Pius IX", "Karl V"; "de Rooij, geb."
	}
	if !lowerWord(t) && !view.IsAllUpper(t) {
		if !alone || !opensSentence(v, i) || gz.Lex[l]&(gazetteer.FirstName|gazetteer.Surname) != 0 {
			return false
		}
	}
	if view.IsAllUpper(t) && alone && gz.Lex[l]&(gazetteer.FirstName|gazetteer.Surname) != 0 {
		return false // "COGNOME: ROSSI", "COSTA": a name alone in capitals, whatever else it means
	}
	return inLang(gz, langFlag(v, i), l)
}

// opensSentence reports whether word i is the first of its line or
// sentence, where any word is capitalised.
func opensSentence(v *view.View, i int) bool {
	return i == 0 || v.LineOf(i-1) != v.LineOf(i) || view.EndsSentence(v, i-1)
}

// romanNumeral matches a number in Roman numerals written in capitals.
var romanNumeral = regexp.MustCompile(`^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$`)

// elided splits w (its apostrophe written ') after an elided article or
// preposition ("d'hospitalisation" -> "d'", "hospitalisation").
func elided(w string) (art, rest string, ok bool) {
	if i := strings.IndexByte(w, '\''); i > 0 && i < len(w)-1 {
		return w[:i+1], w[i+1:], true
	}
	return "", w, false
}

// genderBase returns w without the ending forms write for the other
// gender ("né(e)" -> "né", "nato/a" -> "nato", "caro(a)" -> "caro"), or w.
func genderBase(w string) string {
	if strings.HasSuffix(w, ")") {
		if i := strings.LastIndexByte(w, '('); i > 0 && len(w)-i <= 5 {
			return w[:i]
		}
	}
	if i := strings.LastIndexByte(w, '/'); i > 0 && len(w)-i <= 4 {
		return w[:i]
	}
	return w
}

// genderMarked reports whether lower-case word w ends with what forms
// write for the other gender or number ("hospitalisé(e)", "nato/a",
// "document(s)"): an adjective, a participle or a noun, whatever its
// stem, as no name takes such an ending.
func genderMarked(w string) bool {
	base := genderBase(w)
	return base != w && len([]rune(base)) >= 2 && isLetters(base) && genderEndings[w[len(base):]]
}

// genderEndings are the endings genderMarked knows.
var genderEndings = setOf("(e)", "(es)", "(s)", "(a)", "(as)", "(o)", "(os)", "(ne)", "(le)", "(x)",
	"/a", "/o", "/e", "/as", "/os", "/es", "/i")

// capitalisedOpener reports whether word i, before l, is one of words
// written capitalised where its sentence or line begins, in a block
// surely in one of the six other languages, and is no English stop word
// ("In", "Is", "Of") and no first name of the lists ("Al Arfsten"): a
// function word or preposition the model took into the span after it
// ("Avec Jean Dupont,", "Entre Hernández e Hijos S.L.,").
func capitalisedOpener(v *view.View, gz *gazetteer.Gazetteers, i, l int, words map[string]bool) bool {
	w := v.CoreLower(i)
	return i < l && words[w] && len(w) > 1 && !stopwords[w] && gz.Lex[w]&gazetteer.FirstName == 0 &&
		view.IsCapitalised(v.CoreText(i)) && opensSentence(v, i) && sureLangFlag(v, i) != 0
}

// cutTo returns s cut to the view's words [f, l], its character bounds
// cleared on a side that moved.
func cutTo(v *view.View, s page.Span, f, l int) page.Span {
	if f+v.First != s.First {
		s.First, s.Start = f+v.First, 0
	}
	if l+v.First != s.Last {
		s.Last, s.End = l+v.First, 0
	}
	return s
}

// notNoun are the flags that keep a word of nouns_de.txt from counting as
// an ordinary German noun: many surnames, towns and titles are nouns too
// ("Fischer", "Müller", "Graf").
const notNoun = gazetteer.FirstName | gazetteer.Surname | gazetteer.City | gazetteer.Country | gazetteer.Title |
	gazetteer.LegalForm | gazetteer.StreetSuffix | gazetteer.StreetPrefix | gazetteer.Unit | gazetteer.POBox

// germanNoun reports whether word i, in a block read as German, is
// capitalised or in capitals and an ordinary German noun (nounDE): German
// capitalises every noun, so its lower-case list holds none, and the
// English model reads them as names ("Vertrag", "ARBEITSVERTRAG").
func germanNoun(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if langFlag(v, i) != gazetteer.LowerDE {
		return false
	}
	if t := v.CoreText(i); !view.IsCapitalised(t) && !view.IsAllUpper(t) {
		return false
	}
	return nounDE(gz, v.CoreLower(i))
}

// nounDE reports whether l (lower case) is a noun of nouns_de.txt, or a
// compound of one after a noun or a word of the German lower-case list
// of three letters or more, with or without the linking "s"
// ("arztbrief", "personalbogen"), and in no list of names, places,
// titles, legal forms or street words.
func nounDE(gz *gazetteer.Gazetteers, l string) bool {
	f := gz.Lex[l]
	return f&gazetteer.NounDE != 0 && f&notNoun == 0 || compound(gz, l, gazetteer.NounDE, gazetteer.NounDE|gazetteer.LowerDE)
}

// compound reports whether l (lower case, in no name or place list) is a
// word of the lists flagged heads (four letters or more) after one
// flagged modifiers (three or more), with or without a linking "s":
// German and Dutch write compounds as one word ("arzt" + "brief",
// "arbeid" + "s" + "overeenkomst"). A modifier may be a surname, as many
// are nouns ("Arzt"): the compound itself is checked against the name
// lists.
func compound(gz *gazetteer.Gazetteers, l string, heads, modifiers uint32) bool {
	if gz.Lex[l]&notNoun != 0 {
		return false
	}
	modifier := func(m string) bool {
		f := gz.Lex[m]
		return f&(gazetteer.City|gazetteer.Country|gazetteer.TopFirstName) == 0 && f&modifiers != 0
	}
	rs := []rune(l)
	for k := 3; k <= len(rs)-4; k++ {
		if h := gz.Lex[string(rs[k:])]; h&heads == 0 || h&notNoun != 0 {
			continue
		}
		mod := string(rs[:k])
		if modifier(mod) || k > 3 && strings.HasSuffix(mod, "s") && modifier(strings.TrimSuffix(mod, "s")) {
			return true
		}
	}
	return false
}
