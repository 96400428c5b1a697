package rules

import (
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"

	"github.com/redactd/redactd/engine/page"
)

// trimLeadingFunctionWords moves the start of the NER model's spans past
// the words no name, firm or address begins with, which the model, having
// seen many entities at the start of a sentence, takes in with them:
// "What's your email?" and "Here's my SSN:" read as an Organization,
// "she named him joshua" as the Person "him joshua". A span left with no
// word is dropped. Only words that are never names are trimmed: pronoun
// contractions in any case, possessives and object pronouns in lower case
// only ("My" can be a given name), a few openers ("Maybe", "Dear"), and,
// in a block surely in one of the six other languages, a preposition
// opening the sentence (leadPrepositions, capitalisedOpener: "Entre
// Hernández e Hijos S.L.," and "Zwischen der Bäckerei Fischer AG" open
// contracts, and the model takes the preposition into the firm). The name
// finder's spans lose such a preposition too: it reads "Zwischen der
// Hoffmann" as a name with a particle, as "Peter von der Hoffmann".
// Punctuation written as a word of its own goes from the model's spans
// too (leadPunct: "( Jacques Rival", "d ' Afrique"), but quotation marks.
// Every recognizer's spans lose a wiki's redirect keyword
// (redirectWords: "WEITERLEITUNG Malta Football Association", a wiki page
// exported as text), which the model reads as the first word of the
// title after it.
type trimLeadingFunctionWords struct{}

