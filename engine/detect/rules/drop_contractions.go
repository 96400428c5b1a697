package rules

import (
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// startsAtContractionTail reports whether span s starts right after an
// apostrophe inside its first word and that word ends in a contraction's
// tail there.
func startsAtContractionTail(v *view.View, s page.Span) bool {
	f := s.First - v.First
	if f < 0 || f >= v.Len() {
		return false
	}
	r := []rune(v.WordText(f))
	if s.Start >= len(r) || r[s.Start-1] != '\'' && r[s.Start-1] != '’' {
		return false
	}
	tail := strings.TrimRight(string(r[s.Start:]), ".,;:!?\"'”’)")
	return contractionTails[strings.ToLower(tail)]
}

// contractions are the endings of negated verbs after an apostrophe:
// "Don't", "Won't", "Can't". Other endings follow names too: "Sarah'll",
// "John'd", "Cynthia's" hold a name.
var contractions = []string{"'t", "’t", "n't", "n’t"}

// contractionTails are what follows the apostrophe of a contraction.
var contractionTails = gazetteer.MustWords("context", "contraction-tail")

// dropContractions drops Person spans that end inside a word right before
// a contraction's ending: the model reads "Don" in "Don't", but a
// contraction is no name. It also drops Person spans that start at the
// tail of a contraction ("t worry" of "Don't worry"), never at the rest
// of a name after an apostrophe ("Brien" of "O'Brien"), and a Person span
// of one whole contracted word ("Don't", "Won’t").
type dropContractions struct{}

func (dropContractions) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0]
	for _, s := range ss {
		if s.Category == page.Person && s.Start > 0 && startsAtContractionTail(v, s) {
			continue
		}
		if s.Category == page.Person && s.First == s.Last && s.Start == 0 && s.End == 0 && isContracted(v, s.First-v.First) {
			continue
		}
		if s.Category == page.Person && s.First == s.Last && s.End != 0 {
			if _, e, ok := v.ByteRange(s); ok {
				_, we := v.WordRange(s.Last - v.First)
				rest := strings.TrimRight(v.Text[e:we], ".,;:!?\"'”’)")
				if slices.Contains(contractions, strings.ToLower(rest)) {
					continue
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// isContracted reports whether word i of v ends in a negated verb's
// contraction ("Don't", "won’t", "Can't."): no name does.
func isContracted(v *view.View, i int) bool {
	if i < 0 || i >= v.Len() {
		return false
	}
	w := strings.ToLower(strings.TrimRight(v.WordText(i), ".,;:!?\"'”’)"))
	for _, c := range contractions {
		if head, ok := strings.CutSuffix(w, c); ok && head != "" {
			return true
		}
	}
	return false
}
