package detect

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// wordsOf is a detector that returns the words given, as one span of one
// category: the stand-in for whatever detector found an entity's core,
// so growth is tested apart from the model.
type wordsOf struct {
	cat   page.Category
	words string // exact text of consecutive words
}

func (f wordsOf) Name() string { return "wordsOf" }

func (f wordsOf) Detect(_ context.Context, p *page.Page) ([]page.Span, error) {
	want := strings.Fields(f.words)
	for i := 0; i+len(want) <= len(p.Words); i++ {
		ok := true
		for k, w := range want {
			ok = ok && p.Words[i+k].Text == w
		}
		if ok {
			return []page.Span{{First: i, Last: i + len(want) - 1, Category: f.cat, Score: 0.9}}, nil
		}
	}
	return nil, nil
}

func TestGrowth(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		core       wordsOf // zero: no core, growth from labels and blocks only
		want       []string
	}{
		{"honorific", "Please ask Dr. Jacob Smith today.", wordsOf{page.Person, "Jacob Smith"},
			[]string{"Person:Dr. Jacob Smith"}},
		{"two honorifics", "Signed Prof. Dr. Anna Weber", wordsOf{page.Person, "Anna Weber"},
			[]string{"Person:Prof. Dr. Anna Weber"}},
		{"no honorific across a comma", "the doctor, Smith", wordsOf{page.Person, "Smith"},
			[]string{"Person:Smith"}},
		{"listed names", "Founded by Kovalev, Ramirez and Phillips in 2001.", wordsOf{page.Person, "Kovalev,"},
			[]string{"Person:Kovalev, Ramirez and Phillips"}},
		{"list stops at ordinary words", "Smith and May went home.", wordsOf{page.Person, "Smith"},
			[]string{"Person:Smith"}},
		{"address lines under a street", "Jennifer Langset\n31 Vesturgata 66\nSuite 574\nReykjavík\nTurkmenistan 512\nDear Jennifer,",
			wordsOf{page.Address, "31 Vesturgata 66"},
			[]string{"Address:31 Vesturgata 66\nSuite 574\nReykjavík\nTurkmenistan 512"}},
		{"address lines under a street in a sentence", "Please write to 31 Vesturgata 66\nSuite 574\nReykjavík for the forms.",
			wordsOf{page.Address, "31 Vesturgata 66"},
			[]string{"Address:31 Vesturgata 66\nSuite 574\nReykjavík"}},
		{"quoted address lines", ">31 Vesturgata 66\n>Apt. 217\n>Alluitsup Paa\n>South Africa 3911", wordsOf{page.Address, ">31 Vesturgata 66"},
			[]string{"Address:>31 Vesturgata 66\n>Apt. 217\n>Alluitsup Paa\n>South Africa 3911"}},
		{"address stops at a phone line", "12 Main Street\nCincinnati\nPhone 555 0100", wordsOf{page.Address, "12 Main Street"},
			[]string{"Address:12 Main Street\nCincinnati"}},
		{"rest of the line", "It is at 1121 Maple Avenue Apt. 676 Hamilton ON for the mail.", wordsOf{page.Address, "1121 Maple Avenue"},
			[]string{"Address:1121 Maple Avenue Apt. 676 Hamilton ON"}},
		{"multi-word country", "Ship to 4 Via Roma 149 Antigua and Barbuda 48083 please", wordsOf{page.Address, "4 Via Roma 149"},
			[]string{"Address:4 Via Roma 149 Antigua and Barbuda 48083"}},
		{"sentence end", "Send it to 58 Hauptweg 3 Ebermannsdorf Belarus. Please call.", wordsOf{page.Address, "58 Hauptweg 3"},
			[]string{"Address:58 Hauptweg 3 Ebermannsdorf Belarus"}},
		{"crossing", "Meet me at the corner of Auenweg 85 and Kesä Street in case of rain.", wordsOf{page.Address, "Auenweg 85"},
			[]string{"Address:the corner of Auenweg 85 and Kesä Street"}},
		{"number before the street", "my address is 07 262 Pavlou Drandaki 15", wordsOf{page.Address, "Pavlou Drandaki 15"},
			[]string{"Address:07 262 Pavlou Drandaki 15"}},
		{"street with an abbreviation before a unit", "Her office: 38 124 N. Stadion Suite 056", wordsOf{page.Address, "Suite 056"},
			[]string{"Address:38 124 N. Stadion Suite 056"}},
		{"no growth over a sentence end", "We moved to Prague. Suite 056 is ours.", wordsOf{page.Address, "Suite 056"},
			[]string{"Address:Suite 056"}},
		{"labelled address", "Address: 85 Trg revolucije 12, Zagreb", wordsOf{},
			[]string{"Address:85 Trg revolucije 12, Zagreb"}},
		{"labelled postcode", "My zip code is 35649", wordsOf{}, []string{"Address:35649"}},
		{"label without an address", "Address Book Export\nThe Address Of The Day", wordsOf{}, nil},
		{"ship-to cue", "Ship to: 12 Harlow Road, Cincinnati\nQty 3", wordsOf{}, []string{"Address:12 Harlow Road, Cincinnati"}},
		{"cue before a mere number", "The letters were sent to 3 customers.", wordsOf{}, nil},
		{"country name wrapped", "Send it to 12 Main Street, Bosnia and\nHerzegovina 78990 for the post.", wordsOf{page.Address, "12 Main Street,"},
			[]string{"Address:12 Main Street, Bosnia and\nHerzegovina 78990"}},
		{"address block", "Anna Kowalczyk\n41 Qeqertaq 87\nApt. 033\nDozwil\nSwitzerland", wordsOf{},
			[]string{"Address:41 Qeqertaq 87\nApt. 033\nDozwil\nSwitzerland"}},
		{"capitalised German lines are not an address", "Rechnungsdatum Kundennr.\nUferweg 40-42\nD-63571 Gelnhausen\nVorstand: Christian Heit\nRegistergericht Hanau HRB 13302", wordsOf{page.Address, "Uferweg 40-42"},
			[]string{"Address:Uferweg 40-42\nD-63571 Gelnhausen"}},
		{"capitalised lines are not a block", "Annual Report\nChapter 2\nThe Board", wordsOf{}, nil},
		{"block needs a number", "Reykjavík\nIceland", wordsOf{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ds []Detector
			if tc.core.words != "" {
				ds = append(ds, tc.core)
			}
			got := spanTexts(t, tc.text, ds, Options{})
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q:\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestGrowthKeepsOrdinaryWords runs every recognizer on ordinary prose
// that holds words which are also names, places and street words: growth
// must not turn them into personal data.
func TestGrowthKeepsOrdinaryWords(t *testing.T) {
	for _, text := range []string{
		"Will you ask whether May is fine? Bill the customer for the Street party.",
		"The address of the meeting is not known yet.",
		"Please call us. Our office is on the third floor.",
		"Number 10 and Number 12 were the winners.",
		"The report, chapter 2 and the appendix are attached.",
	} {
		if got := spanTexts(t, text, allRecs(t), Options{}); len(got) != 0 {
			t.Errorf("%q: masked %q", text, got)
		}
	}
}
