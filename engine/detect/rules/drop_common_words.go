package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// dropCommonWords drops spans of the NER model made only of ordinary
// lower-case words that carry no name, which the model, trained on forms
// where a name or an address often stands alone, tags in tables and
// headings:
//
//   - a Person that stands alone: table labels ("Summary", "Charges")
//     and stray words of running text. Kept: names that are also words
//     ("Will", "Rose", "Young", "Bill" are in the name lists); words that
//     belong to addresses and firms ("St.", "Incorporated"); and spans
//     near another detection on their line, where the model has cut a
//     larger entity short ("Open" of "Open Data Nation", "Pas" of
//     "William ten Pas");
//
//   - an Address of stop words and place-name particles only ("Le" alone:
//     functionWordsOnly).
//
//   - an Address of such words and short numbers, wherever it stands
//     ("45 Closure Temporary" in a table of notices): an address has a
//     street, place or unit word, or a name no list of words holds.
//     Ordinary here takes in the novels' words too (gazetteer.Prose).
//
//   - a Person or Organization of one such word (the novels' words
//     included) that opens its sentence before a comma: "Furthermore,
//     the Member States ...", "Firstly, ...", europarl's sentence
//     adverbs. A lone Person elsewhere is judged by common_words.txt
//     alone: names made of words ("bin Laden", "Jar Jar") stand there.
//
//   - a Person or Organization of one of the novels' words (gazetteer.Prose)
//     written in lower case in a sentence with capitals: "the parson",
//     "the bank" in fiction. Names are capitalised where the rest of the
//     text is; brands written in lower case ("facebook", "twitter") are
//     not the novels' words. Common words do not count here: they hold
//     such brands.
//
//   - in a German block, a Person or Organization that is a phrase of
//     ordinary German (germanPhrase): nouns, in any number or case,
//     function words and words written in lower case ("Das Gehalt von",
//     "Mittelpunkt des Motorsport-Wochenendes" is not one: the last word
//     is in no list).
//
//   - in a German block, an Organization of one German noun alone, the
//     nouns the name and place lists hold too included ("im Sommer",
//     "die gleiche Saison"; loneNounDE).
//
//   - in a German block, a Person of one word that is a German noun by
//     any list, the nouns that are surnames too included ("Mann",
//     "Fischer"), after a determiner, directly or across words in lower
//     case: "Ein Mann wurde getötet", "dieser junge Mann", or of the
//     determiner and the noun, "Der Kaiser hatte" (articledNounDE; a
//     body's noun stays, as below). German writes no article before a
//     surname.
//
//   - in a German block, a Person of one noun of Wiktionary's lexicon
//     that no name list holds, alone (lexiconNounAlone: "rankende
//     Pflanzen"); not beside another detection, as above, nor a body's
//     noun ("der Fußballverband", germanInstitution).
//
//   - in a block of another language than English, a Person of German
//     nouns only, even beside a name ("In der Sache Elias Wagner"), and a
//     Person or Organization opening with a pronoun of polite address
//     written capitalised ("la Sua lettera del"; courtesyOpened). (Every
//     lone Person in lower case was tried too, "uw dossier": OCR'd
//     newspapers and tweets write names so, icdar_europeana_nl Person
//     recall 0.580 -> 0.577.)
//
//   - an Organization of one word in lower case that its block's language
//     (not English) writes so ("geboren", "dossier"): a brand written in
//     lower case ("facebook") is no word of the lists.
//
//   - an Organization of two or more such words written in lower case
//     (the first word of a sentence aside) in a sentence with capitals: "His
//     social security number is ...", europarl's "the committee on
//     budgets". Firms are often named with ordinary words, but
//     capitalised ("Open Data Nation", "Ministry of Agriculture").
//
//   - a Person opening with a month's name no name list holds
//     ("Januar ." alone on a newspaper's line, "Januar D ."), or with a
//     currency after an amount ("46000 Mark": things.txt, use currency).
type dropCommonWords struct{}

