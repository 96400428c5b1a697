package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

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
			if s.First > s.Last {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}
