package detect

import (
	"context"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

func TestAmountRows(t *testing.T) {
	for _, c := range []struct {
		name, text, addr string // addr: the NER Address span's words
		kept             bool
	}{
		{"invoice row", "Wifi 16 GB Zilver 1 € 399,00 21% € 399,00", "Wifi 16 GB Zilver 1 € 399,00 21% € 399,00", false},
		{"product row", "6 1 Small Business QualityExchange 2010 5,39 5,39", "6 1 Small Business QualityExchange 2010 5,39 5,39", false},
		{"street next to a price", "Delivery to 12 Main Street $5.00", "12 Main Street $5.00", true},
		{"US postcode next to a price", "Seattle WA 98109 $4.11", "Seattle WA 98109 $4.11", true},
		{"Dutch postcode next to a price", "Weena 664 3012 CN Rotterdam € 4,00", "Weena 664 3012 CN Rotterdam € 4,00", true},
		{"no amount", "Wifi 16 GB Zilver 1", "Wifi 16 GB Zilver 1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _ := PageFromText(c.text)
			first, last := findWords(t, p, c.addr)
			ds := []Detector{fixed{name: "marks", spans: []page.Span{span(first, last, page.Address, 0.8, nerRecognizer)}}}
			got, err := Run(context.Background(), p, ds, Options{})
			if err != nil {
				t.Fatal(err)
			}
			kept := false
			for _, s := range got {
				kept = kept || s.Category == page.Address && s.First <= first && s.Last >= last
			}
			if kept != c.kept {
				t.Errorf("address %q kept %v, want %v (spans %q)", c.addr, kept, c.kept, describe(p, got))
			}
		})
	}
}
