package rules

import (
	"strings"

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
// contracts, and the model takes the preposition into the firm).
type trimLeadingFunctionWords struct{}

func (trimLeadingFunctionWords) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0]
	for _, s := range ss {
		if s.Recognizer == nerRecognizer {
			opened := false
			for s.First <= s.Last {
				i := s.First - v.First
				switch {
				case leadsNoEntity(v.CoreText(i)):
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

// leadsNoEntity reports whether a word (its core) is one no entity starts
// with (see trimLeadingFunctionWords).
func leadsNoEntity(w string) bool {
	if leadLower[w] {
		return true
	}
	l := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	return leadContractions[l] || leadOpeners[l] && w[0] >= 'A' && w[0] <= 'Z'
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
