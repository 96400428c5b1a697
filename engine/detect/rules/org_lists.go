package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// Lists: organizations listed with an organization ("Flightstats,
// Transunion and Impaq International", "Merrill Lynch, Arrive Labs and
// Buildzoom") are organizations too when each is a short run of
// organization words that orgRun accepts: places, weekdays and ordinary
// phrases listed with a firm ("Acme Corp, London and Paris") are not.

// orgLists finds the organizations listed before and after the
// Organization spans; grow returns them.
type orgLists struct{}

func (orgLists) grow(rc ruleContext, ss []page.Span) []page.Span {
	v, gz := rc.v, rc.gz
	var out []page.Span
	for _, s := range ss {
		if s.Category != page.Organization {
			continue
		}
		for last := s.Last; ; {
			f, l, ok := listedAfter(v, gz, ss, last)
			if !ok {
				break
			}
			out = appendCore(out, v, f, l, page.Organization, 0.5, "org-list")
			last = l
		}
		for first := s.First; ; {
			f, l, ok := listedBefore(v, gz, ss, first)
			if !ok {
				break
			}
			out = appendCore(out, v, f, l, page.Organization, 0.5, "org-list")
			first = f
		}
	}
	return out
}

// listConjunction reports whether word i joins list items ("and", "or";
// "&" joins the words of one name instead).
func listConjunction(v *view.View, i int) bool {
	l := v.CoreLower(i)
	return l == "and" || l == "or"
}

// listedAfter finds the item listed after the word last: after its comma
// or an "and".
func listedAfter(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, last int) (int, int, bool) {
	k := last + 1
	if k >= v.Len() || v.LineOf(k) != v.LineOf(last) && !v.FlowsOn(v.LineOf(last)) {
		return 0, 0, false
	}
	switch tail := v.Text[v.CoreEnd(last):v.WordEnd(last)]; {
	case tail == "," && listConjunction(v, k):
		k++
	case tail == "," || tail == "" && listConjunction(v, k):
		if tail == "" {
			k++
		}
	default:
		return 0, 0, false
	}
	if k >= v.Len() || !orgWord(v, gz, k, k) {
		return 0, 0, false
	}
	l := k
	for l+1 < v.Len() && l+1-k < orgFieldMax && v.LineOf(l+1) == v.LineOf(k) && v.Text[v.CoreEnd(l):v.WordEnd(l)] == "" &&
		!listConjunction(v, l+1) && orgWord(v, gz, l+1, k) {
		l++
	}
	return k, l, itemEnds(v, l) && listItem(v, gz, ss, k, l)
}

// itemEnds reports whether a list item may end at word l: with
// punctuation, before a conjunction or at the end of its line, not
// before more words of its clause ("open data nation invested heavily
// in ..." lists nothing).
func itemEnds(v *view.View, l int) bool {
	return l+1 >= v.Len() || v.LineOf(l+1) != v.LineOf(l) || listConjunction(v, l+1) ||
		strings.ContainsAny(v.Text[v.CoreEnd(l):v.WordEnd(l)], ",;:.!?)")
}

// itemStarts reports whether a list item may start at word f: at the
// start of its line, after punctuation or after a stopword ("by Acme,
// ..."), not after more words of its clause.
func itemStarts(v *view.View, f int) bool {
	return f == 0 || v.LineOf(f-1) != v.LineOf(f) || stopwords[v.CoreLower(f-1)] ||
		strings.ContainsAny(v.Text[v.CoreEnd(f-1):v.WordEnd(f-1)], ",;:.!?(")
}

// listedBefore finds the item listed before the word first: before an
// "and" or ending with a comma. A sentence's capitalised first word does
// not join the item when it is an ordinary word.
func listedBefore(v *view.View, gz *gazetteer.Gazetteers, ss []page.Span, first int) (int, int, bool) {
	l := first - 1
	if l >= 0 && listConjunction(v, l) && v.Text[v.CoreEnd(l):v.WordEnd(l)] == "" {
		l--
	}
	if l < 0 || v.Text[v.CoreEnd(l):v.WordEnd(l)] != "," && !listConjunction(v, l+1) ||
		v.LineOf(l) != v.LineOf(first) && !v.FlowsOn(v.LineOf(l)) {
		return 0, 0, false
	}
	f := l
	for f-1 >= 0 && l-f+1 < orgFieldMax && v.LineOf(f-1) == v.LineOf(l) && v.Text[v.CoreEnd(f-1):v.WordEnd(f-1)] == "" &&
		!listConjunction(v, f-1) && orgWord(v, gz, f-1, f-1) && !(gz.Common.Has(v.CoreLower(f-1)) && startsSentence(v, gz, f-1)) {
		f--
	}
	if !orgWord(v, gz, f, f) {
		return 0, 0, false
	}
	for i := f + 1; i <= l; i++ {
		if !orgWord(v, gz, i, f) {
			return 0, 0, false
		}
	}
	return f, l, itemStarts(v, f) && listItem(v, gz, ss, f, l)
}
