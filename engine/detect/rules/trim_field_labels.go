package rules

import (
	"github.com/redactd/redactd/engine/page"
)

// trimFieldLabels cuts from the edges of Person and Organization spans
// the words that label a field: a word of nameLabels ("Cc", "From", "To",
// "Name", "Attn") with a colon right after it ("Cc:" or "Cc :"). The model
// reads the header lines of a forwarded e-mail as one run of names
// ("Allen, Phillip K. Cc: Driscoll"), but the label names no one. A span
// left with no word is dropped.
type trimFieldLabels struct{}

func (trimFieldLabels) apply(rc ruleContext, ss []page.Span) []page.Span {
	v := rc.v
	out := ss[:0]
	for _, s := range ss {
		if s.Category == page.Person || s.Category == page.Organization {
			for s.First < s.Last && isFieldLabel(v, s.Last-v.First) {
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
