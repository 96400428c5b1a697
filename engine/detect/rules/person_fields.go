package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// personFieldLabels are the words before the colon of a form field whose
// value is a person: "Patiënt:", "Huisarts:", "Medico curante:",
// "Contacto de emergencia:", "Emergency contact:".
var personFieldLabels = gazetteer.MustWords("labels", "person-field")

// personFields gives the category Person to a model Organization span
// that is the whole value of a person's field: right after such a label
// and its colon, up to a comma or the line's end, of two to five name
// words (honorifics, capitalised words, particles, initials) opening
// with a known first name, with no legal form and no word that heads an
// organization's name ("Cliente: Aurora Neri," and "Huisarts: Milan De
// Wit,", which the English model reads as companies). The words were
// masked already; the category is what a request for Person alone
// masks, and what the report counts.
type personFields struct{}

func (personFields) apply(rc ruleContext, ss []page.Span) []page.Span {
	for i := range ss {
		s := &ss[i]
		if s.Category == page.Organization && s.Recognizer == nerRecognizer && personValue(rc.v, rc.gz, s.First-rc.v.First, s.Last-rc.v.First) {
			s.Category = page.Person
		}
	}
	return ss
}

// personValue reports whether words f..l of v are the value of a
// person's field, as personFields says.
func personValue(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	if f < 1 || l >= v.Len() || l-f < 1 || l-f > 4 || v.LineOf(f) != v.LineOf(l) || v.LineOf(f-1) != v.LineOf(f) {
		return false
	}
	if !labelsField(v, f-1) || !personFieldLabels[v.CoreLower(f-1)] {
		return false
	}
	_, end := v.Line(v.LineOf(l))
	if l+1 < end && !strings.ContainsAny(v.Text[v.CoreEnd(l):v.WordEnd(l)], ",;") {
		return false
	}
	named := false
	for k := f; k <= l; k++ {
		t, w := v.CoreText(k), v.CoreLower(k)
		if k < l && strings.ContainsAny(v.Text[v.CoreEnd(k):v.WordEnd(k)], ",;:") {
			return false
		}
		if isLegalForm(gz, w, t) || orgHeads[w] {
			return false
		}
		switch {
		case !named && isTitleWord(gz, strings.TrimSuffix(w, ".")):
		case !named && nameShaped(t) && gz.Lex[w]&gazetteer.FirstName != 0:
			named = true
		case named && (nameShaped(t) || isInitial(t) || particles[w]):
		default:
			return false
		}
	}
	return named
}
