package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Place names. A place name standing alone, outside a postal address, is
// not personal data: "lives in London" and "lives in New York" are both
// left, and the town or country is masked only as part of an address
// (docs/behaviour.md, "Place names"). The name lists know many towns as first names
// or surnames too ("London", "Florence", "Paris"), and the model sometimes
// calls a town after "in" a person; dropPlaceNames applies the one rule
// to whatever found them.

// locatives are the words after which a town or country is a place.
// "to" and "at" are not among them: they take people as often ("forward
// to Brant", "turned to Clayton", "smiled at Florence"; dev splits).
var locatives = gazetteer.MustWords("context", "locative")

// dropPlaceNames drops Person spans whose words are exactly a town or
// country the gazetteers know, written right after a locative on the same
// line ("lives in London", "sailed from Dover").
type dropPlaceNames struct{}

func (dropPlaceNames) apply(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	out := make([]page.Span, 0, len(ss))
	for _, s := range ss {
		switch {
		case s.Category == page.Person && isLonePlace(v, gz, s):
			continue
		case s.Category == page.Person || s.Category == page.Address || s.Category == page.Organization:
			for _, part := range withoutDateline(v, gz, s, ss) {
				out = append(out, withoutSignaturePlace(v, gz, part)...)
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// withoutDateline returns span s without the letter's place line it
// holds (datelinePlace): nothing when s is the place, the part above it
// when the model ran an address on into it, the parts above and below
// when it ran on through it to the addressee ("Lindenweg 89b 66802
// Überherrn / Gonbach, den 1.3.2016 / Frau Dr. Emilia Fischer ...").
func withoutDateline(v *view.View, gz *gazetteer.Gazetteers, s page.Span, ss []page.Span) []page.Span {
	f, l := s.First-v.First, s.Last-v.First
	if f < 0 || l >= v.Len() || s.Start != 0 {
		return []page.Span{s}
	}
	for k := v.LineOf(f); k <= v.LineOf(l); k++ {
		first, end := v.Line(k)
		if first < f {
			continue // the span begins inside this line
		}
		place := -1 // the place's last word: the first before a comma
		for i := first; i < min(end, first+maxPlaceWords); i++ {
			if strings.HasPrefix(v.Text[v.CoreEnd(i):v.WordEnd(i)], ",") {
				place = i
				break
			}
		}
		if place < 0 || place > l || !datelinePlace(v, gz, first, place, ss) {
			continue
		}
		return cutOut(v, s, first, end-1)
	}
	return []page.Span{s}
}

// cutOut returns span s without its words [a, b] (view indices, a at or
// after the span's first word): the part before them and the part after,
// each where it holds a word.
func cutOut(v *view.View, s page.Span, a, b int) []page.Span {
	f, l := s.First-v.First, s.Last-v.First
	var parts []page.Span
	if a > f {
		parts = append(parts, cutTo(v, s, f, a-1))
	}
	if b < l {
		parts = append(parts, cutTo(v, s, b+1, l))
	}
	return parts
}

// lineFirst returns the first word of line k.
func lineFirst(v *view.View, k int) int { first, _ := v.Line(k); return first }

// datelinePlace reports whether words [f, l] open their line, are a
// known town and stand before a comma and a date, at most one word
// between ("Vilar de Andorinho, 02/04/2020", "Heemsen, den 4.4.2018", "Le
// Mans, le 2 janvier 2018"): where a letter was written, no one's
// address. The model runs the address block above on into that line.
// So is a wire story's place before the agency it credits ("Roma, 12 mar
// (ANSA)"), a town of the city or postcode lists even where its name is
// a person's too: creditedDateline.
func datelinePlace(v *view.View, gz *gazetteer.Gazetteers, f, l int, ss []page.Span) bool {
	if l >= v.Len()-1 || l-f >= maxPlaceWords || f != lineFirst(v, v.LineOf(l)) ||
		!strings.HasPrefix(v.Text[v.CoreEnd(l):v.WordEnd(l)], ",") {
		return false
	}
	if name := placeName(v, f, l); (gz.Cities.Has(name) || gz.Places.Has(name)) && creditedDateline(v, l+1) {
		return true
	}
	town := knownPlace(v, gz, f, l)
	for _, d := range ss {
		if d.Category != page.Date {
			continue
		}
		df := d.First - v.First
		if df <= l || df > l+2 || v.LineOf(df) != v.LineOf(l) {
			continue
		}
		if town || df == l+2 && datelineParticles[v.CoreLower(l+1)] && unknownPlace(v, gz, f, l) {
			return true
		}
	}
	return false
}

// knownPlace reports whether words [f, l] are a town of the city list,
// or a place of the postcode lists (gazetteer.Places: villages too) no
// word of which is a name ("Lequile", not "Bianco").
func knownPlace(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	name := placeName(v, f, l)
	return gz.Cities.Has(name) || gz.Places.Has(name) && unknownPlace(v, gz, f, l)
}

// withoutSignaturePlace returns span s without the place of a signature
// line it holds (signaturePlace): "Fait à Béthune, Arthur Vincent" keeps
// "Arthur Vincent", "Palo, firmato Francesco Bianco" keeps "Francesco
// Bianco" (the word that says it is signed goes with the place).
func withoutSignaturePlace(v *view.View, gz *gazetteer.Gazetteers, s page.Span) []page.Span {
	f, l := s.First-v.First, s.Last-v.First
	if f < 0 || l >= v.Len() {
		return []page.Span{s}
	}
	for k := v.LineOf(f); k <= v.LineOf(l); k++ {
		first, end := v.Line(k)
		if first < f {
			continue // the span begins inside this line
		}
		cut := signaturePlace(v, gz, first, end)
		if cut < 0 {
			continue
		}
		return cutOut(v, s, first, cut)
	}
	return []page.Span{s}
}

// signaturePlace returns the last word of the place a signature line in
// [first, end) opens with, and of the word after it that says the text
// is signed, or -1: French "Fait à Béthune, ..." (the formula names the
// place: any capitalised words no list holds as names, or a known
// place), and "Palo, firmato ...", "Lyon, signé ..." (a place before a
// comma and a word of signing: a known place, or capitalised words no
// list holds as names). Like a dateline's, the place is where the
// document was signed, no one's address.
func signaturePlace(v *view.View, gz *gazetteer.Gazetteers, first, end int) int {
	f := first
	if end-first > 2 && v.CoreLower(first) == "fait" && (v.CoreLower(first+1) == "à" || v.CoreLower(first+1) == "a") {
		f = first + 2
	}
	for l := f; l < min(end, f+maxPlaceWords); l++ {
		if !strings.HasPrefix(v.Text[v.CoreEnd(l):v.WordEnd(l)], ",") {
			continue
		}
		if !knownPlace(v, gz, f, l) && !unknownPlace(v, gz, f, l) {
			return -1
		}
		switch {
		case f > first:
			return l
		case l+1 < end && signingWords[v.CoreLower(l+1)]:
			return l + 1
		}
		return -1
	}
	return -1
}

// signingWords say that a document is signed, after the place it was
// signed in ("Palo, firmato Francesco Bianco").
var signingWords = setOf("firmato", "firmata", "signé", "signée", "firmado", "firmada", "assinado", "assinada",
	"gezeichnet", "gez", "unterzeichnet", "getekend", "signed")

// datelineParticles stand between a letter's place and its date ("Ort,
// den 4.4.2018", "Lieu, le 2 janvier", "Lugar, a 12 de marzo"): with one,
// a place no list knows is taken for one too (the lists hold towns of
// 15 000 people and more).
var datelineParticles = setOf("den", "le", "el", "il", "lì", "li", "a", "em", "op", "am")

// unknownPlace reports whether words [f, l] are capitalised and none is
// in a list of names or titles: a small place ("Heemsen"), not someone
// ("Müller, den 4.4." is no dateline).
func unknownPlace(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	const names = gazetteer.FirstName | gazetteer.Surname | gazetteer.Title
	for i := f; i <= l; i++ {
		w := v.CoreLower(i)
		if !view.IsCapitalised(v.CoreText(i)) || gz.Lex[w]&names != 0 || gz.Lex[gazetteer.FoldAccents(w)]&names != 0 {
			return false // "Müller": the lists write "muller"
		}
	}
	return true
}

// isLonePlace reports whether span s (whole words) is a known town or
// country after a locative.
func isLonePlace(v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	f, l := s.First-v.First, s.Last-v.First
	if f <= 0 || l >= v.Len() || l-f >= maxPlaceWords || s.Start != 0 || v.LineOf(f-1) != v.LineOf(f) {
		return false
	}
	if !locatives[v.CoreLower(f-1)] {
		return false
	}
	name := placeName(v, f, l)
	return gz.Cities.Has(name) || gz.Countries.Has(name)
}

// placeName returns words [f, l] as the town and country lists write
// them: lower case, one space between.
func placeName(v *view.View, f, l int) string {
	words := make([]string, 0, l-f+1)
	for i := f; i <= l; i++ {
		words = append(words, v.CoreLower(i))
	}
	return strings.Join(words, " ")
}
