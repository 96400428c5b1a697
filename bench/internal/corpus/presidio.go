package corpus

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/testpdf"
)

// Categories maps presidio-research entity types to redactd's categories.
// Types not listed (LOCATION, US_SSN, US_DRIVER_LICENSE, DOMAIN_NAME,
// IP_ADDRESS, TITLE, PREFIX, ...) are kept as ignored words: the service
// is not asked to find them, and masking them is not held against it.
var Categories = map[string]page.Category{
	"PERSON":         page.Person,
	"EMAIL_ADDRESS":  page.Email,
	"PHONE_NUMBER":   page.PhoneNumber,
	"ADDRESS":        page.Address,
	"STREET_ADDRESS": page.Address,
	"ORGANIZATION":   page.Organization,
	"DATE_TIME":      page.Date,
	"IBAN_CODE":      page.IBAN,
	"CREDIT_CARD":    page.CreditCard,
}

// Record is one labelled text of presidio-research.
type Record struct {
	Text  string
	Spans []Span
}

// Span is a labelled entity: bytes [Start, End) of the record's text.
type Span struct {
	Start, End int
	Type       string
}

// LoadPresidio reads presidio-research's generated JSON (a list of
// records with full_text and spans positioned in code points). Records
// Helvetica cannot show through WinAnsi are left out, since the text
// corpus draws them with the PDF standard font.
func LoadPresidio(path string) ([]Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("presidio: %w", err)
	}
	var raw []struct {
		FullText string `json:"full_text"`
		Spans    []struct {
			Type  string `json:"entity_type"`
			Start int    `json:"start_position"`
			End   int    `json:"end_position"`
		} `json:"spans"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("presidio: %s: %w", path, err)
	}
	var out []Record
	for _, r := range raw {
		if !drawable(r.FullText) {
			continue
		}
		byteAt := runeOffsets(r.FullText)
		rec := Record{Text: r.FullText}
		ok := true
		for _, s := range r.Spans {
			if s.Start < 0 || s.End > len(byteAt)-1 || s.Start >= s.End {
				ok = false
				break
			}
			rec.Spans = append(rec.Spans, Span{Start: byteAt[s.Start], End: byteAt[s.End], Type: s.Type})
		}
		if ok {
			out = append(out, rec)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("presidio: %s: no usable records", path)
	}
	return out, nil
}

// runeOffsets returns the byte offset of every code point of s, plus
// len(s) at the end.
func runeOffsets(s string) []int {
	out := make([]int, 0, len(s)+1)
	for i := range s {
		out = append(out, i)
	}
	return append(out, len(s))
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
