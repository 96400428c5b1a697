package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimPatternEdges cuts from the ends of Person, Organization and Address
// spans a value that a pattern recognizer found (a national ID, IBAN,
// phone number, e-mail address, card number or date) together with the
// words that announce it: "con DNI n.º 42957217W", "auf das Konto IBAN
// PT51 ...", "N° INSEE : 298868196154922", "geboren am 22.01.1982",
// "Paseo Gran Vía 13, 33590 Bojes" / "DNI 21563178B". The model reads
// such a label and its number as an address or a firm, and the address
// recognizer runs an address on over the next line's ID; the value stays
// masked under its own category, and the label names no one.
//
// Only a value at an end of the span is cut (after the label words
// before it, or before the words after it): one inside the span belongs
// to it ("Rua 25 de Abril, 177" is an address that holds a date). A date
// at the end is cut only after a word that announces it (announcesDate).
// Only sure values count (score sureValue or more): a possible phone
// number ("03 2657", score 0.6) is as likely a house number. The
// words cut with the value are those patternLabel accepts; a span left
// with no word is dropped, but for a name inside an e-mail address, which
// the category decisions mask as a Person ("ramona.betancourt@"). An
// e-mail address written out in words ("jane
// at example dot com") is too weak a value to cut for: the obfuscated
// e-mail recognizer reads "Minister @NajibRazak . Thank" as one.
type trimPatternEdges struct{}

// sureValue is the least score of a value that trimPatternEdges cuts for:
// validated IDs, IBANs and cards, e-mail addresses, dates and phone
// numbers of a known plan score more.
const sureValue = 0.8

// patternCategories are the categories of the pattern recognizers'
// values.
var patternCategories = map[page.Category]bool{page.NationalID: true, page.IBAN: true, page.PhoneNumber: true,
	page.Email: true, page.CreditCard: true, page.Date: true}

func (trimPatternEdges) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var values []page.Span
	for _, s := range ss {
		if patternCategories[s.Category] && s.Score >= sureValue && !strings.Contains(s.Recognizer, "obfuscated") {
			values = append(values, s)
		}
	}
	if len(values) == 0 {
		return ss
	}
	out := ss[:0]
	for _, s := range ss {
		if s.Category != page.Person && s.Category != page.Organization && s.Category != page.Address {
			out = append(out, s)
			continue
		}
		first, last := s.First-v.First, s.Last-v.First
		for changed := true; changed && first <= last; {
			changed = false
			for _, t := range values {
				if f, l := cutValue(v, gz, s, t, first, last); f != first || l != last {
					first, last, changed = f, l, true
				}
			}
		}
		if first > last {
			continue
		}
		if first+v.First != s.First || last+v.First != s.Last {
			if stopWordsOnly(v, first, last) {
				continue // "His" of "His social security number is": a pronoun names no one
			}
			s = cutTo(v, s, first, last)
		}
		out = append(out, s)
	}
	return out
}

// cutValue returns words [first, last] of span s without the value t
// and its labels where t stands at an end of them (trimPatternEdges), or
// without the labels at their end when t follows right after them on
// their line, or
// after more label words ("Le Mans, le" / "2 janvier 2018", "N° INSEE" /
// ": 298868196154922", "N°" / "INSEE : 298868196154922"); not
// before an e-mail address, which follows a name or a firm's name in a
// mail header ("PIRA Oil Retainer Client <eileen@pira.com>").
func cutValue(v *view.View, gz *gazetteer.Gazetteers, s, t page.Span, first, last int) (int, int) {
	tf, tl := t.First-v.First, t.Last-v.First
	if first > last {
		return first, last // an earlier value took every word
	}
	if tf > last {
		if t.Category == page.Email || v.LineOf(tf) != v.LineOf(last) ||
			!punctuationOnly(v, last+1, tf-1) && !onlyLabels(v, gz, last+1, tf-1) || !patternLabel(v, gz, last) ||
			t.Category == page.Date && !announcesDate(v, gz, last) {
			return first, last
		}
		for last >= first && patternLabel(v, gz, last) {
			last--
		}
		return first, last
	}
	if tl < first {
		return first, last
	}
	if t.Category == page.Email && s.Category == page.Person && tf <= first && tl >= last {
		return first, last // "paul" of "paul.ybarbo@enron.com" (the mail-header decisions)
	}
	if t.Category == page.Date && tf > first && !announcesDate(v, gz, tf-1) {
		return first, last // "Hospital 12 de Octubre", "Clube 15 de Novembro"
	}
	switch {
	case tl >= last || onlyLabels(v, gz, tl+1, last):
		last = tf - 1
		for last >= first && patternLabel(v, gz, last) {
			last--
		}
	case tf <= first || onlyLabels(v, gz, first, tf-1):
		first = tl + 1
		for first <= last && patternLabel(v, gz, first) {
			first++
		}
	}
	return first, last
}

