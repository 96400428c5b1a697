package pattern

import (
	"strings"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// spansAround finds every occurrence of sep in v's text (an '@', or what
// OCR reads for one), asks around for the range of text it belongs to,
// and returns the spans of those ranges, of category c with score and
// recognizer rec. The search goes on past each range found, or past the
// occurrence where around finds none.
func spansAround(v *view.View, sep string, around func(t string, at int) (s, e int, ok bool), c page.Category, score float32, rec string) []page.Span {
	var out []page.Span
	t := v.Text
	for off := 0; ; {
		i := strings.Index(t[off:], sep)
		if i < 0 {
			return out
		}
		at := off + i
		off = at + len(sep)
		s, e, ok := around(t, at)
		if !ok {
			continue
		}
		if sp, ok := v.Span(s, e, c, score, rec); ok {
			out = append(out, sp)
		}
		off = max(off, e)
	}
}
