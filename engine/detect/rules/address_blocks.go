package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// addressBlocks finds blocks of two or more consecutive short lines made
// only of address words (a letter's or a form's address block: "31
// Vesturgata 66" / "Suite 574" / "Reykjavík" / "Turkmenistan"), where one
// line holds a number and one a known place, unit or region.
type addressBlocks struct{}

func (addressBlocks) grow(rc ruleContext, _ []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	// Every line of a block holds evidence and a word that is not a
	// number, and no date: table cells of invoices ("7. Mai 2014",
	// "47774", "Seite 1") are short lines with numbers too.
	first, last, lines := -1, -1, 0
	flush := func() {
		if lines >= 2 && anchoredBlock(v, gz, first, last) {
			out = appendCore(out, v, first, addressAfter(v, gz, last), page.Address, 0.55, "address-block")
		}
		first, last, lines = -1, -1, 0
	}
	for k := 0; k < v.Lines(); k++ {
		f, e := v.Line(k)
		l, full, ev := addressLine(v, gz, f, e, false)
		if l < 0 || !full || !ev || !blockLine(v, gz, f, e) {
			flush()
			continue
		}
		if first < 0 {
			first = f
			for classify(v, gz, first) == awNeutral {
				first++
			}
		}
		last = l
		lines++
	}
	flush()
	return out
}

// blockLine reports whether line [f, e) may be part of an address block:
// it holds a word without digits and no month name or year.
func blockLine(v *view.View, gz *gazetteer.Gazetteers, f, e int) bool {
	word := false
	for k := f; k < e; k++ {
		t, l := bare(v, k)
		if pattern.MonthNumber(strings.TrimSuffix(l, ".")) > 0 || len(t) == 4 && pattern.AllDigits(t) && (t[:2] == "19" || t[:2] == "20") {
			return false
		}
		word = word || t != "" && !view.HasDigit(t)
	}
	return word
}

// anchoredBlock reports whether words [f, l] hold a number and a known
// place, unit, region or post-box word.
func anchoredBlock(v *view.View, gz *gazetteer.Gazetteers, f, l int) bool {
	var num, place bool
	for k := f; k <= l; k++ {
		t, w := bare(v, k)
		num = num || view.HasDigit(t)
		place = place || gz.Lex[w]&(gazetteer.City|gazetteer.Country|gazetteer.Unit|gazetteer.POBox) != 0 ||
			militaryWords[w] || regionCode(t) || placeAt(v, gz, k) >= 0
	}
	return num && place
}