func (dropCommonWords) apply(rc ruleContext, ss []page.Span) []page.Span {
	p, v, gz := rc.p, rc.v, rc.gz
	var drop []bool
	var named map[string]bool // namedInText, found on first use
	for i, s := range ss {
		if s.Recognizer != nerRecognizer {
			continue
		}
		if s.Category == page.Person && openingName(v, gz, s, &named) {
			continue
		}
		switch {
		case s.Category == page.Person && plainWords(v, gz, s, gazetteer.Common, false) && !touchesOther(p, ss, i),
			s.Category == page.Address && plainWords(v, gz, s, gazetteer.Common|gazetteer.Prose, true),
			s.Category == page.Address && functionWordsOnly(v, s),
			s.Category == page.Address && dateAndPlainWords(v, gz, s, ss),
			s.Category == page.Organization && writtenLower(v, gz, s) && plainOrgWords(v, gz, s),
			s.Category == page.Organization && s.First == s.Last && lowerWord(v.CoreText(s.First-v.First)) && plainInLang(v, gz, s.First-v.First, true),
			(s.Category == page.Person || s.Category == page.Organization) && opensWithComma(v, s) && plainWords(v, gz, s, gazetteer.Common|gazetteer.Prose, false),
			(s.Category == page.Person || s.Category == page.Organization) && loneLower(v, s) && plainWords(v, gz, s, gazetteer.Prose, false),
			s.Category == page.Person && germanNouns(v, gz, s),
			s.Category == page.Person && !touchesOther(p, ss, i) && !germanInstitution(v, s) && lexiconNounAlone(v, gz, s),
			s.Category == page.Person && !germanInstitution(v, s) && articledNounDE(v, gz, s),
			(s.Category == page.Person || s.Category == page.Organization) && !germanInstitution(v, s) && germanPhrase(v, gz, s),
			s.Category == page.Organization && !touchesOther(p, ss, i) && !germanInstitution(v, s) && loneNounDE(v, gz, s),
			(s.Category == page.Person || s.Category == page.Organization) && courtesyOpened(v, s),
			s.Category == page.Person && thingOpened(v, gz, s),
			s.Category == page.Person && loneInitial(v, s):
			if drop == nil {
				drop = make([]bool, len(ss))
			}
			drop[i] = true
		}
	}
	if drop == nil {
		return ss
	}
	out := ss[:0]
	for i, s := range ss {
		if !drop[i] {
			out = append(out, s)
		}
	}
	return out
}

// loneInitial reports whether Person span s is one letter, with or
// without its full stop, alone on its line: a list's or a section's
// letter ("B.", "A ." where OCR set the stop apart), which names no one
// without a name beside it.
func loneInitial(v *view.View, s page.Span) bool {
	f, l := s.First-v.First, s.Last-v.First
	if f < 0 || l >= v.Len() {
		return false
	}
	letters := 0
	for i := v.LineFirst(f); i < v.LineEnd(f); i++ {
		t := v.CoreText(i)
		if t == "" {
			continue // punctuation alone: the stop set apart
		}
		if r, n := utf8.DecodeRuneInString(t); i < f || i > l || n != len(t) || !unicode.IsLetter(r) {
			return false
		}
		letters++
	}
	return letters == 1
}

// openingName reports whether Person span s is one capitalised word
// opening its sentence, in a block of French, Spanish, Italian, Dutch or
// Portuguese, that the view writes capitalised after a word in lower
// case elsewhere ("Forestier souriait." and "il pensa à Forestier"): a
// word of the language's lower-case list opening a sentence is mostly
// an adverb or a verb ("Mais", "Songez"), but one the text capitalises
// mid-sentence is a name there, as a surname that is also a word is
// ("forestier", a forester). German is left out: it capitalises every
// noun. Words of the English common and novels' lists stay judged by
// them ("Dieu"). named caches namedInText for the view.
func openingName(v *view.View, gz *gazetteer.Gazetteers, s page.Span, named *map[string]bool) bool {
	i := s.First - v.First
	if s.First != s.Last || i < 0 || i >= v.Len() || !view.IsCapitalised(v.CoreText(i)) || view.IsAllUpper(v.CoreText(i)) ||
		!opensSentence(v, i) || gz.Lex[v.CoreLower(i)]&(gazetteer.Common|gazetteer.Prose) != 0 {
		return false
	}
	if lf := langFlag(v, i); lf == 0 || lf == gazetteer.LowerDE {
		return false
	}
	if *named == nil {
		*named = namedInText(v)
	}
	return (*named)[v.CoreLower(i)]
}

