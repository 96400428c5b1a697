package rules

import (
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimLowercaseNames cuts the NER model's Person spans back to the name
// in blocks of German, French, Spanish, Italian, Dutch and Portuguese
// (view.Lang), where the built-in model, trained on English, runs a name
// on into the words around it: "Maria Santos mora em", "el Sr. García la
// llamará", "Milan De Wit belt". A name never ends with a word written in
// lower case, so trailing lower-case words go; a name may begin with one
// (a particle: "de Vries", "van der Meer", "da Silva"), so only the
// function words that begin no name go from its start (leadForeign,
// written in lower case; and the salutations of a letter, leadSalutations), and
// a title in lower case ("dhr.", "mevr.") stays. Any word of the block's
// language's lower-case list (inLang) written in lower case goes from
// either end too, but a particle from the start: the model runs names
// into the verbs and nouns around them, and reads a sentence's words
// alone as names ("bien reçu", "de régler"). A function word that opens
// the sentence, capitalised, goes from the start too ("Avec Jean
// Dupont,"), where the block's language is sure and the word is no
// initial, no English stop word ("In", "Is", "Of") and no first name ("Al
// Arfsten"); and a span run on into the next line ends before it where
// that line opens with an ordinary word (beforeNextLine); the list counts
// for nothing in a sentence written all in lower case, where names are
// written so too. A span left with no
// capitalised word is dropped: the model reads "de", "la", "a" alone as
// names; so is one of a sentence's capitalised first word and words in
// lower case (openerThenLower: "Fait à", "Het salaris"), and the article
// opening a sentence before an office alone (loneArticle: "O juiz Pedro
// Santos"). English blocks and blocks too short to tell are left as they
// are.
type trimLowercaseNames struct{}

func (trimLowercaseNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0]
	for _, s := range ss {
		if f, l := s.First-v.First, s.Last-v.First; s.Category == page.Person && f >= 0 && l < v.Len() &&
			s.Start == 0 && (particleBeforeFirstName(v, rc.gz, f, l) || nounBeforeFirstName(v, rc.gz, f, l)) {
			s = cutTo(v, s, f+1, l) // whoever found it: "van Olivia Peters" (the name recognizer's)
		}
		if s.Recognizer != nerRecognizer || s.Category != page.Person {
			out = append(out, s)
			continue
		}
		f, l := s.First-v.First, s.Last-v.First
		if f < 0 || l >= v.Len() {
			out = append(out, s)
			continue
		}
		switch v.Lang(f) {
		case lang.English, lang.Unknown:
			out = append(out, s)
			continue
		}
		if f == l && loneArticle(v, f) {
			continue
		}
		if openerThenLower(v, rc.gz, s) {
			continue
		}
		lf := langFlag(v, f)
		if !sentenceHasCapitals(v, f) {
			lf = 0 // "maria santos mora": where nothing is capitalised, names are not either
		}
		// ordinary is a word of the language's list written in lower case
		// that is no link between a married and a birth name.
		ordinary := func(i int) bool {
			w := v.CoreLower(i)
			return lowerWord(v.CoreText(i)) && !nameLinks[w] && inLang(rc.gz, lf, w)
		}
		endsNoName := func(i int) bool {
			w := v.CoreLower(i)
			return lowerWord(v.CoreText(i)) && (leadForeign[w] || endParticles[w]) || ordinary(i)
		}
		beginsNoName := func(i int) bool {
			w := v.CoreLower(i)
			return lowerWord(v.CoreText(i)) && leadForeign[w] || ordinary(i) && !endParticles[w] ||
				leadSalutations[w] || leadSalutations[genderBase(w)] ||
				capitalisedOpener(v, rc.gz, i, l+1, leadForeign) || capitalisedOpener(v, rc.gz, i, l+1, sentenceOpeners) ||
				leadPunct(v, i)
		}
		l = beforeNextLine(v, rc.gz, sureLangFlag(v, f), f, l)
		for l >= f && endsNoName(l) {
			l--
		}
		for f <= l && beginsNoName(f) {
			f++
		}
		if f > l {
			continue
		}
		s = cutTo(v, s, f, l)
		out = append(out, s)
	}
	return out
}

// openerThenLower reports whether span s, of two words or more, is a
// word of its block's language (one of the six other than English, sure)
// capitalised where its sentence or line begins, then words written in
// lower case only: "Fait à", "Rogamos transfieran", "Het salaris"; in
// German, nouns too ("Das Gehalt von": germanNoun). A
// person's name has a capitalised word after its first; the model reads
// a sentence's first words as one where letters and forms open with a
// verb or a noun it does not know. A particle after the first word keeps
// the span: French, Spanish, Italian and Portuguese name bodies so
// ("Maison de la métallurgie et de l'industrie").
func openerThenLower(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	f, l := s.First-v.First, s.Last-v.First
	if f < 0 || l >= v.Len() || f == l || !opensSentence(v, f) || !view.IsCapitalised(v.CoreText(f)) ||
		!inLang(gz, sureLangFlag(v, f), v.CoreLower(f)) || dateJoins[v.CoreLower(f+1)] {
		return false // "Maison de la métallurgie", "Agence du revenu": bodies are named so
	}
	for i := f + 1; i <= l; i++ {
		if t := v.CoreText(i); !lowerWord(t) && !germanNoun(v, gz, i) {
			return false
		}
	}
	return true
}

