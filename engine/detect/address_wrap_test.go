package detect

import (
	"slices"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// addressOnly runs the address recognizer alone (no growth, no merge) on
// p and describes its spans, so that a test sees what the recognizer
// itself finds across a line break rather than what growth adds.
func addressOnly(t *testing.T, p *page.Page) []string {
	t.Helper()
	d, ok := rec(t, "address")[0].(ViewDetector)
	if !ok {
		t.Fatal("the address recognizer is no ViewDetector")
	}
	return describe(p, d.DetectView(PageView(p)))
}

// TestAddressRecognizerAcrossWraps: in flowed text the address
// recognizer reads a line's tail and the next line's head as one line,
// so an address the wrap breaks is found whole; numbers ending a line and
// capitalised words starting the next are not made an address by that.
func TestAddressRecognizerAcrossWraps(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"prefix type cut from its name", "please send a new one to 22 Avda.\nAlameda Sundheim 46 Suite 385 today",
			[]string{"Address:22 Avda.\nAlameda Sundheim 46 Suite 385"}},
		{"name cut from its prefix type", "the office moved to 40 Via\nBernardino Rota last year",
			[]string{"Address:40 Via\nBernardino Rota"}},
		{"street type on the next line", "please write to 2914 184th\nStreet today", []string{"Address:2914 184th\nStreet"}},
		{"postcode split in two", "Our office: Delannoyplaats 211, 1234\nAB Amsterdam is open",
			[]string{"Address:Delannoyplaats 211, 1234\nAB Amsterdam"}},
		{"military postcode split", "send it to USNS Vestergaard FPO AA\n08331 please", []string{"Address:USNS Vestergaard FPO AA\n08331"}},
		{"unit number on the next line", "the suite is at Lozerlaan 172 Suite\n536 in Den Haag", []string{"Address:Lozerlaan 172 Suite\n536"}},
		{"count and total", "Qty 3\nTotal 12.50", nil},
		{"page and chapter", "see page 12\nChapter Two begins", nil},
		{"number and heading", "Invoice 2024\nPayment Terms", nil},
		{"label after a postcode", "Send it to 74 Tartu TA 56325\nBot: What's the name?", nil},
		{"label as street type", "It is at 12 Harlow\nRoad: closed", nil},
		{"code then a sentence", "the reference is 81365\nCAN I SPEAK TO A REAL PERSON", nil},
		{"code then a name", "the code is 02706\nMary said so", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := PageFromText(tc.text)
			if got := addressOnly(t, p); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAddressRecognizerStopsAtParagraphs: the same street broken over two
// lines is one address when the lines flow on, and none when a paragraph
// gap parts them.
func TestAddressRecognizerStopsAtParagraphs(t *testing.T) {
	word := func(text string, line int, top, x float64) page.Word {
		q := page.Quad{UL: page.Point{X: x, Y: top}, UR: page.Point{X: x + 40, Y: top},
			LL: page.Point{X: x, Y: top + 12}, LR: page.Point{X: x + 40, Y: top + 12}}
		return page.Word{Text: text, Line: line, Quad: q, Conf: 1}
	}
	for _, tc := range []struct {
		name   string
		second float64 // top of the second line; the first is at 0
		want   []string
	}{
		{"same paragraph", 15, []string{"Address:2914 184th\nStreet"}},
		{"paragraph break", 24, nil},
	} {
		var ws []page.Word
		for i, s := range strings.Fields("We moved to 2914 184th") {
			ws = append(ws, word(s, 0, 0, float64(50*i)))
		}
		for i, s := range strings.Fields("Street plans were late") {
			ws = append(ws, word(s, 1, tc.second, float64(50*i)))
		}
		if got := addressOnly(t, &page.Page{Words: ws}); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAddressForms covers address forms the recognizer knows on one
// line: military post offices after a ship, a bare number deep inside a
// street name (which belongs to another part), Polish, Hungarian, Dutch
// and Nordic street types, short ones in lower case too.
func TestAddressForms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"ship and FPO", "send it to USCGC Lussier FPO AE 05609 today", []string{"Address:USCGC Lussier FPO AE 05609"}},
		{"DPO after a box", "send it to Unit 3191 Box 3770 DPO AP 27173 today", []string{"Address:DPO AP 27173"}},
		{"APO in prose", "the APO sent 12 AE forms", nil},
		{"number inside a name", "Customer 74 Tartu TA 56325 Drive", nil},
		{"Polish prefix", "Write to Ul. Lubartowska 42 in Lublin", []string{"Address:Ul. Lubartowska 42"}},
		{"Nordic compounds", "We live at Laugarvegur 66 and Håndværkervej 35", []string{"Address:Laugarvegur 66", "Address:Håndværkervej 35"}},
		{"Polish prefix in lower case", "Romano and ul. Paderewskiego Ignacego 85 today", []string{"Address:ul. Paderewskiego Ignacego 85"}},
		{"Hungarian utca", "It is at Király utca 15 near the river", []string{"Address:Király utca 15"}},
		{"Hungarian tér", "Meet at Erzsébet tér 9 at noon", []string{"Address:Erzsébet tér 9"}},
		{"English short type in lower case", "the Olympic park 2012 was busy", nil},
		{"street corner", "Meet me at the corner of Ilichova 50 and Salcido Street tonight.", []string{"Address:the corner of Ilichova 50 and Salcido Street"}},
		{"street corner in lower case", "it's in the corner of frankfurter allee 73 and edmunds street", []string{"Address:the corner of frankfurter allee 73 and edmunds street"}},
		{"street corner with an abbreviation", "Meet me at the corner of Calle Proc. San Sebastián 1 and Lucchese Street.", []string{"Address:the corner of Calle Proc. San Sebastián 1 and Lucchese Street"}},
		{"corner without a street", "the corner of the room and the window", nil},
		{"corner of a sentence", "It is in the corner of Hall 4. Mr. Smith is there and Sales Street too.", nil},
		{"corner of a page", "see the corner of Page 4 and Figure 2 below", nil},
		{"Dutch plaats", "Our office: Delannoyplaats 211 is open", []string{"Address:Delannoyplaats 211"}},
		{"unit before the street", "Send it to Flat 4B, 221 MG Road today", []string{"Address:Flat 4B, 221 MG Road"}},
		{"unit, slash, street", "Unit 7 / 45 George Street Sydney", []string{"Address:Unit 7 / 45 George Street"}},
		{"unit word without a number", "the flat at 14 Hill Road", []string{"Address:14 Hill Road"}},
		{"unit ending a sentence", "It has one floor 2. 14 Hill Road is next", []string{"Address:14 Hill Road"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := PageFromText(tc.text)
			if got := addressOnly(t, p); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