// namedInText returns the words (lower case) the view writes capitalised,
// not in capitals, after a word written in lower case on the same line
// that is no article of the block's language: where running text
// capitalises only names ("à Forestier"). After an article stand the
// offices and bodies some languages capitalise ("o Governador", "des
// Échos"); names take none.
func namedInText(v *view.View) map[string]bool {
	m := map[string]bool{}
	for i := 1; i < v.Len(); i++ {
		t, prev := v.CoreText(i), v.CoreText(i-1)
		if view.IsCapitalised(t) && !view.IsAllUpper(t) && v.LineOf(i-1) == v.LineOf(i) &&
			lowerWord(prev) && !view.EndsSentence(v, i-1) && !nounArticles[v.Lang(i)][v.CoreLower(i-1)] {
			m[v.CoreLower(i)] = true
		}
	}
	return m
}

// nounArticles are the articles of the five languages openingName reads,
// in both numbers, and those fused with a preposition.
var nounArticles = map[lang.Code]map[string]bool{
	lang.French:  setOf("le", "la", "les", "un", "une", "du", "des", "au", "aux"),
	lang.Spanish: setOf("el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al"),
	lang.Italian: setOf("il", "lo", "la", "i", "gli", "le", "un", "uno", "una", "del", "dello", "della", "dei", "degli",
		"delle", "al", "allo", "alla", "ai", "agli", "alle", "dal", "dallo", "dalla", "nel", "nello", "nella", "sul",
		"sullo", "sulla"),
	lang.Dutch: setOf("de", "het", "een", "der", "des"),
	lang.Portuguese: setOf("o", "a", "os", "as", "um", "uma", "uns", "umas", "do", "da", "dos", "das", "no", "na", "nos",
		"nas", "ao", "aos", "à", "às", "pelo", "pela", "pelos", "pelas", "num", "numa"),
}

// lexiconNounAlone reports whether span s, one capitalised word in a
// German block, is an ordinary noun (plainNounDE: "Initiativen",
// "Pflanzen") that no list of names, places or titles holds in any
// spelling: the model reads today's nouns, which the counted noun list
// lacks, as lone names ("rankende Pflanzen"). Not counted: a word ending
// in -mann, the commonest German surnames' ending, which the lexicon also
// holds as eponyms ("Stresemann", a suit); compounds by their head
// ("Granitplatte"): of the 4 177 capitalised words of eight letters or
// more that the NER corpora label as a person's and no name list holds,
// 68 end in such a head ("Fassbinder", "Liselotte", "Krätschmer").
func lexiconNounAlone(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	i := s.First - v.First
	if s.First != s.Last || i < 0 || i >= v.Len() || langFlag(v, i) != gazetteer.LowerDE {
		return false
	}
	t, l := v.CoreText(i), v.CoreLower(i)
	return view.IsCapitalised(t) && nameShaped(t) && !strings.HasSuffix(l, "mann") && plainNounDE(gz, l)
}

// plainNounEndings are nounEndings but the bare -s (plainNounDE).
var plainNounEndings = []string{"es", "n", "en", "e"}

// plainNounDE reports whether l (lower case) is a noun of Wiktionary's
// lexicon or of nouns_de.txt, as written or with -es, -n, -en or -e
// (plainNounEndings: "Pflanzen"), that no name list holds. A bare -s is
// not read as an ending: foreign names end so ("Dakers" is no "Daker").
func plainNounDE(gz *gazetteer.Gazetteers, l string) bool {
	// "Hagen" is a town, not "Hage" inflected.
	return !nameListed(gz, l) && inflectedFrom(gz, l, plainNounEndings, gazetteer.NounDE|gazetteer.NounDELexicon, notNoun)
}

// nameListed reports whether a list of names, places or titles holds l
// (lower case) in any spelling: as written, without accents, or with ß
// written ss ("Strauß" is the surname list's "strauss").
func nameListed(gz *gazetteer.Gazetteers, l string) bool {
	f := gz.Lex[l] | gz.Lex[gazetteer.FoldAccents(l)]
	if strings.Contains(l, "ß") {
		f |= gz.Lex[gazetteer.FoldAccents(strings.ReplaceAll(l, "ß", "ss"))]
	}
	return f&notNoun != 0
}

// germanNouns reports whether every word of span s is a German noun
// (germanNoun): such a Person goes even beside a name ("In der Sache
// Elias Wagner"), as German names no one with a common noun and the
// name lists hold the nouns that are surnames.
func germanNouns(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	for w := s.First; w <= s.Last; w++ {
		if !germanNoun(v, gz, w-v.First) {
			return false
		}
	}
	return true
}