func (trimLeadingFunctionWords) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0]
	for _, s := range ss {
		for s.First <= s.Last && redirectAt(v, s.First-v.First) {
			s.First, s.Start = s.First+1, 0
		}
		if s.First > s.Last {
			continue
		}
		if ner, names := s.Recognizer == nerRecognizer, s.Recognizer == NameGazetteer; ner || names {
			if ner {
				if n := lowerLead(v, rc.gz, s); n > 0 {
					s.First, s.Start = s.First+n, 0 // "la société Transports Bernard S.A."
				}
			}
			opened := false
			for s.First <= s.Last {
				i := s.First - v.First
				switch {
				case ner && leadsNoEntity(v.CoreText(i)):
				case ner && leadArticle(v, rc.gz, i, s.Last-v.First):
				case ner && i < s.Last-v.First && leadPunct(v, i):
				case capitalisedOpener(v, rc.gz, i, s.Last-v.First, leadPrepositions):
					opened = true
				case opened && lowerWord(v.CoreText(i)):
					// the article and nouns in lower case after the
					// preposition: "Zwischen der Bäckerei Fischer AG",
					// "Entre la société Transports Bernard S.A."; a span
					// of nothing else goes ("Dans l'affaire")
				default:
					i = -1
				}
				if i < 0 {
					break
				}
				s.First, s.Start = s.First+1, 0
			}
			if s.First > s.Last {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// leadPunct reports whether word i is punctuation written as a word of
// its own (tokenized text) that begins no entity: a bracket, a dash or a
// comma opening the span, or the apostrophe of an elided article or
// preposition before it ("d ' Afrique", "l ' Arabe"). Quotation marks
// stay: they enclose names (grow-person, quotesAfter).
func leadPunct(v *view.View, i int) bool {
	w := v.WordText(i)
	if hasLetter(w) || view.HasDigit(w) {
		return false
	}
	if !quoteMarks(w) {
		return true
	}
	return (w == "'" || w == "’") && i > 0 && v.LineOf(i-1) == v.LineOf(i) && elisions[v.WordLower(i-1)]
}

// elisions are the French and Italian words that elide before a vowel,
// written apart from their apostrophe in tokenized text: the articles and
// prepositions (elidedCores) and the pronouns and "un" ("j ' ai", "un '
// amica").
var elisions = union(setOf(elidedCores...), setOf("j", "n", "s", "c", "m", "t", "un"))

// leadsNoEntity reports whether a word (its core) is one no entity starts
// with (see trimLeadingFunctionWords).
func leadsNoEntity(w string) bool {
	if leadLower[w] {
		return true
	}
	l := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	return leadContractions[l] || leadOpeners[l] && w[0] >= 'A' && w[0] <= 'Z'
}

// leadArticle reports whether word i, written in lower case, is an
// article, a preposition or a conjunction of its block's language that
// no name or firm starts with (leadArticles), before word last of its
// span: the model takes "die" into "Abstieg in die Liga Leumit", "par le
// Muséum national". A name's particles are not among them ("von", "de",
// "van", "da"). It stays before a title or rank ("le marquis de
// Cazolles", masked with the name) and, where it joins two parts of a
// name, after a capitalised word ("Akademie der Wissenschaften": the
// model may read the second part alone, and growOrganization joins the
// first back at the article).
func leadArticle(v *view.View, gz *gazetteer.Gazetteers, i, last int) bool {
	lf := langFlag(v, i)
	if lf == 0 || i >= last || !lowerWord(v.CoreText(i)) || !leadArticles[lf][v.CoreLower(i)] {
		return false
	}
	if n := v.CoreLower(i + 1); gz.Lex[n]&gazetteer.Title != 0 || rankTitles[n] || nobility[n] {
		return false
	}
	return !nameJoiners[v.CoreLower(i)] || i == 0 || v.LineOf(i-1) != v.LineOf(i) || !view.IsCapitalised(v.CoreText(i-1))
}

// nameJoiners are the words of leadArticles that join two parts of one
// name: "Akademie der Wissenschaften", "Verein für Socialpolitik",
// "Productores de Fonogramas y Videogramas".
var nameJoiners = setOf("der", "des", "für", "und", "et", "y", "e", "en")

// leadArticles are, per language (its gazetteer.LowerIn flag), the
// function words leadArticle trims.
var leadArticles = map[uint32]map[string]bool{
	gazetteer.LowerDE: setOf("der", "die", "das", "des", "dem", "den", "ein", "eine", "einen", "einem", "einer", "eines",
		"im", "am", "zum", "zur", "beim", "ins", "bei", "in", "auf", "an", "aus", "mit", "nach", "für", "über", "unter",
		"vor", "durch", "gegen", "seit", "und", "oder"),
	gazetteer.LowerFR: setOf("le", "la", "les", "un", "une", "à", "au", "aux", "en", "par", "sur", "avec", "pour",
		"dans", "et", "ou"),
	gazetteer.LowerES: setOf("el", "la", "los", "las", "un", "una", "en", "por", "con", "para", "y", "o", "al"),
	gazetteer.LowerIT: setOf("il", "lo", "la", "gli", "le", "un", "una", "in", "con", "per", "su", "nel", "nella",
		"al", "alla", "e", "o"),
	gazetteer.LowerNL: setOf("het", "een", "in", "op", "met", "voor", "bij", "naar", "en", "of"),
	gazetteer.LowerPT: setOf("o", "a", "os", "as", "um", "uma", "em", "na", "no", "nas", "nos", "por", "com", "para",
		"pelo", "pela", "e", "ou", "ao"),
}

// redirectWords are MediaWiki's redirect keywords in the seven
// languages ("#REDIRECT", "#WEITERLEITUNG", "#REDIRECIONAMENTO").
var redirectWords = gazetteer.MustWords("labels", "redirect")

// redirectAt reports whether word i of v is a redirect keyword.
func redirectAt(v *view.View, i int) bool {
	return i >= 0 && i < v.Len() && redirectWords[v.CoreLower(i)]
}

// leadPrepositions open a sentence before a name or a firm's name in the
// six other languages.
var leadPrepositions = setOf("entre", "zwischen", "tussen", "tra", "fra", "chez", "avec", "pour", "para", "con", "com",
	"mit", "bei", "für", "voor", "bij", "per", "presso", "junto", "según", "segundo", "selon", "laut", "volgens", "secondo",
	"dans", "en", "nel", "nella", "em", "im", "op", "sur")

var (
	leadContractions = setOf("what's", "here's", "there's", "that's", "it's", "who's", "where's", "how's", "let's",
		"they're", "we're", "you're", "i'm", "i'd", "i'll", "i've", "we'll", "you'll", "they'll", "we'd", "you'd",
		"they'd", "we've", "you've", "they've", "he's", "she's", "he'd", "she'd", "he'll", "she'll")
	leadLower = setOf("my", "your", "our", "their", "his", "him", "them", "me", "us", "it", "its", "not",
		"please", "maybe", "and", "or", "but", "if", "what", "who", "where", "when", "how")
	leadOpeners = setOf("maybe", "please", "dear", "hi", "hello", "thanks", "perhaps")
)

// lowerLead returns how many words written in lower case open span s
// before its first capitalised word, when they are words of the running
// text of the block's language (one of the six other than English, sure)
// and one of them is more than a particle: "la société Transports
// Bernard S.A."; a name's particles stay ("de la Fuente", "van der
// Berg"), and so do titles and ranks ("le marquis de Cazolles"). 0 when
// the span holds no capitalised word.
func lowerLead(v *view.View, gz *gazetteer.Gazetteers, s page.Span) int {
	f, l := s.First-v.First, s.Last-v.First
	if f < 0 || l >= v.Len() {
		return 0
	}
	lf := sureLangFlag(v, f)
	if lf == 0 {
		return 0
	}
	content := false
	for i := f; i <= l; i++ {
		t, w := v.CoreText(i), v.CoreLower(i)
		switch {
		case view.IsCapitalised(t) || view.IsAllUpper(t) && hasLetter(t):
			if !content || v.LineOf(i) != v.LineOf(f) {
				return 0
			}
			return i - f
		case !lowerWord(t) || !inLang(gz, lf, w) && !stopwords[w] && !endParticles[w]:
			return 0
		case gz.Lex[w]&gazetteer.Title != 0 || rankTitles[w] || nobility[w]:
			return 0 // "le marquis de Cazolles", "il dottor Rossi": a title, masked with the name
		case !endParticles[w] && !stopwords[w] && utf8.RuneCountInString(w) >= 4:
			content = true
		}
	}
	return 0
}

// nobility are the ranks of nobility written in lower case before a
// name in French, Italian, Spanish and Portuguese ("le marquis de
// Cazolles"): titles, masked with the name.
var nobility = setOf("marquis", "marquise", "marchese", "marchesa", "marqués", "marquesa", "marquês", "duc",
	"duchesse", "duca", "duchessa", "duque", "duquesa", "comte", "comtesse", "conte", "contessa", "conde", "condesa",
	"vicomte", "vicomtesse", "visconde", "viscondessa", "prince", "princesse", "principe", "principessa", "príncipe",
	"princesa", "baron", "baronne", "barone", "baronessa", "barón", "baronesa", "barão", "chevalier", "cavaliere")
