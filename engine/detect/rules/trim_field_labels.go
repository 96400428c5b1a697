package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// langFieldLabel returns the last word of the field label that word i
// lies in, or -1: in a block of one of the six other languages than
// English, the words from the start of i's line to the first one
// followed by a colon, at most labelWords of them, each an ordinary word
// of the language (inLang, whatever its case: "Fecha de alta:",
// "Contacto de emergencia:", "N.º do Cartão de Cidadão:"), a word of
// the form labels (formLabels: "Anschrift:", "Notfallkontakt:"; German
// writes its nouns capitalised, and no lower-case list holds them) or a
// word of a person's ID label ("NASS:", "BSN:"; inIDLabel). The model
// reads such labels into the name or address after them. A name
// before a colon is no label: a headline's "Brenntag AG: ...", a
// novel's "Duroy répondit : ..." (a name is in no such list).
func langFieldLabel(v *view.View, gz *gazetteer.Gazetteers, i int) int {
	if i < 0 || i >= v.Len() {
		return -1
	}
	lf := langFlag(v, i)
	if lf == 0 {
		return -1
	}
	first, end := v.Line(v.LineOf(i))
	for k := first; k < end && k < first+labelWords; k++ {
		t, l := v.CoreText(k), v.CoreLower(k)
		if view.HasDigit(t) || !hasLetter(t) && !numberSigns[l] {
			return -1
		}
		if !inLang(gz, lf, l) && !numberSigns[l] && !formLabels[strings.TrimSuffix(l, ".")] && !inIDLabel(v, k) {
			return -1
		}
		if labelsField(v, k) {
			if k < i || k+1 >= end {
				return -1 // the span starts after the label; or nothing follows it
			}
			return k
		}
	}
	return -1
}

// labelWords is the most words langFieldLabel takes for a label.
const labelWords = 6

// formLabels are the words of gazetteer/words/labels.txt that label a
// form's fields: names, addresses, phone numbers, e-mail, accounts and
// people.
var formLabels = func() map[string]bool {
	m := map[string]bool{}
	for _, use := range []string{"name", "address", "phone", "not-phone", "email", "person-field"} {
		for w := range gazetteer.MustWords("labels", use) {
			m[w] = true
		}
	}
	return m
}()

// trimFieldLabels cuts from the edges of Person and Organization spans
// the words that label a field: a word of nameLabels ("Cc", "From", "To",
// "Name", "Attn") with a colon right after it ("Cc:" or "Cc :"). The model
// reads the header lines of a forwarded e-mail as one run of names
// ("Allen, Phillip K. Cc: Driscoll"), but the label names no one. A span
// left with no word is dropped. Any label that opens the next line
// leaves a span's end too: the model runs a header's name on into the
// label under it ("Dubois, Camille" / "Envoyé :", "Lefèvre, Hugo" /
// "Objet :").
type trimFieldLabels struct{}

// opensField reports whether word i is the first word of its line and
// labels a field (a colon after it, or after a short word after it), and
// a word of the line before precedes it. A name is no label here: a
// transcript's "Mary:" opens a line with its speaker.
func opensField(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	if i <= 0 || i >= v.Len() || v.LineOf(i-1) == v.LineOf(i) || view.HasDigit(v.CoreText(i)) ||
		gz.Lex[v.CoreLower(i)]&(gazetteer.FirstName|gazetteer.Surname) != 0 {
		return false
	}
	// "Enviado el:": a label of two words, the second short and in lower
	// case.
	if j := i + 1; !labelsField(v, i) && (j >= v.Len() || v.LineOf(j) != v.LineOf(i) || !labelsField(v, j) ||
		len(v.CoreText(j)) > 3 || strings.ToLower(v.CoreText(j)) != v.CoreText(j)) {
		return false
	}
	return true
}

func (trimFieldLabels) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0]
	for _, s := range ss {
		if s.Category == page.Person || s.Category == page.Organization {
			for s.First < s.Last && (isFieldLabel(v, s.Last-v.First) || opensField(v, rc.gz, s.Last-v.First)) {
				s.Last, s.End = s.Last-1, 0
			}
			for s.First <= s.Last && isFieldLabel(v, s.First-v.First) {
				s.First, s.Start = s.First+1, 0
			}
		}
		if s.Category == page.Person || s.Category == page.Organization || s.Category == page.Address {
			if c := langFieldLabel(v, rc.gz, s.First-v.First); c >= 0 {
				s.First, s.Start = c+1+v.First, 0
			}
		}
		if s.First > s.Last {
			continue
		}
		out = append(out, s)
	}
	return out
}
