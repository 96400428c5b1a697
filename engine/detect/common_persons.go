package detect

import (
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/page"
)

// dropCommonWordPersons drops the NER model's Person spans that stand
// alone and whose every word is an ordinary lower-case word no one is
// known to bear as a name: table headings and labels alone on a line
// ("Summary", "Charges") and stray words of running text, which the
// model, trained on forms where a name often stands alone, scores as
// names. Kept: names that are also words ("Will", "Rose", "Young",
// "Bill" are in the name lists); words that belong to addresses and
// firms ("St.", "Incorporated"); and spans that touch another detection
// near them on their line, where the model has cut a larger entity
// short ("Open" of "Open Data Nation", "Pas" of "William ten Pas").
func dropCommonWordPersons(p *page.Page, v *View, gz *gazetteer.Gazetteers, ss []page.Span) []page.Span {
	var drop []bool
	for i, s := range ss {
		if s.Category != page.Person || s.Recognizer != nerRecognizer || !allCommonNonNames(v, gz, s) || touchesOther(p, ss, i) {
			continue
		}
		if drop == nil {
			drop = make([]bool, len(ss))
		}
		drop[i] = true
	}
	if drop == nil {
		return ss
	}
	out := ss[:0]
	for i, s := range ss {
		if !drop[i] {
			out = append(out, s)
		}
	}
	return out
}

// nerRecognizer is the name models/ner's detector gives its spans.
const nerRecognizer = "ner"

// notPlainWord marks words that are common but carry meaning for the
// other categories, or may be names.
const notPlainWord = gazetteer.FirstName | gazetteer.Surname | gazetteer.Title | gazetteer.LegalForm |
	gazetteer.StreetSuffix | gazetteer.StreetPrefix | gazetteer.Unit | gazetteer.POBox | gazetteer.City | gazetteer.Country

func allCommonNonNames(v *View, gz *gazetteer.Gazetteers, s page.Span) bool {
	for w := s.First; w <= s.Last; w++ {
		l := v.coreLower(w - v.First)
		f := gz.Lex[l]
		if l == "" || f&gazetteer.Common == 0 || f&notPlainWord != 0 {
			return false
		}
	}
	return true
}

// touchesOther reports whether another span overlaps ss[i] or covers one
// of the two words before or after it on the same line (a particle may
// sit between the parts of a name: "William ten Pas").
func touchesOther(p *page.Page, ss []page.Span, i int) bool {
	const reach = 2
	s := ss[i]
	lo, hi := s.First, s.Last
	for k := 0; k < reach && lo > 0 && p.Words[lo-1].Line == p.Words[s.First].Line; k++ {
		lo--
	}
	for k := 0; k < reach && hi+1 < len(p.Words) && p.Words[hi+1].Line == p.Words[s.Last].Line; k++ {
		hi++
	}
	for j, t := range ss {
		if j != i && t.First <= hi && t.Last >= lo {
			return true
		}
	}
	return false
}