// articledNounDE reports whether span s, one word in a German block, is
// a noun of a German list, inflected or not (listedNounDE, namedNounDE;
// not a compound by its head alone: "der Beckenbauer" is the man) after a
// determiner (determinersDE), directly or across up to two adjectives
// (germanAdjective: "dieser junge Mann"), or is such a determiner and
// such a noun ("Der Kaiser hatte ...", the article opening the span),
// where a compound counts by its head too (lexiconNounDE: "Der
// Stellenabbau"): a name seldom comes with its article inside the span.
func articledNounDE(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	f, i := s.First-v.First, s.Last-v.First
	inner := s.Last == s.First+1 && f >= 0 && determinersDE[v.CoreLower(f)]
	if s.First != s.Last && !inner || i <= 0 || i >= v.Len() || langFlag(v, i) != gazetteer.LowerDE {
		return false
	}
	l := v.CoreLower(i)
	if !view.IsCapitalised(v.CoreText(i)) || !listedNounDE(gz, l) && !namedNounDE(gz, l) && !(inner && lexiconNounDE(gz, l)) {
		return false
	}
	k := i - 1
	for !inner && k > 0 && k >= i-2 && germanAdjective(v, k) {
		k--
	}
	return determinersDE[v.CoreLower(k)] && v.LineOf(k) == v.LineOf(i)
}

