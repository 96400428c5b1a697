package detect

import (
	"context"
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestAddressWraps: an address in flowed text that runs to the end of a
// line goes on over the next line's address words, and one that starts a
// line takes the number and name ending the line before; ordinary words
// after or before the wrap stay unmasked.
func TestAddressWraps(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		core       wordsOf
		want       []string
	}{
		{"runs onto the next line", "Hello I moved, please update my new address is 05 Machelsesteenweg 197 Apt. 094 Montzen\nLiège", wordsOf{},
			[]string{"Address:05 Machelsesteenweg 197 Apt. 094 Montzen\nLiège"}},
		{"starts on the line before", "can you please send a new one to 53 Pierre\nDelannoyplaats 211 Dohma today",
			wordsOf{page.Address, "Delannoyplaats 211"}, []string{"Address:53 Pierre\nDelannoyplaats 211"}},
		{"stops at ordinary words", "We moved to 12 Harlow Road\nThe meeting starts at 10 sharp.", wordsOf{page.Address, "12 Harlow Road"},
			[]string{"Address:12 Harlow Road"}},
		{"stops at an abbreviation and count", "Ship it to 12 Harlow Road\nQty 3 boxes", wordsOf{page.Address, "12 Harlow Road"},
			[]string{"Address:12 Harlow Road"}},
		{"stops at a label", "It is at 12 Harlow Road\nBot: What is the name?", wordsOf{page.Address, "12 Harlow Road"},
			[]string{"Address:12 Harlow Road"}},
		{"stops after a sentence", "Please write to 12 Harlow Road.\nMonday 14 is fine.", wordsOf{page.Address, "12 Harlow Road."},
			[]string{"Address:12 Harlow Road."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := allRecs(t)
			if tc.core.words != "" {
				ds = append(ds, tc.core)
			}
			got := spanTexts(t, tc.text, ds, Options{Categories: []page.Category{page.Address}})
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFlowsOn: lines at the usual leading flow on; a paragraph gap, or
// the last line, does not; words without geometry always flow on.
func TestFlowsOn(t *testing.T) {
	word := func(text string, line int, top float64) page.Word {
		q := page.Quad{UL: page.Point{X: 0, Y: top}, UR: page.Point{X: 40, Y: top},
			LL: page.Point{X: 0, Y: top + 12}, LR: page.Point{X: 40, Y: top + 12}}
		return page.Word{Text: text, Line: line, Quad: q, Conf: 1}
	}
	for _, tc := range []struct {
		name   string
		second float64 // top of the second line; the first is at 0
		want   bool
	}{
		{"same paragraph", 15, true},
		{"paragraph break", 24, false},
	} {
		p := &page.Page{Words: []page.Word{word("Mr.", 0, 0), word("Allen", 0, 0), word("Tazuka?", 1, tc.second)}}
		v := PageView(p)
		if got := v.flowsOn(0); got != tc.want {
			t.Errorf("%s: flowsOn = %v, want %v", tc.name, got, tc.want)
		}
		if v.flowsOn(1) {
			t.Errorf("%s: the last line flows on", tc.name)
		}
		spans, err := Run(context.Background(), p, allRecs(t), Options{Categories: []page.Category{page.Person}})
		if err != nil {
			t.Fatal(err)
		}
		got := describe(p, spans)
		want := []string{"Person:Mr. Allen"}
		if tc.want {
			want = []string{"Person:Mr. Allen\nTazuka"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, want)
		}
	}
	p, _ := PageFromText("one\ntwo")
	if !PageView(p).flowsOn(0) {
		t.Error("plain text lines do not flow on")
	}
}
