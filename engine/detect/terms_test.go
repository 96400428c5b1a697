package detect

import (
	"context"
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestTermsNFCAndCaseFold: included and excluded terms match words in
// Unicode NFC and case-folded form, so a name typed precomposed matches a
// text layer (or a reading) that spells it decomposed, and the reverse,
// and case differences whose lower case has another byte length (ẞ, the
// Kelvin sign) still match. Letters stay letters: "Muller" is not
// "Müller", "Isil" is not "Işıl".
func TestTermsNFCAndCaseFold(t *testing.T) {
	for _, c := range []struct {
		name, text string
		terms      []string
		want       []string
	}{
		{"precomposed term, decomposed text", "Dear Mu\u0308ller and Nu\u0301n\u0303ez,", []string{"Müller", "Núñez"},
			[]string{"IncludedTerm:Mu\u0308ller", "IncludedTerm:Nu\u0301n\u0303ez"}},
		{"decomposed term, precomposed text", "Dear Müller,", []string{"MU\u0308LLER"}, []string{"IncludedTerm:Müller"}},
		{"capital sharp s", "GROẞMANN GmbH, Großmann", []string{"großmann"}, []string{"IncludedTerm:GROẞMANN", "IncludedTerm:Großmann"}},
		{"upper and lower", "ØVERGAARD and øvergaard", []string{"Øvergaard"}, []string{"IncludedTerm:ØVERGAARD", "IncludedTerm:øvergaard"}},
		{"Kelvin sign", "Room 12 \u212Aelvin", []string{"kelvin"}, []string{"IncludedTerm:\u212Aelvin"}},
		{"no diacritic folding", "Müller and Muller", []string{"Muller"}, []string{"IncludedTerm:Muller"}},
		{"dotless i stays", "Işıl Isil", []string{"isil"}, []string{"IncludedTerm:Isil"}},
		{"whole words after folding", "Mu\u0308llerstraße 4", []string{"Müller"}, nil},
		// Romanian's comma-below letters and the cedilla letters legacy
		// fonts and keyboards put in their place are one letter.
		{"comma below term, cedilla text", "Ştefan Ţurcanu and ŞTEFAN", []string{"Ștefan Țurcanu", "ștefan"},
			[]string{"IncludedTerm:Ştefan Ţurcanu", "IncludedTerm:ŞTEFAN"}},
		{"cedilla term, comma below text", "Mădălina Pătrașcu", []string{"Pătraşcu"}, []string{"IncludedTerm:Pătrașcu"}},
	} {
		p, _ := PageFromText(c.text)
		spans, err := Run(context.Background(), p, nil, Options{Included: c.terms})
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(p, spans); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q want %q", c.name, got, c.want)
		}
	}
}

// TestExcludedTermsNFC: an excluded term typed precomposed keeps a
// detected name spelt decomposed.
func TestExcludedTermsNFC(t *testing.T) {
	p, _ := PageFromText("Call Jo\u0308rg Mu\u0308ller today")
	ds := []Detector{fixed{name: "f", spans: []page.Span{span(1, 2, page.Person, 0.9, "f")}}}
	spans, err := Run(context.Background(), p, ds, Options{Excluded: []string{"JÖRG MÜLLER"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(p, spans); len(got) != 0 {
		t.Errorf("excluded name still masked: %q", got)
	}
}

// TestTermsIgnoreDiacritics: with Options.IgnoreDiacritics (off by
// default) a term matches words that differ from it only in diacritics
// and in the letters Europe's alphabets write with a stroke or a
// ligature: "Muller" matches "Müller", "Lukasz" "Łukasz", "Grossmann"
// "Großmann", "Overgaard" "Øvergaard", in both directions.
func TestTermsIgnoreDiacritics(t *testing.T) {
	text := "Müller, Łukasz Dvořák, GROẞMANN, Øvergaard, Núñez and Ðuric; Mullerstraße"
	for _, c := range []struct {
		terms []string
		loose bool
		want  []string
	}{
		{[]string{"Muller", "lukasz dvorak", "grossmann", "overgaard", "NUNEZ", "duric"}, true,
			[]string{"IncludedTerm:Müller", "IncludedTerm:Łukasz Dvořák", "IncludedTerm:GROẞMANN", "IncludedTerm:Øvergaard", "IncludedTerm:Núñez", "IncludedTerm:Ðuric"}},
		{[]string{"Muller", "lukasz dvorak", "grossmann", "overgaard", "NUNEZ", "duric"}, false, nil},
		{[]string{"Mûllér"}, true, []string{"IncludedTerm:Müller"}}, // the term's marks go too
	} {
		p, _ := PageFromText(text)
		spans, err := Run(context.Background(), p, nil, Options{Included: c.terms, IgnoreDiacritics: c.loose})
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(p, spans); !slices.Equal(got, c.want) {
			t.Errorf("%q loose=%v: got %q want %q", c.terms, c.loose, got, c.want)
		}
	}
}