// germanAdjective reports whether word k reads as an inflected German
// adjective: in lower case, no determiner or function word, ending in
// -e, -en, -er, -es or -em ("junge", "neuen"; not "noch", "von").
func germanAdjective(v *view.View, k int) bool {
	t, l := v.CoreText(k), v.CoreLower(k)
	if !lowerWord(t) || determinersDE[l] || germanFunctionWords[l] || stopwords[l] {
		return false
	}
	for _, e := range []string{"e", "en", "er", "es", "em"} {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// germanPhrase reports whether span s, in a German block, is a phrase
// of ordinary German: its nouns (germanNoun), words of the lower-case
// list written in lower case ("des", "modernen"), and such a word opening
// its sentence capitalised ("Das", "Seit"), at least one with letters.
// The English model reads German's capitalised nouns as names ("Mittelpunkt
// des Motorsport-Wochenendes", "Das Gehalt von"); a name holds a word no
// list of ordinary words has, or an adjective capitalised inside its
// sentence ("Deutsche Bank", "Zweiten Weltkriegs").
func germanPhrase(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	words := 0
	for w := s.First; w <= s.Last; w++ {
		i := w - v.First
		if i < 0 || i >= v.Len() || langFlag(v, i) != gazetteer.LowerDE {
			return false
		}
		t, l := v.CoreText(i), v.CoreLower(i)
		if !hasLetter(t) {
			continue
		}
		words++
		if germanNoun(v, gz, i) || phraseNoun(gz, t, l) || (germanFunctionWords[l] || gz.Lex[l]&notPlainWord == 0 && inLang(gz, gazetteer.LowerDE, l)) &&
			(lowerWord(t) || opensSentence(v, i)) {
			continue
		}
		return false
	}
	return words > 0
}

// loneNounDE reports whether span s is one capitalised word of a block
// read as German that a German noun list holds, the nouns that name and
// place lists hold too included ("im Sommer", "der Band", "die Saison",
// "Ende des Jahres"): read alone as an organization it is the noun;
// germanPhrase leaves these to the name lists, which matter for a person
// only. The nouns names often hold (NounDEInNames: "Regierung"), the
// heads of bodies ("Union"), a word before a capitalised word, a number
// or a word that links it to one (a name cut short: "Hertz 87,9", "Sturm
// der Liebe"), one beside another detection and known organizations
// (their own recognizer's spans) stay.
func loneNounDE(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	i := s.First - v.First
	if s.First != s.Last || i < 0 || i >= v.Len() || langFlag(v, i) != gazetteer.LowerDE {
		return false
	}
	t := v.CoreText(i)
	if !view.IsCapitalised(t) || view.IsAllUpper(t) || gz.Lex[v.CoreLower(i)]&(gazetteer.NounDE|gazetteer.NounDENamed) == 0 {
		return false
	}
	n := i + 1 // a name the model cut short runs on: "Hertz 87,9", "Sturm der Liebe"
	return n >= v.Len() || v.LineOf(n) != v.LineOf(i) || v.CoreEnd(i) != v.WordEnd(i) ||
		!view.IsCapitalised(v.CoreText(n)) && !view.HasDigit(v.CoreText(n)) && !nameLinksDE[v.CoreLower(n)]
}

// nameLinksDE link the words of a German name: "Sturm der Liebe",
// "Verband für Sport".
var nameLinksDE = setOf("der", "des", "von", "vom", "und", "für", "zur", "zum")

// phraseNoun reports whether t (lower case l) is capitalised and a noun
// of nouns_de.txt that the surname lists hold too ("Jahr", "Ende"): in a
// phrase of ordinary words it is the noun.
func phraseNoun(gz *gazetteer.Gazetteers, t, l string) bool {
	f := gz.Lex[l]
	if !view.IsCapitalised(t) && !view.IsAllUpper(t) || f&(notNoun&^gazetteer.Surname) != 0 {
		return false
	}
	if s, ok := strings.CutSuffix(l, "s"); ok && gz.Lex[s]&gazetteer.FirstName != 0 {
		return false // "Peters": a first name's genitive or a surname
	}
	const nouns = gazetteer.NounDE | gazetteer.NounDEInNames
	if f&nouns != 0 {
		return true
	}
	if compound(gz, l, nouns, nouns|gazetteer.LowerDE) || nounSuffixed(gz, l) {
		return true
	}
	if f&gazetteer.Surname != 0 {
		return false // a surname is a noun by its own form only: "Hannes" is no "Hanne"
	}
	for _, b := range germanStems(l) {
		if g := gz.Lex[b]; g&nouns != 0 && g&notNoun == 0 || compound(gz, b, gazetteer.NounDE, nouns|gazetteer.LowerDE) {
			return true
		}
	}
	return false
}

// nounSuffixed reports whether l (lower case, seven letters or more) ends
// with a suffix that makes German nouns ("Erwirtschaftung",
// "Binärbildmorphologie" is none) and no name list holds it: a surname
// so ended is listed ("Hartung"). A word with a hyphen may hold a name
// ("Waseda-Universität").
func nounSuffixed(gz *gazetteer.Gazetteers, l string) bool {
	if utf8.RuneCountInString(l) < 7 || strings.Contains(l, "-") || gz.Lex[l]&notNoun != 0 || gz.Lex[gazetteer.FoldAccents(l)]&notNoun != 0 {
		return false
	}
	for _, suf := range nounSuffixes {
		if strings.HasSuffix(l, suf) {
			return true
		}
	}
	return false
}

// nounSuffixes end German nouns, in the singular and the plural.
var nounSuffixes = []string{"ung", "ungen", "heit", "heiten", "keit", "keiten", "schaft", "schaften", "tion", "tionen",
	"ität", "itäten", "ismus", "nisse"}

// germanStems returns the forms a German noun l (lower case) may have
// without the ending of its plural or case ("unfällen" -> "unfall",
// "versionen" -> "version", "experten" -> "experte", "lebens" -> "leben"):
// the noun lists count the forms their sources wrote.
func germanStems(l string) []string {
	var out []string
	for _, suf := range []string{"s", "es", "n", "en", "e", "er", "ern", "nen"} {
		b, ok := strings.CutSuffix(l, suf)
		if !ok || utf8.RuneCountInString(b) < 3 {
			continue
		}
		out = append(out, b)
		if u := withoutUmlaut(b); u != b {
			out = append(out, u)
		}
	}
	return out
}

// withoutUmlaut returns l with its last umlaut written without the
// dots ("unfäll" -> "unfall", "häus" -> "haus"), as German plurals add
// one to the singular's vowel.
func withoutUmlaut(l string) string {
	rs := []rune(l)
	for k := len(rs) - 1; k >= 0; k-- {
		switch rs[k] {
		case 'ä':
			rs[k] = 'a'
		case 'ö':
			rs[k] = 'o'
		case 'ü':
			rs[k] = 'u'
		default:
			continue
		}
		return string(rs)
	}
	return l
}

// germanInstitution reports whether a word of span s is a German noun
// naming a public body, or a compound it heads, in any number or case
// ("Kommission", "Bundesregierung", "Ausschusses"; gazetteer/words/organizations.txt, use
// institution-de): the service masks a body named by its noun as an
// Organization in German as in English ("the Commission").
func germanInstitution(v *view.View, s page.Span) bool {
	for w := s.First; w <= s.Last; w++ {
		if headedInAnyForm(v.CoreLower(w-v.First), institutionsDE) {
			return true
		}
	}
	return false
}

// headedInAnyForm is headedBy for l or one of its German stems
// (germanStems): "Ausschusses", "Ministerpräsidenten" in any number or
// case.
func headedInAnyForm(l string, heads map[string]bool) bool {
	if headedBy(l, heads) {
		return true
	}
	for _, b := range germanStems(l) {
		if headedBy(b, heads) {
			return true
		}
	}
	return false
}

// headedBy reports whether l is a word of heads or a compound of three
// letters or more before one ("bundes" + "regierung").
func headedBy(l string, heads map[string]bool) bool {
	if heads[l] {
		return true
	}
	rs := []rune(l)
	for k := 3; k <= len(rs)-3; k++ {
		if heads[string(rs[k:])] {
			return true
		}
	}
	return false
}

// institutionsDE are German nouns naming a public body.
var institutionsDE = gazetteer.MustWords("organizations", "institution-de")

// germanFunctionWords are German's articles, prepositions, pronouns and
// conjunctions, some of which the name lists hold ("der", "das", "von").
var germanFunctionWords = setOf("der", "die", "das", "des", "dem", "den", "ein", "eine", "einer", "eines", "einem",
	"einen", "von", "vom", "zu", "zum", "zur", "im", "in", "am", "an", "auf", "aus", "bei", "beim", "mit", "nach",
	"seit", "über", "unter", "vor", "für", "gegen", "ohne", "um", "durch", "bis", "ab", "und", "oder", "aber", "auch",
	"sich", "es", "er", "sie", "wir", "man", "nicht", "noch", "schon", "dann", "denn", "so", "wie", "als", "wenn",
	"weil", "dass", "ob", "nur", "sein", "seine", "seiner", "seinem", "seinen", "ihre", "ihrer", "ihrem", "ihren",
	"dies", "diese", "dieser", "dieses", "diesem", "diesen", "alle", "viele", "während", "wegen", "trotz", "zwischen")

// courtesyOpened reports whether span s opens with a pronoun of address
// written capitalised inside its sentence, as Italian, German, Spanish
// and Dutch letters write them ("la Sua lettera", "wenn Sie Fragen
// haben"), and holds nothing else but words in lower case: the model
// reads the capital as a name's.
func courtesyOpened(v *view.View, s page.Span) bool {
	f := s.First - v.First
	if f < 0 || opensSentence(v, f) || !view.IsCapitalised(v.CoreText(f)) || !courtesyPronouns[langFlag(v, f)][v.CoreLower(f)] {
		return false
	}
	for w := s.First + 1; w <= s.Last; w++ {
		if !lowerWord(v.CoreText(w - v.First)) {
			return false
		}
	}
	return true
}

// courtesyPronouns are the pronouns of polite address that Italian,
// German, Spanish and Dutch write capitalised inside a sentence, by the
// language's Lex flag: Portuguese "Lei" is a law.
var courtesyPronouns = map[uint32]map[string]bool{
	gazetteer.LowerIT: setOf("sua", "suo", "sue", "suoi", "lei", "ella"),
	gazetteer.LowerDE: setOf("sie", "ihr", "ihre", "ihnen", "ihrem", "ihren", "ihrer", "ihres"),
	gazetteer.LowerES: setOf("usted", "ustedes"),
	gazetteer.LowerNL: setOf("uw"),
}

// functionWordsOnly reports whether span s holds only stop words and the
// particles of street and place names (of letters: "C/" is a street,
// "bis" a house number's letters), whatever their case: "Le" alone,
// "De la", which the model reads as an address where a sentence opens
// before an amount or a date. The town lists hold some ("La", "Le"), and
// the name lists others, so plainWords keeps them.
func functionWordsOnly(v *view.View, s page.Span) bool {
	for w := s.First; w <= s.Last; w++ {
		if l := v.CoreLower(w - v.First); !stopwords[l] && !(addressParticles[l] && isLetters(l) && !addressUnitParticles[l]) {
			return false
		}
	}
	return true
}

// opensWithComma reports whether span s is one word that opens its
// sentence and is followed by a comma: "Furthermore, the Member States
// ...", "Fourthly, ...". Sentence adverbs stand there, capitalised; the
// model, which has seen many names open a sentence, takes some for
// names.
func opensWithComma(v *view.View, s page.Span) bool {
	if s.First != s.Last {
		return false
	}
	i := s.First - v.First
	if i > 0 && !view.EndsSentence(v, i-1) {
		return false
	}
	if strings.HasPrefix(v.Text[v.CoreEnd(i):v.WordEnd(i)], ",") {
		return true
	}
	return i+1 < v.Len() && strings.HasPrefix(v.WordText(i+1), ",")
}

// loneLower reports whether span s is one word written in lower case in
// a sentence that has capitals ("asked the parson", "at the bank"). In
// a sentence written all in lower case the case tells nothing.
func loneLower(v *view.View, s page.Span) bool {
	if s.First != s.Last {
		return false
	}
	i := s.First - v.First
	t := v.CoreText(i)
	return hasLetter(t) && t == strings.ToLower(t) && sentenceHasCapitals(v, i)
}

// notPlainWord marks words that are common but carry meaning for the
// other categories, or may be names.
const notPlainWord = gazetteer.FirstName | gazetteer.Surname | gazetteer.Title | gazetteer.LegalForm |
	gazetteer.StreetSuffix | gazetteer.StreetPrefix | gazetteer.Unit | gazetteer.POBox | gazetteer.City | gazetteer.Country

// plainWords reports whether span s holds at least one word and every
// word is ordinary (a flag of ordinary: gazetteer.Common, or with
// gazetteer.Prose too; no flag of notPlainWord; or, in a block of another
// language than English, a word of its lower-case list not capitalised:
// plainInLang; or, but in an address, a German noun: germanNoun, as
// "Vertrag" alone), or, when numbers is set, a number of at most four
// digits. An address keeps its nouns: streets are named with them ("Markt
// 5").
func plainWords(v *view.View, gz *gazetteer.Gazetteers, s page.Span, ordinary uint32, numbers bool) bool {
	words := 0
	for w := s.First; w <= s.Last; w++ {
		l := v.CoreLower(w - v.First)
		if numbers && pattern.AllDigits(l) && len(l) <= 4 {
			continue
		}
		if !plainWord(v, gz, w-v.First, ordinary, numbers, s.First == s.Last) {
			return false
		}
		words++
	}
	return words > 0
}

// plainWord is plainWords' test of word i (of the view), alone when it
// is its span's only word.
func plainWord(v *view.View, gz *gazetteer.Gazetteers, i int, ordinary uint32, address, alone bool) bool {
	l := v.CoreLower(i)
	f := gz.Lex[l]
	return l != "" && (f&ordinary != 0 && f&notPlainWord == 0 || plainInLang(v, gz, i, alone) ||
		!address && germanNoun(v, gz, i))
}

// dateAndPlainWords reports whether Address span s holds a date another
// span masks and, besides it, only ordinary words (plainWords' sense, no
// number): "du 2 mai 2023", where the month is a first name too ("Mai").
// The date stays masked as a Date; a number outside it may be a house
// number ("Am 1. Mai 12") and keeps the address.
func dateAndPlainWords(v *view.View, gz *gazetteer.Gazetteers, s page.Span, ss []page.Span) bool {
	var dates []page.Span
	for _, d := range ss {
		if d.Category == page.Date {
			dates = append(dates, d)
		}
	}
	dated, plain := false, 0
	for w := s.First; w <= s.Last; w++ {
		if inSpans(dates, w) {
			dated = true
			continue
		}
		if !plainWord(v, gz, w-v.First, gazetteer.Common|gazetteer.Prose, true, false) {
			return false
		}
		plain++
	}
	return dated && plain > 0
}

// touchesOther reports whether another span of a person, firm or address
// overlaps ss[i] or covers one of the two words before or after it on the
// same line (a particle may sit between the parts of a name: "William ten
// Pas").
func touchesOther(p *page.Page, ss []page.Span, i int) bool {
	const reach = 2
	s := ss[i]
	lo, hi := s.First, s.Last
	for k := 0; k < reach && lo > 0 && p.Words[lo-1].Line == p.Words[s.First].Line; k++ {
		lo--
	}
	for k := 0; k < reach && hi+1 < len(p.Words) && p.Words[hi+1].Line == p.Words[s.Last].Line; k++ {
		hi++
	}
	for j, t := range ss {
		if j != i && t.First <= hi && t.Last >= lo && entityCategories[t.Category] {
			return true
		}
	}
	return false
}

// entityCategories are the categories of the spans that a word next to a
// lone Person may belong with: names, firms and addresses. A date or a
// number near it ("am 10. März 2021 folgender Vertrag") is no larger
// entity the model cut short.
var entityCategories = map[page.Category]bool{page.Person: true, page.Organization: true, page.Address: true}

// plainOrgWords reports whether every word of span s is a stopword or an
// ordinary word that is no place, legal form or street or unit word (or a
// word of its block's language's lower-case list not capitalised:
// plainInLang). Name
// flags do not count: written in lower case, "number" and "on" are no
// surnames.
func plainOrgWords(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	const not = gazetteer.City | gazetteer.Country | gazetteer.LegalForm | gazetteer.StreetSuffix | gazetteer.StreetPrefix |
		gazetteer.Unit | gazetteer.POBox
	for w := s.First; w <= s.Last; w++ {
		l := v.CoreLower(w - v.First)
		if f := gz.Lex[l]; !stopwords[l] && (f&gazetteer.Common == 0 || f&not != 0) && !plainInLang(v, gz, w-v.First, s.First == s.Last) {
			return false
		}
	}
	return true
}

// writtenLower reports whether span s, of two words or more, holds a
// word written in lower case and no capitalised one but the first word of
// a sentence or line (no name: "Ray's pizza"), in a sentence that has
// capitals elsewhere (in a sentence written all in lower case, "open data
// nation invested", the case tells nothing).
func writtenLower(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	if s.Last == s.First {
		return false // "facebook", "twitter": a brand written alone in lower case
	}
	if !sentenceHasCapitals(v, s.First-v.First) {
		return false
	}
	lower := false
	for w := s.First; w <= s.Last; w++ {
		i := w - v.First
		t := v.CoreText(i)
		if !view.IsCapitalised(t) {
			lower = lower || hasLetter(t)
			continue
		}
		if w != s.First || !opensSentence(v, i) || langFlag(v, i) != 0 {
			return false
		}
		if l := v.CoreLower(i); !stopwords[l] && gz.Lex[l]&(gazetteer.FirstName|gazetteer.Surname) != 0 {
			return false // "Ray's pizza": a name starts it
		}
	}
	return lower
}

// sentenceHasCapitals reports whether the sentence around word i (up to
// sentenceReach words either way) has a capitalised word, its first
// included: a sentence written all in lower case starts in lower case.
func sentenceHasCapitals(v *view.View, i int) bool {
	return sentenceHas(v, i, view.IsCapitalised)
}

// sentenceHas reports whether a word of the sentence around word i (up
// to sentenceReach words either way) satisfies is, by its core text.
func sentenceHas(v *view.View, i int, is func(string) bool) bool {
	first := i
	for first > 0 && i-first < sentenceReach && !view.EndsSentence(v, first-1) {
		first--
	}
	for k := first; k < v.Len() && k-i <= sentenceReach; k++ {
		if is(v.CoreText(k)) {
			return true
		}
		if k >= i && view.EndsSentence(v, k) {
			break
		}
	}
	return false
}

// sentenceReach bounds the search for a sentence's ends.
const sentenceReach = 60

// thingOpened reports whether span s opens with a word that names a
// month and no one (pattern.MonthNumber: "Januar", "Dezember"; "May",
// "Jan", "Juli" are first names; the months' abbreviations of three
// letters are parts of names in other languages: "Mag Mady"), or a
// currency written after an amount ("46000 Mark", "500 Lira"): the model
// reads such a capitalised word as a name, alone or with the initials
// and numbers after it ("Januar D .").
func thingOpened(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	i := s.First - v.First
	if i < 0 || i >= v.Len() {
		return false
	}
	l := v.CoreLower(i)
	if pattern.MonthNumber(l) > 0 && utf8.RuneCountInString(l) >= 4 && gz.Lex[l]&(gazetteer.FirstName|gazetteer.Surname) == 0 {
		return true
	}
	return currencies[l] && i > 0 && v.LineOf(i-1) == v.LineOf(i) && view.HasDigit(v.CoreText(i-1))
}

// currencies are the currencies the name lists hold as names too.
var currencies = gazetteer.MustWords("things", "currency")
