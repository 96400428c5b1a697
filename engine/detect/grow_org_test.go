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
		{"is from", "Kelvin is from Innography", []Detector{person("Kelvin")},
			[]string{"Person:Kelvin", "Organization:Innography"}},
		{"works at, to the clause's end", "Roksana works at Solarlist Analytics, as an assistant.", []Detector{person("Roksana")},
			[]string{"Person:Roksana", "Organization:Solarlist Analytics"}},
		// Not organizations: places, ordinary words, job titles, names,
		// fields that share a line with more.
		{"from a place", "Kelvin is from Berlin.", []Detector{person("Kelvin")}, []string{"Person:Kelvin"}},
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
