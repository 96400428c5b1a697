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
		// ß is ss in capitals (Unicode full case folding): both ways.
		{"sharp s, capitals", "GOETHESTRASSE 12, Goethestraße 14, Goethestrasse 16", []string{"Goethestraße"},
			[]string{"IncludedTerm:GOETHESTRASSE", "IncludedTerm:Goethestraße", "IncludedTerm:Goethestrasse"}},
		{"ss term, sharp s text", "Herrn Großmann", []string{"GROSSMANN"}, []string{"IncludedTerm:Großmann"}},
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
		// Without it only ß, which case folding spells ss, still matches.
		{[]string{"Muller", "lukasz dvorak", "grossmann", "overgaard", "NUNEZ", "duric"}, false, []string{"IncludedTerm:GROẞMANN"}},
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

// TestTermsEveryLanguage (issue 46): terms match the same way in the
// seven languages: whole words, whatever the case, in NFC, with each
// language's letters; a word glued by an elided article's apostrophe
// ("d'Élodie", "dell'Acqua") is a whole word after it; diacritics stay
// letters ("ELODIE" without its accent is another spelling).
func TestTermsEveryLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, text string
		terms      []string
		want       []string
	}{
		{"de", "Frau JÄGER, Herr Jäger und Jägermeister", []string{"jäger"}, []string{"IncludedTerm:JÄGER", "IncludedTerm:Jäger"}},
		{"fr", "Élodie, ÉLODIE, élodie et ELODIE chez d'Élodie", []string{"élodie"},
			[]string{"IncludedTerm:Élodie", "IncludedTerm:ÉLODIE", "IncludedTerm:élodie", "IncludedTerm:Élodie"}},
		{"es", "NÚÑEZ y Núñez, no Nuñezco", []string{"Núñez"}, []string{"IncludedTerm:NÚÑEZ", "IncludedTerm:Núñez"}},
		{"it", "il sig. dell'Acqua e DELL'ACQUA", []string{"acqua"}, []string{"IncludedTerm:Acqua", "IncludedTerm:ACQUA"}},
		{"nl", "De Vries, DE VRIES en devries", []string{"de vries"}, []string{"IncludedTerm:De Vries", "IncludedTerm:DE VRIES"}},
		{"pt", "João Conceição, JOÃO CONCEIÇÃO e Joao", []string{"joão conceição"}, []string{"IncludedTerm:João Conceição", "IncludedTerm:JOÃO CONCEIÇÃO"}},
	} {
		p, _ := PageFromText(c.text)
		spans, err := Run(context.Background(), p, nil, Options{Included: c.terms})
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(p, spans); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q want %q", c.lang, got, c.want)
		}
	}
	// An excluded term keeps a detected name readable however either is
	// written, and only within its whole-word occurrences.
	for _, c := range []struct{ text, term string }{
		{"Élodie Dupont", "ÉLODIE DUPONT"}, {"GROSSMANN", "Großmann"}, {"Straße", "STRASSE"},
		{"Núñez", "núñez"}, {"D'Acqua", "d'acqua"}, {"JOÃO", "joão"},
	} {
		p, _ := PageFromText(c.text)
		ds := []Detector{fixed{name: "f", spans: []page.Span{span(0, len(p.Words)-1, page.Person, 0.9, "f")}}}
		spans, err := Run(context.Background(), p, ds, Options{Excluded: []string{c.term}})
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(p, spans); len(got) != 0 {
			t.Errorf("%q excluded: %q still masked", c.term, got)
		}
	}
	p, _ := PageFromText("Élodie Élodiette")
	ds := []Detector{fixed{name: "f", spans: []page.Span{span(1, 1, page.Person, 0.9, "f")}}}
	if spans, _ := Run(context.Background(), p, ds, Options{Excluded: []string{"élodie"}}); len(spans) != 1 {
		t.Errorf("excluded \"élodie\" dropped \"Élodiette\": %q", describe(p, spans))
	}
}
