package rules

import (
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// dropAmountRows drops the NER model's Address spans that hold a money
// amount and nothing only an address holds. On invoices the model reads
// table rows ("Wifi 16 GB Zilver 1 € 399,00 21% € 399,00") as addresses
// for their mix of numbers and capitalised words; a real address next to
// a price still has a street, unit, post-box, place or country word, a
// US state code or a postcode (see addressAnchor) and stays.
type dropAmountRows struct{}

func (dropAmountRows) apply(rc ruleContext, ss []page.Span) []page.Span {
	p, v, gz := rc.p, rc.v, rc.gz
	out := ss[:0]
	for _, s := range ss {
		if s.Category == page.Address && s.Recognizer == nerRecognizer && amountRow(p, v, gz, s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

func amountRow(p *page.Page, v *view.View, gz *gazetteer.Gazetteers, s page.Span) bool {
	amount := false
	for w := s.First; w <= s.Last; w++ {
		if addressAnchor(v, gz, w-v.First) {
			return false
		}
		amount = amount || pattern.IsAmount(p.Words[w].Text)
	}
	return amount
}

// addressAnchor reports whether word i is something only addresses hold:
// a word evidence knows (street, unit, post-box, place, country, state
// code) that is not a number, a five-digit postcode ("D-63571",
// "98109-5210"), or a Dutch one ("3012 CN").
func addressAnchor(v *view.View, gz *gazetteer.Gazetteers, i int) bool {
	t, _ := bare(v, i)
	switch {
	case !view.HasDigit(t):
		return evidence(v, gz, i)
	case postcode5.MatchString(t), zipUS.MatchString(t), nlCompact.MatchString(t), ukCompact.MatchString(t), caCompact.MatchString(t):
		return true
	}
	return i+1 < v.Len() && v.LineOf(i+1) == v.LineOf(i) && pattern.AllDigits(t) && len(t) == 4 && nlLetters.MatchString(v.CoreText(i+1))
}