// stopWordsOnly reports whether words [f, l] are all stop words
// (gazetteer words/stopwords.txt, use name: "his", "my", "the").
func stopWordsOnly(v *view.View, f, l int) bool {
	for i := f; i <= l; i++ {
		if !stopwords[v.CoreLower(i)] {
			return false
		}
	}
	return true
}

// punctuationOnly reports whether words [f, l] (none when f > l) hold no
// letter and no digit (": ", "–").
func punctuationOnly(v *view.View, f, l int) bool {
	for i := f; i <= l; i++ {
		if t := v.CoreText(i); hasLetter(t) || view.HasDigit(t) {
			return false
		}
	}
	return true
}

// announcesDate reports whether word i, before a date, is a label word
// that announces it ("am", "le", "el", "op", "geboren", "né(e)") and not
// one that joins it to a name: places, firms and streets are named after
// dates ("Hospital 12 de Octubre", "Rua 1.º de Maio", "4th of July").
func announcesDate(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	return patternLabel(v, gz, i) && !dateJoins[v.CoreLower(i)]
}

// dateJoins are the particles that join a date to the name before it.
var dateJoins = setOf("de", "del", "do", "da", "of", "du", "van", "von", "di", "dei", "della", "dos", "das", "des")

// onlyLabels reports whether words [f, l] are all patternLabel words.
func onlyLabels(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	for i := f; i <= l; i++ {
		if !patternLabel(v, gz, i) {
			return false
		}
	}
	return true
}

// patternLabel reports whether word i may announce a value, or join it
// to its sentence: punctuation, a number sign ("N°", "n.º"), a word of the
// form labels ("Konto", "Tél."), an account's label ("IBAN"), a word of a
// person's ID label as the national-ID recognizer reads them ("DNI", "N°
// INSEE", "Cartão de Cidadão": inIDLabel), a word written in lower case that is a stop word or
// an ordinary word of its block's language ("con", "auf das", "geboren
// am", "se"), or such a word capitalised where its sentence opens ("La
// contatteremo al").
func patternLabel(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	t, l := v.CoreText(i), v.CoreLower(i)
	if !hasLetter(t) || numberSigns[l] {
		return !view.HasDigit(t)
	}
	if b := strings.TrimSuffix(l, "."); formLabels[b] || accountLabels[b] || inIDLabel(v, i) {
		return true
	}
	lf := langFlag(v, i)
	if lowerWord(t) {
		// A short function word of the language counts whatever other
		// list holds it ("se" is a country code too).
		return stopwords[l] || inLang(gz, lf, l) || lf != 0 && len([]rune(l)) <= 3 && gz.Lex[l]&lf != 0
	}
	// A sentence's capitalised first word of the language: "La
	// contatteremo al" / "06 6141 7006".
	return view.IsCapitalised(t) && opensSentence(v, i) && !afterTitle(v, gz, i) && inLang(gz, sureLangFlag(v, i), l)
}

// afterTitle reports whether word i follows a title or an initial on its
// line, whose full stop ends no sentence ("Dr. Pinto", "D. Ramos").
func afterTitle(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if i == 0 || v.LineOf(i-1) != v.LineOf(i) {
		return false
	}
	p := v.CoreLower(i - 1)
	return gz.Lex[p]&gazetteer.Title != 0 || gz.Lex[strings.TrimSuffix(p, ".")]&gazetteer.Title != 0 || len([]rune(strings.TrimSuffix(p, "."))) <= 2
}

// accountLabels are the short names of an account number ("IBAN",
// "BIC"): no person's ID, but a label all the same.
var accountLabels = setOf("iban", "bic", "swift")

// inIDLabel reports whether word i is part of the label of a person's ID
// number (pattern.PersonalLabelLen: "DNI", "Cartão de Cidadão",
// "codice fiscale") that begins at most idLabelWords words before it and
// ends where a word does.
func inIDLabel(v *view.View, i int) bool {
	_, end := v.Core(i)
	for k := i; k >= 0 && k > i-idLabelWords && v.LineOf(k) == v.LineOf(i); k-- {
		start, _ := v.Core(k)
		n := pattern.PersonalLabelLen(v.Lower[start:min(len(v.Lower), start+64)])
		if n == 0 || start+n < end {
			continue
		}
		if e := start + n; e == len(v.Lower) || !isWordByte(v.Lower[e]) {
			return true
		}
	}
	return false
}

// idLabelWords is the most words a personal ID's label holds
// ("número de la seguridad social").
const idLabelWords = 5

// isWordByte reports whether b may continue a word: a letter, a digit or
// a byte of a multi-byte letter.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}