// loneArticle reports whether view word i is an article opening its
// sentence, capitalised, before a word in lower case on its line: the
// model reads the article before an office and a name as a name of its
// own ("O juiz Pedro Santos", "El abogado Juan Pérez", "Le juge Pierre
// Martin", "De rechter Jan de Vries"). An initial is written with its full
// stop or before a capitalised word ("A. Silva", "O Neill"), a surname
// with its particle before one ("Le Pen", "La Fontaine").
func loneArticle(v *view.View, i int) bool {
	if !sentenceArticles[v.CoreLower(i)] || !view.IsCapitalised(v.CoreText(i)) || v.CoreEnd(i) != v.WordEnd(i) ||
		!opensSentence(v, i) {
		return false
	}
	n := i + 1
	return n < v.Len() && v.LineOf(n) == v.LineOf(i) && lowerWord(v.CoreText(n))
}

// sentenceArticles are the articles of German, French, Spanish, Italian,
// Dutch and Portuguese.
var sentenceArticles = setOf("o", "a", "os", "as", "um", "uma", "el", "la", "los", "las", "un", "una", "le", "les", "une",
	"il", "lo", "gli", "i", "uno", "der", "die", "das", "den", "dem", "des", "ein", "eine", "de", "het", "een")

// particleBeforeFirstName reports whether word i, before the span's end
// l, is a surname particle written in lower case ("van", "de", "von")
// before one of the most frequent first names: a particle begins a
// surname ("van Dijk"), never a first name, so "In de zaak van Olivia
// Peters" names "Olivia Peters". A surname that is a first name too
// ("de Jesus") loses only its particle and stays masked.
func particleBeforeFirstName(v *view.View, gz *gazetteer.Gazetteers, i, l int) bool {
	if i >= l || !lowerWord(v.CoreText(i)) || !endParticles[v.CoreLower(i)] {
		return false
	}
	n := v.CoreLower(i + 1)
	return view.IsCapitalised(v.CoreText(i+1)) && gz.Lex[n]&gazetteer.TopFirstName != 0
}

// nounBeforeFirstName reports whether word i, before the span's end l,
// is a German noun after an article or a preposition and before one of
// the most frequent first names: "In der Sache Elias Wagner" names
// "Elias Wagner"; German names take no article, nouns do. Many such
// nouns are surnames too ("Sache"), which the noun lists keep apart
// (phraseNoun).
func nounBeforeFirstName(v *view.View, gz *gazetteer.Gazetteers, i, l int) bool {
	if i == 0 || i >= l || langFlag(v, i) != gazetteer.LowerDE || v.LineOf(i-1) != v.LineOf(i) {
		return false
	}
	t, p := v.CoreText(i), v.CoreLower(i-1)
	if !lowerWord(v.CoreText(i-1)) || !germanFunctionWords[p] || !germanNoun(v, gz, i) && !phraseNoun(gz, t, v.CoreLower(i)) {
		return false
	}
	for _, f := range append(germanStems(v.CoreLower(i)), v.CoreLower(i)) {
		if gz.Lex[f]&gazetteer.Title != 0 || headedBy(f, germanRanks) {
			return false // "und Herrn Henry Fischer", "der Erzherzogin Christine": a title, masked with the name
		}
	}
	n := v.CoreLower(i + 1)
	return view.IsCapitalised(v.CoreText(i+1)) && gz.Lex[n]&gazetteer.TopFirstName != 0
}

// germanRanks are the German ranks of nobility written before a name,
// alone or as a compound's head ("Erzherzogin"): a title, as "Herr".
var germanRanks = setOf("herzog", "herzogin", "graf", "gräfin", "fürst", "fürstin", "könig", "königin", "kaiser",
	"kaiserin", "prinz", "prinzessin", "baron", "baronin", "freiherr", "freifrau", "markgraf", "markgräfin")

// lowerWord reports whether w begins with a lower-case letter.
func lowerWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLower(r)
}

// nameLinks join a married name to a birth name ("Janssen geb. Smits",
// "Dupont née Martin"): a span the model ended there stays whole.
var nameLinks = setOf("geb", "geboren", "née", "nee", "geb.", "verh", "wed", "nata", "nacida", "nascida", "ep", "épouse")

