// Command gen writes the demo sample (sample.pdf, sample.json) from the
// invented data below.
package main

import (
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/redactd/redactd/engine/demo"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

type line struct {
	label, value string
	cat          page.Category
}

// All values are invented; the IBAN and card number are the standard
// published test numbers, and the SSN is the one printed on the sample
// cards sold with wallets in 1938, voided long ago.
var lines = []line{
	{"Patient name:", "Jonathan Whitaker", page.Person},
	{"Date of birth:", "14 March 1979", page.Date},
	{"E-mail:", "j.whitaker@example.com", page.Email},
	{"Phone:", "+1 415 555 0134", page.PhoneNumber},
	{"Address:", "742 Evergreen Terrace, Springfield, IL 62704", page.Address},
	{"Employer:", "Northwind Traders Inc.", page.Organization},
	{"IBAN:", "DE89 3704 0044 0532 0130 00", page.IBAN},
	{"Card on file:", "4111 1111 1111 1111", page.CreditCard},
	{"SSN:", "078-05-1120", page.NationalID},
}

func main() {
	out := flag.String("o", ".", "output directory")
	flag.Parse()
	doc := testpdf.New()
	p := doc.AddPage(612, 792, 0)
	var text []string
	add := func(x, y, size float64, s string) {
		p.Text(x, y, size, s)
		text = append(text, s)
	}
	add(72, 720, 18, "Riverside Clinic - Patient Intake Form")
	add(72, 696, 10, "Synthetic sample for the redactd demo. All data below is invented.")
	y := 650.0
	for _, l := range lines {
		p.Text(72, y, 12, l.label)
		p.Text(180, y, 12, l.value)
		text = append(text, l.label+" "+l.value)
		y -= 28
	}
	add(72, y-20, 11, "Reason for visit: annual check-up. Follow-up in six months.")

	var s demo.Sample
	s.Text = strings.Join(text, "\n")
	words := p.Words()
	for _, l := range lines {
		ex := demo.Example{Category: l.cat, Text: l.value}
		want := strings.Fields(l.value)
		// Find the value's words: the run of words equal to want.
		for i := 0; i+len(want) <= len(words); i++ {
			ok := true
			for k, w := range want {
				if words[i+k].Text != w {
					ok = false
					break
				}
			}
			if ok {
				for k := range want {
					ex.Boxes = append(ex.Boxes, words[i+k].Quad.Bounds())
				}
				break
			}
		}
		if len(ex.Boxes) == 0 {
			log.Fatalf("value %q not found among the page's words", l.value)
		}
		s.Examples = append(s.Examples, ex)
	}
	js, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "sample.pdf"), doc.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "sample.json"), append(js, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}
