package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimAddressSentences cuts the NER model's Address spans back to the
// address in blocks of German, French, Spanish, Italian, Dutch and
// Portuguese, where the built-in model, trained on English, runs an
// address on into the sentence after it ("161 bis impasse de la
// République, 89332 Marignane, la commission a décidé le 24 août 2020 de
// faire droit ...") and reads sentences of dates and amounts as addresses
// ("Le salaire de 2 698,84 € est versé sur le compte ...").
//
// The span's words written in lower case that the block's language writes
// so in running text (inLang) are sentence words, but for the words
// addresses hold: street, unit and post-box words (the gazetteer's) and
// the particles of street names (addressParticles). Between sentence words
// lie the span's pieces; a piece with a street word or a postcode before
// a capitalised word is an address, and one with a capitalised word the
// language does not write in lower case a name the model took for one
// (namePiece). The span becomes those pieces, less particles left at
// either end of each; a span with sentence words and neither piece is
// dropped. A span with no sentence word is left as it is: the rule judges
// only what the model ran into; so is a span in text written all in lower
// case.
type trimAddressSentences struct{}

func (trimAddressSentences) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for _, s := range ss {
		f, l := s.First-v.First, s.Last-v.First
		if s.Recognizer != nerRecognizer || s.Category != page.Address || f < 0 || l >= v.Len() {
			out = append(out, s)
			continue
		}
		lf := langFlag(v, f)
		if lf == 0 || !sentenceHasCapitals(v, f) {
			out = append(out, s)
			continue
		}
		var pieces [][2]int
		sentence := false
		for p := f; p <= l; {
			if sentenceWord(v, gz, lf, p) {
				sentence = true
				p++
				continue
			}
			e := p
			for e+1 <= l && !sentenceWord(v, gz, lf, e+1) {
				e++
			}
			if addressPiece(v, gz, p, e) || namePiece(v, gz, lf, p, e) {
				pieces = append(pieces, [2]int{p, e})
			}
			p = e + 1
		}
		if !sentence {
			if e := addressTail(v, gz, f, l); e < l {
				s = cutTo(v, s, f, e)
			}
			out = append(out, s)
			continue
		}
		for _, pc := range pieces {
			first, last := pc[0], pc[1]
			for first < last && addressParticles[v.CoreLower(first)] && lowerWord(v.CoreText(first)) {
				first++
			}
			for last > first && addressParticles[v.CoreLower(last)] && lowerWord(v.CoreText(last)) {
				last--
			}
			out = append(out, cutTo(v, s, first, addressTail(v, gz, first, last)))
		}
	}
	return out
}

// addressTail returns the last word of the address in words [f, l]
// without the words after it that begin what the sentence says next: a
// conjunction or article in lower case and the title of the person it
// names ("42111 Wuppertal, und Frau", "15192 Cahors, et Dr.",
// "3754 PK Eemdijk, en mevrouw"). An address ends with a place, a
// number or a unit, never with these. At least one word stays.
func addressTail(v *view.View, gz *gazetteer.Gazetteers, f, l int) int {
	for l > f {
		t, w := v.CoreText(l), v.CoreLower(l)
		// "Dr" is also Drive: a title only before a capitalised name on
		// its line ("et Dr Adam Thomas", "und Dr. Finn Fischer").
		after := v.Text[v.CoreEnd(l):v.WordEnd(l)]
		title := gz.Lex[w]&gazetteer.Title != 0 && (gz.Lex[w]&(gazetteer.StreetSuffix|gazetteer.StreetPrefix|gazetteer.Unit) == 0 ||
			l+1 < v.Len() && v.LineOf(l+1) == v.LineOf(l) && view.IsCapitalised(v.CoreText(l+1)) && (after == "" || after == "."))
		if !(lowerWord(t) && (isConjunction(w) || addressParticles[w] && !addressUnitParticles[w]) || title) {
			break
		}
		l--
	}
	return l
}

// addressUnitParticles are the particles that may end an address: the
// letters after a house number and "without number".
var addressUnitParticles = setOf("bis", "ter", "quater", "s/n", "nº", "n°", "no", "n.", "n")

