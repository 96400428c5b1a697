package detect

import (
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

func TestAffiliations(t *testing.T) {
	person := func(w string) wordsOf { return wordsOf{page.Person, w} }
	for _, tc := range []struct {
		name, text string
		ds         []Detector
		want       []string
	}{
		// In text without geometry every line flows on, so the wrap rule
		// also takes the field's first word into the name: the mask is the
		// same.
		{"contact block", "Andrea Johansen\nFactset Research\n08 Charilaou Trikoupi", []Detector{person("Andrea Johansen"), wordsOf{page.Address, "08 Charilaou Trikoupi"}},
			[]string{"Person:Andrea Johansen\nFactset", "Organization:Factset Research", "Address:08 Charilaou Trikoupi"}},
		{"fields between separators", "??? Andrea Johansen ??? Factset ??? 08 Charilaou Trikoupi ???", []Detector{person("Andrea Johansen"), wordsOf{page.Address, "08 Charilaou Trikoupi"}},
			[]string{"Person:Andrea Johansen", "Organization:Factset", "Address:08 Charilaou Trikoupi"}},
		{"address starting before the recognized street", "??? Jessica Kudou\n??? Onstar\n??? 71 110 Rue du Koweit", []Detector{person("Jessica Kudou"), wordsOf{page.Address, "110 Rue du Koweit"}},
			[]string{"Person:Jessica Kudou", "Organization:Onstar", "Address:71 110 Rue du Koweit"}},
		{"address number left out, one line", "??? Jessica Kudou ??? Onstar ??? 71 110 Rue du Koweit", []Detector{person("Jessica Kudou"), wordsOf{page.Address, "110 Rue du Koweit"}},
			[]string{"Person:Jessica Kudou", "Organization:Onstar", "Address:71 110 Rue du Koweit"}},
		{"a name with digits", "robinette is from 6sigma", []Detector{person("robinette")},
			[]string{"Person:robinette", "Organization:6sigma"}},
		{"venue with its address", "We'll meet Saturday at Weeks-Rivas, 77 Obere Bahnhofstrasse 9", []Detector{wordsOf{page.Address, "Obere Bahnhofstrasse 9"}},
			[]string{"Organization:Weeks-Rivas", "Address:77 Obere Bahnhofstrasse 9"}},
		{"letterhead", "Intelius\nUnit 4818 Box 0262", []Detector{wordsOf{page.Address, "Unit 4818 Box 0262"}},
			[]string{"Organization:Intelius", "Address:Unit 4818 Box 0262"}},
		{"letterhead after a sentence", "We wrote back.\nClearhealthcosts 66 Dalmatinova 112", []Detector{wordsOf{page.Address, "66 Dalmatinova 112"}},
			[]string{"Organization:Clearhealthcosts", "Address:66 Dalmatinova 112"}},
		{"field of ordinary words ending in a firm noun", "??? warren khadzhiyev ??? state farm insurance ??? 46 via raffaele conforti 74", []Detector{person("warren khadzhiyev"), wordsOf{page.Address, "46 via raffaele conforti 74"}},
			[]string{"Person:warren khadzhiyev", "Organization:state farm insurance", "Address:46 via raffaele conforti 74"}},
		{"signature with a phone number", "??? Margaret Suknovic ??? Crowdanalytix ??? +1 555 010 9999", []Detector{person("Margaret Suknovic"), wordsOf{page.PhoneNumber, "+1 555 010 9999"}},
			[]string{"Person:Margaret Suknovic", "Organization:Crowdanalytix", "PhoneNumber:+1 555 010 9999"}},
		{"quoted contact block", ">Haley Fukunaga\n>Muckrockcom\n>Christopher Roseby", []Detector{person(">Haley Fukunaga"), person(">Christopher Roseby")},
			[]string{"Person:>Haley Fukunaga", "Organization:Muckrockcom", "Person:>Christopher Roseby"}},
		{"is from", "Kelvin is from Innography", []Detector{person("Kelvin")},
			[]string{"Person:Kelvin", "Organization:Innography"}},
		{"works at, to the clause's end", "Roksana works at Solarlist Analytics, as an assistant.", []Detector{person("Roksana")},
			[]string{"Person:Roksana", "Organization:Solarlist Analytics"}},
		// Not organizations: places, ordinary words, job titles, names,
		// fields that share a line with more.
		{"from a place", "Kelvin is from Berlin.", []Detector{person("Kelvin")}, []string{"Person:Kelvin"}},
		{"from a postcode", "Kelvin is from B2", []Detector{person("Kelvin")}, []string{"Person:Kelvin"}},
		{"from a decade", "Kelvin is from 1990s", []Detector{person("Kelvin")}, []string{"Person:Kelvin"}},
		{"venue: a town", "We'll meet at Berlin, 77 Obere Bahnhofstrasse 9", []Detector{wordsOf{page.Address, "77 Obere Bahnhofstrasse 9"}},
			[]string{"Address:77 Obere Bahnhofstrasse 9"}},
		{"venue: an ordinary place", "We'll meet at the office, 77 Obere Bahnhofstrasse 9", []Detector{wordsOf{page.Address, "77 Obere Bahnhofstrasse 9"}},
			[]string{"Address:77 Obere Bahnhofstrasse 9"}},
		{"venue: no cue", "Send it to Innography, 77 Obere Bahnhofstrasse 9", []Detector{wordsOf{page.Address, "77 Obere Bahnhofstrasse 9"}},
			[]string{"Address:77 Obere Bahnhofstrasse 9"}},
		{"venue: a weekday", "We'll meet at Monday, 77 Obere Bahnhofstrasse 9", []Detector{wordsOf{page.Address, "77 Obere Bahnhofstrasse 9"}},
			[]string{"Address:77 Obere Bahnhofstrasse 9"}},
		{"letterhead: a wrapped sentence", "Please write to\nClearhealthcosts 66 Dalmatinova 112", []Detector{wordsOf{page.Address, "66 Dalmatinova 112"}},
			[]string{"Address:66 Dalmatinova 112"}},
		{"letterhead: a town", "Berlin\n66 Dalmatinova 112", []Detector{wordsOf{page.Address, "66 Dalmatinova 112"}},
			[]string{"Address:66 Dalmatinova 112"}},
		{"letterhead: a heading", "Postal Address\n66 Dalmatinova 112", []Detector{wordsOf{page.Address, "66 Dalmatinova 112"}},
			[]string{"Address:66 Dalmatinova 112"}},
		{"letterhead: a person", "Jennifer Langset\n66 Dalmatinova 112", []Detector{wordsOf{page.Address, "66 Dalmatinova 112"}},
			[]string{"Address:66 Dalmatinova 112"}},
		{"field: a job title ending in a firm noun", "Andrea Johansen\nHead of Research\n08 Charilaou Trikoupi", []Detector{person("Andrea Johansen"), wordsOf{page.Address, "08 Charilaou Trikoupi"}},
			[]string{"Person:Andrea Johansen", "Address:08 Charilaou Trikoupi"}},
		{"field: a firm noun alone", "Andrea Johansen\nGroup\n08 Charilaou Trikoupi", []Detector{person("Andrea Johansen"), wordsOf{page.Address, "08 Charilaou Trikoupi"}},
			[]string{"Person:Andrea Johansen", "Address:08 Charilaou Trikoupi"}},
		{"field between two people: a department", "??? Margaret Suknovic ??? Sales ??? Mary Kelemen", []Detector{person("Margaret Suknovic"), person("Mary Kelemen")},
			[]string{"Person:Margaret Suknovic", "Person:Mary Kelemen"}},
		{"from a country", "Kelvin is from Denmark", []Detector{person("Kelvin")}, []string{"Person:Kelvin"}},
		{"from an ordinary phrase", "Kelvin is from the Sales Department.", []Detector{person("Kelvin")}, []string{"Person:Kelvin"}},
		{"job title between name and address", "Andrea Johansen\nSales Manager\n08 Charilaou Trikoupi", []Detector{person("Andrea Johansen"), wordsOf{page.Address, "08 Charilaou Trikoupi"}},
			[]string{"Person:Andrea Johansen", "Address:08 Charilaou Trikoupi"}},
		{"job title before an address starting early", "??? Jessica Kudou\n??? Sales Manager\n??? 71 110 Rue du Koweit", []Detector{person("Jessica Kudou"), wordsOf{page.Address, "110 Rue du Koweit"}},
			[]string{"Person:Jessica Kudou", "Address:71 110 Rue du Koweit"}},
		{"two fields before the address", "??? Jessica Kudou ??? Onstar ??? Innography ??? 110 Rue du Koweit", []Detector{person("Jessica Kudou"), wordsOf{page.Address, "110 Rue du Koweit"}},
			[]string{"Person:Jessica Kudou", "Address:110 Rue du Koweit"}},
		{"a second name", "Andrea Johansen\nMaria\n08 Charilaou Trikoupi", []Detector{person("Andrea Johansen"), wordsOf{page.Address, "08 Charilaou Trikoupi"}},
			[]string{"Person:Andrea Johansen\nMaria", "Address:08 Charilaou Trikoupi"}},
		{"no field: a sentence", "Andrea Johansen sent Factset the form at 08 Charilaou Trikoupi", []Detector{person("Andrea Johansen"), wordsOf{page.Address, "08 Charilaou Trikoupi"}},
			[]string{"Person:Andrea Johansen", "Address:08 Charilaou Trikoupi"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := spanTexts(t, tc.text, tc.ds, Options{})
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q:\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestOrgGrowth(t *testing.T) {
	org := func(w string) wordsOf { return wordsOf{page.Organization, w} }
	for _, tc := range []struct {
		name, text string
		ds         []Detector
		want       []string
	}{
		{"capitalised words after", "The Google Public Data Explorer office is at the corner.", []Detector{org("Google Public Data")},
			[]string{"Organization:Google Public Data Explorer"}},
		{"a capitalised word before", "Brosca is from Impaq International today.", []Detector{org("International")},
			[]string{"Organization:Impaq International"}},
		{"a connector inside", "She banks with Bank of Montreal now.", []Detector{org("Bank")},
			[]string{"Organization:Bank of Montreal"}},
		// Not grown: lower-case words, punctuation, weekdays, a sentence's
		// capitalised first word, an ordinary word before the name.
		{"lower-case words", "We will send it to Apple lovers.", []Detector{org("Apple")}, []string{"Organization:Apple"}},
		{"punctuation between", "It went to Acme. The Group met on Monday.", []Detector{org("Acme.")}, []string{"Organization:Acme."}},
		{"weekday after", "We met Acme Monday morning.", []Detector{org("Acme")}, []string{"Organization:Acme"}},
		{"sentence start before", "Contact Acme Corp for details.", []Detector{org("Acme Corp")}, []string{"Organization:Acme Corp"}},
		{"ordinary word before", "the new Global Acme deal", []Detector{org("Acme")}, []string{"Organization:Acme"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := spanTexts(t, tc.text, tc.ds, Options{})
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q:\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestOrgLists(t *testing.T) {
	org := func(w string) wordsOf { return wordsOf{page.Organization, w} }
	for _, tc := range []struct {
		name, text string
		ds         []Detector
		want       []string
	}{
		{"listed before and after", "Three firms lead here: Flightstats, Transunion and Impaq International.", []Detector{org("Transunion")},
			[]string{"Organization:Flightstats", "Organization:Transunion", "Organization:Impaq International"}},
		{"lower-case list", "it has three: ecodesk, lending club and lucid.", []Detector{org("lending club")},
			[]string{"Organization:ecodesk", "Organization:lending club", "Organization:lucid"}},
		// Not listed: places, weekdays, ordinary phrases, an item that runs
		// on into its clause, words another span holds.
		{"places", "Acme Corp, London and Paris.", []Detector{org("Acme Corp,")}, []string{"Organization:Acme Corp,"}},
		{"weekday", "We met Acme and Monday came.", []Detector{org("Acme")}, []string{"Organization:Acme"}},
		{"ordinary phrase", "It went to Acme, and the Group met on Monday.", []Detector{org("Acme,")}, []string{"Organization:Acme,"}},
		{"item runs on", "in the 1990s, open data nation invested heavily in chips", []Detector{org("1990s,")},
			[]string{"Organization:1990s,"}},
		{"another span", "Acme, Jane Doe and Beta.", []Detector{org("Acme,"), wordsOf{page.Person, "Jane Doe"}},
			[]string{"Organization:Acme,", "Person:Jane Doe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := spanTexts(t, tc.text, tc.ds, Options{})
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q:\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestBrandWithDigits(t *testing.T) {
	for w, want := range map[string]bool{"6sigma": true, "Ideas42": true, "Asset4": true,
		"1990s": false, "12th": false, "B2": false, "4QA": false, "A-4": false, "2020": false} {
		if got := brandWithDigits(w); got != want {
			t.Errorf("brandWithDigits(%q) = %v, want %v", w, got, want)
		}
	}
}
