package rules

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// trimFieldLabels cuts from the edges of Person and Organization spans
// the words that label a field: a word of nameLabels ("Cc", "From", "To",
// "Name", "Attn") with a colon right after it ("Cc:" or "Cc :"). The model
// reads the header lines of a forwarded e-mail as one run of names
// ("Allen, Phillip K. Cc: Driscoll"), but the label names no one. A span
// left with no word is dropped.
func trimFieldLabels(v *view.View, ss []page.Span) []page.Span {
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

// isFieldLabel reports whether word i of v is a name label followed by a
// colon, in the word ("Cc:") or as the next word (":"). The colon is
// tested first: most words have none, and the test is a byte compare
// where the label is two map lookups.
func isFieldLabel(v *view.View, i int) bool {
	if i < 0 || i >= v.Len() || !labelsField(v, i) {
		return false
	}
	// A mail archive's header names its fields "X-From", "X-To", "X-cc".
	l := v.CoreLower(i)
	return nameLabels[l] || nameLabels[strings.TrimPrefix(l, "x-")]
}
