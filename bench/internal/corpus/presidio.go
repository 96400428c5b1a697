package corpus

import (
	"fmt"

	"github.com/redactd/redactd/engine/detect/eval"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Categories maps presidio-research entity types to redactd's categories,
// as the detection evaluation does (eval.PresidioCategories). Types not
// listed are kept as ignored words: the service is not asked to find them,
// and masking them is not held against it.
var Categories = eval.PresidioCategories

// Record is one labelled text of presidio-research.
type Record = eval.Record

// Span is a labelled entity: bytes [Start, End) of the record's text.
type Span = eval.Gold

// LoadPresidio reads presidio-research's generated JSON with the
// evaluation's loader, leaving out records Helvetica cannot show through
// WinAnsi, since the text corpus draws them with the PDF standard font.
func LoadPresidio(path string) ([]Record, error) {
	all, err := eval.LoadPresidio(path)
	if err != nil {
		return nil, fmt.Errorf("presidio: %w", err)
	}
	var out []Record
	for _, r := range all {
		if drawable(r.Text) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("presidio: %s: no usable records", path)
	}
	return out, nil
}

// drawable reports whether every rune of s is whitespace or has a
// WinAnsi code.
func drawable(s string) bool {
	for _, r := range s {
		if r == '\n' || r == '\t' || r == '\r' {
			continue
		}
		if _, ok := testpdf.WinAnsi(r); !ok {
			return false
		}
	}
	return true
}