// endParticles begin names but end none: "Jan van", "Maria da".
var endParticles = setOf("de", "da", "do", "dos", "das", "di", "del", "della", "du", "des", "van", "von", "der", "den",
	"ter", "ten", "la", "le", "zu", "y")

// leadSalutations open a letter before the name, capitalised:
// "Geachte mevr. De Vries", "Gentile Sig.ra Barone".
var leadSalutations = setOf("geachte", "beste", "gentile", "gentili", "egregio", "egregia", "estimado", "estimada",
	"querido", "querida", "caro", "cara", "prezado", "prezada", "sehr", "geehrte", "geehrter", "liebe", "lieber",
	"chère", "cher", "exmo", "exma", "ilmo", "ilma")

// leadForeign are the function words of the six languages that begin no
// name: articles, prepositions, conjunctions, pronouns and verbs of
// running text. Particles that begin names ("de", "da", "do", "di", "del",
// "della", "du", "des", "van", "von", "der", "den", "ter", "ten", "la",
// "le", "zu") are not here.
var leadForeign = union(setOf(elidedCores...), setOf(
	// German
	"und", "oder", "am", "im", "an", "auf", "bei", "mit", "nach", "zum", "zur", "für", "wird", "ist", "sind", "hat",
	"bitte", "das", "dem", "ein", "eine", "es", "sie", "er", "wir", "ihr", "uns", "nicht", "auch", "geboren", "wohnhaft",
	"vom", "als", "wie", "gez",
	// French
	"et", "ou", "au", "aux", "les", "un", "une", "est", "sont", "sur", "dans", "par", "pour", "avec", "chez", "nous",
	"vous", "il", "elle", "ils", "qui", "que", "né", "née", "demeurant", "votre", "notre", "son", "sa", "ses", "ce",
	// Spanish, Italian, Portuguese
	"y", "o", "u", "e", "a", "el", "los", "las", "en", "con", "por", "para", "sin", "su", "sus", "se", "al", "una",
	"es", "son", "i", "gli", "lo", "per", "tra", "fra", "nel", "nella", "alla", "che", "è", "ha", "os", "as", "um",
	"uma", "em", "no", "na", "nos", "nas", "com", "pelo", "pela", "ao", "à", "é", "seu", "sua", "firmado", "firmato",
	"assinado",
	// Dutch
	"of", "het", "een", "op", "bij", "met", "naar", "voor", "uit", "aan", "is", "zijn", "wordt", "heeft", "wij",
	"uw", "hij", "zij", "wonende", "te", "getekend",
))

// elidedCores are the French and Italian articles and prepositions that
// elide before a vowel, without their apostrophe: tokenized text writes
// them as words of their own ("d' Auxerre", "dell' Italia", "d ' Afrique"),
// and they begin no name (leadForeign, leadPunct).
var elidedCores = []string{"d", "l", "qu", "dell", "all", "dall", "nell", "sull"}

// sentenceOpeners are conjunctions and adverbs that open a sentence of
// narrative or news, capitalised there, before a name the model reads
// them with or beside ("Mais Duroy ne s'occupait guère", "Quand Georges
// Duroy parvint", "Aber Merkel sagte"): no name begins with one, and
// alone they are no name either, so they go from the start of a span and
// a span of one alone goes, as do leadForeign's (capitalisedOpener is
// asked with the span read one word longer: "Et Duroy fut pris").
var sentenceOpeners = setOf(
	// German
	"aber", "dann", "doch", "denn", "wenn", "jedoch", "auch", "nun", "da", "damals", "später",
	// French
	"mais", "quand", "alors", "puis", "donc", "lorsque", "car", "pourtant", "cependant", "ainsi", "enfin", "ensuite",
	"aussitôt", "soudain",
	// Spanish
	"pero", "cuando", "entonces", "pues", "luego", "después", "también", "aunque",
	// Italian
	"ma", "quando", "allora", "poi", "però", "dopo", "anche", "mentre",
	// Portuguese
	"mas", "então", "depois", "também", "porém", "enquanto",
	// Dutch
	"maar", "toen", "dan", "daarna", "ook", "want", "dus",
)

// beforeNextLine returns the last word of the span [f, l] before a line
// of it that opens with an ordinary word of the language whose flag is lf
// (inLang, in no name list): the model ran a name on into the label of
// the next line ("Danel Fernández Romero" / "Fecha de nacimiento:").
func beforeNextLine(v *view.View, gz *gazetteer.Gazetteers, lf uint32, f, l int) int {
	for i := f + 1; i <= l; i++ {
		if v.LineOf(i) != v.LineOf(i-1) && gz.Lex[v.CoreLower(i)]&(gazetteer.FirstName|gazetteer.Surname) == 0 && inLang(gz, lf, v.CoreLower(i)) {
			return i - 1
		}
	}
	return l
}
