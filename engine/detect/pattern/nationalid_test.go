package pattern

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/detect/view"
)

// TestNationalIDOrdinaryNumbers measures how often ordinary numbers,
// random but in the shapes invoices and letters print them, are taken for
// a NationalID. Without a label only the kinds with a real check and a
// structure can fire (a 10-, 11- or 15-digit number passes one of them
// about once in 150 to 350 tries, as computed from their rules); behind
// an invoice, order, customer or phone label, and in the shapes of
// amounts, dates and phone numbers, nothing may.
func TestNationalIDOrdinaryNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(46, 4))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		if b[0] == '0' {
			b[0] = '1'
		}
		return string(b)
	}
	const tries = 5000
	rate := func(gen func() string) float64 {
		hits := 0
		for range tries {
			p, _ := view.PageFromText(gen())
			if len(FindNationalIDs(view.PageView(p))) > 0 {
				hits++
			}
		}
		return float64(hits) / tries
	}
	var report []string
	for n := 6; n <= 16; n++ {
		bare := rate(func() string { return "Total " + digits(n) + " today" })
		report = append(report, fmt.Sprintf("%d digits %.2f%%", n, 100*bare))
		if bare > 0.01 {
			t.Errorf("bare %d-digit numbers: %.2f%% taken for a NationalID, want at most 1%%", n, 100*bare)
		}
		for _, label := range []string{"Invoice no.", "Order", "Kundennummer", "Tel.", "Rechnung Nr.", "Ref."} {
			if r := rate(func() string { return label + " " + digits(n) }); r > 0 {
				t.Errorf("%s %d digits: %.2f%% taken for a NationalID, want none", label, n, 100*r)
			}
		}
	}
	shapes := map[string]func() string{
		"amount": func() string {
			return fmt.Sprintf("Total %d %03d %03d,%02d EUR", rng.IntN(999)+1, rng.IntN(1000), rng.IntN(1000), rng.IntN(100))
		},
		"amount dots": func() string {
			return fmt.Sprintf("Summe %d.%03d.%03d,%02d", rng.IntN(999)+1, rng.IntN(1000), rng.IntN(1000), rng.IntN(100))
		},
		"date": func() string {
			return fmt.Sprintf("am %02d.%02d.%04d", rng.IntN(31)+1, rng.IntN(12)+1, 1900+rng.IntN(200))
		},
		"iso date": func() string {
			return fmt.Sprintf("on %04d-%02d-%02d", 1900+rng.IntN(200), rng.IntN(12)+1, rng.IntN(31)+1)
		},
		"phone de": func() string { return "Telefon 0" + digits(3) + " " + digits(7) },
		"phone fr": func() string {
			return fmt.Sprintf("0%d %s %s %s %s", rng.IntN(9)+1, digits(2), digits(2), digits(2), digits(2))
		},
		"phone intl": func() string { return "+" + digits(2) + " " + digits(2) + " " + digits(8) },
		"phone us":   func() string { return "(" + digits(3) + ") " + digits(3) + "-" + digits(4) },
		"phone nl":   func() string { return "06-" + digits(8) },
	}
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := rate(shapes[name])
		report = append(report, fmt.Sprintf("%s %.2f%%", name, 100*r))
		if r > 0 {
			t.Errorf("%s: %.2f%% taken for a NationalID, want none", name, 100*r)
		}
	}
	t.Logf("taken for a NationalID, of %d random numbers each: %s", tries, strings.Join(report, ", "))
}

// TestLabels finds every label of the lists as it is written, glued to
// a colon and in capitals, through the prefix index.
func TestLabels(t *testing.T) {
	for text, want := range map[string]string{
		"Steuer-ID:": "steuer-id", "Steueridentifikationsnummer": "steueridentifikationsnummer",
		"N° de sécurité sociale :": "n° de sécurité sociale", "numéro de sécurité sociale": "numéro de sécurité sociale",
		"DNI": "dni", "NIE": "nie", "codice fiscale": "codice fiscale", "BSN:": "bsn", "burgerservicenummer": "burgerservicenummer",
		"NIF": "nif", "número de contribuinte": "número de contribuinte", "SSN": "ssn", "Social Security Number:": "social security number",
		"National Insurance number": "national insurance number", "NINO": "nino", "AHV-Nr.": "ahv-nr.", "Sozialversicherungsnummer": "sozialversicherungsnummer",
		"numéro AVS": "numéro avs", "rijksregisternummer": "rijksregisternummer", "numéro de registre national": "numéro de registre national",
		"USt-IdNr.": "ust-idnr.", "VAT No.": "vat no.", "P.IVA": "p.iva", "Kundennummer": "kundennummer",
	} {
		n, _ := matchLabel(view.LowerSameLen(text))
		if got := view.LowerSameLen(text)[:n]; got != want {
			t.Errorf("label in %q: got %q, want %q", text, got, want)
		}
	}
}
