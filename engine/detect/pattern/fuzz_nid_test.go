package pattern

import (
	"testing"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// FuzzNationalIDs: any text gives spans that fit the page, and never a
// panic (the recognizer indexes runs, groups and labels by hand).
func FuzzNationalIDs(f *testing.F) {
	for _, s := range []string{
		"SSN: 123-45-6789", "Steuer-ID:\n12 345 678 995", "N° de sécurité sociale : 1 84 12 76 451 089 46",
		"Name SSN\nA 123-45-6789\nB 234-56-7890", "NIF: 501964843", "VAT DE123456789", "(SSN) 1-2-3-4-5-6-7-8-9-0",
		"AB 12 34 56 C NINO", "756.1234.5678.97.3", "é1234567890123456789",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, _ := view.PageFromText(s)
		for _, sp := range FindNationalIDs(view.PageView(p)) {
			if sp.Category != page.NationalID || sp.First < 0 || sp.Last >= len(p.Words) || sp.First > sp.Last {
				t.Fatalf("%q: bad span %+v", s, sp)
			}
		}
	})
}