// namePiece reports whether words [p, e] hold a capitalised word inside
// its sentence, or one that is no ordinary word of the language (inLang)
// where a sentence begins: a firm or a place the model read as an
// address ("le Crédit Mobilier à 628", "l'Union des sociétés" in a
// newspaper). Masked, it is not read.
func namePiece(v *view.View, gz *gazetteer.Gazetteers, lf uint32, p, e int) bool {
	for i := p; i <= e; i++ {
		if t := v.CoreText(i); hasLetter(t) && view.IsCapitalised(t) && (!opensSentence(v, i) || !inLang(gz, lf, v.CoreLower(i))) {
			return true
		}
	}
	return false
}

// sentenceWord reports whether word i is a word of running text in the
// language whose flag is lf: written in lower case, in its lower-case
// list, and no word an address holds.
func sentenceWord(v *view.View, gz *gazetteer.Gazetteers, lf uint32, i int) bool {
	l := v.CoreLower(i)
	return lowerWord(v.CoreText(i)) && !addressParticles[l] && !unitWord(gz, l) &&
		gz.Lex[l]&addressWords == 0 && inLang(gz, lf, l)
}

// addressPiece reports whether words [p, e] hold a street word (a street
// type after the name as addresses write it, isSuffixType; one before the
// name, streetBefore; or one ending a word: "Hauptstraße") or a postcode
// before a capitalised word.
func addressPiece(v *view.View, gz *gazetteer.Gazetteers, p, e int) bool {
	for i := p; i <= e; i++ {
		l, t := v.CoreLower(i), v.CoreText(i)
		if isSuffixType(gz, typeWord(v, i, p, e+1), t) || streetCompound(gz, l) || gz.Lex[l]&gazetteer.POBox != 0 ||
			gz.Lex[l]&gazetteer.StreetPrefix != 0 && streetBefore(v, i, p, e) {
			return true
		}
		if i < e && view.IsCapitalised(v.CoreText(i+1)) && (postcode5.MatchString(t) || postcode4.MatchString(t) || ptPostcode.MatchString(t) || nlCompact.MatchString(t)) {
			return true
		}
		if i+1 < e && postcode4.MatchString(t) && nlLetters.MatchString(v.CoreText(i+1)) && view.IsCapitalised(v.CoreText(i+2)) {
			return true
		}
	}
	return false
}

// streetBefore reports whether word i, a street type written before the
// name ("rue", "via", "Am"), stands as in an address, within words [p,
// e]: capitalised, after a house number ("161 bis impasse"), or before a
// capitalised name ("rue de la Paix"). Written otherwise these are words
// of a sentence ("via e-mail", "am Montag" aside, "la place").
func streetBefore(v *view.View, i, p, e int) bool {
	if view.IsCapitalised(v.CoreText(i)) {
		return true
	}
	for k := max(p, i-2); k < i; k++ {
		if view.HasDigit(v.CoreText(k)) {
			return true
		}
	}
	for k := i + 1; k <= min(e, i+3); k++ {
		if t := v.CoreText(k); view.IsCapitalised(t) {
			return true
		} else if !addressParticles[v.CoreLower(k)] {
			return false
		}
	}
	return false
}

// streetCompound reports whether l ends with a street type written as
// the end of a word ("hauptstraße", "kerkstraat").
func streetCompound(gz *gazetteer.Gazetteers, l string) bool {
	for _, suf := range gz.StreetCompound {
		if len(l) > len(suf)+2 && strings.HasSuffix(l, suf) {
			return true
		}
	}
	return false
}

// addressParticles are the words in lower case that street and place
// names hold ("impasse de la République", "Via dei Mille", "Rua do
// Carmo", "Boulogne-sur-Mer", "Am Markt"), and the letters after a house
// number ("12 bis").
var addressParticles = setOf("de", "la", "le", "les", "du", "des", "d'", "l'", "del", "della", "delle", "dello",
	"dei", "degli", "di", "da", "do", "dos", "das", "van", "der", "den", "het", "von", "zu", "zum", "zur", "am", "an",
	"im", "in", "auf", "bei", "y", "e", "et", "und", "al", "alla", "alle", "a", "à", "au", "aux", "en", "sur", "sous",
	"bis", "ter", "quater", "s/n", "nº", "n°", "no", "n.", "n", "c/o", "t.a.v.", "z.h.", "aan", "op", "te", "ten",
	"sobre", "na", "nos", "nas", "el", "los", "las", "dal", "dalla", "sul", "sulla", "presso", "c/", "chez")
