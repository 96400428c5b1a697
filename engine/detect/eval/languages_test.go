package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/shareddata/smartdata"
)

// TestLanguageSplits checks the splits Languages draws from the corpora
// in the other six languages: how many records each part holds (the
// splits are fixed: the multilingual recipe must not train on them),
// that each span lies inside its record on a word, and that Person is
// labelled in every test split and Organization where the corpus labels
// it.
func TestLanguageSplits(t *testing.T) {
	if _, err := os.Stat(nerRoot); err != nil {
		t.Skipf("NER corpora not available: %v", err)
	}
	splits, err := Languages(nerRoot)
	if err != nil {
		t.Fatal(err)
	}
	// test and dev records per split.
	want := map[string][2]int{
		"wikiann_de": {2500, 2500}, "europeana_de": {711, 3500}, "germeval2014_de": {5100, 2200}, "uner_german_pud": {1000, 0},
		"europarl_ner_de": {600, 199}, "smartdata_de": {4002, 1107},
		"wikiann_fr": {2500, 2500}, "icdar_europeana_fr": {992, 992}, "obtic_7romans_fr": {2995, 3684},
		"europarl_ner_es": {600, 199}, "meddocan_es": {5155, 5268}, "europarl_ner_it": {600, 199},
		"wikiann_nl": {2500, 2500}, "icdar_europeana_nl": {723, 722},
		"wikiann_pt": {2500, 2500}, "uner_portuguese_bosque": {1167, 1172}, "uner_portuguese_pud": {1000, 0}, "lener_br": {1389, 1176},
	}
	langs := map[string]bool{}
	for _, s := range splits {
		langs[s.Lang] = true
		var per, org, loc, other int
		for _, r := range s.Records {
			for _, g := range r.Spans {
				if g.Start < 0 || g.End > len(r.Text) || g.Start >= g.End || strings.TrimSpace(r.Text[g.Start:g.End]) != r.Text[g.Start:g.End] {
					t.Fatalf("%s: span %d-%d %q in %q", s.Name, g.Start, g.End, r.Text[max(0, g.Start):min(len(r.Text), g.End)], r.Text)
				}
				switch {
				case g.Category == page.Person:
					per++
				case g.Category == page.Organization:
					org++
				case g.Type == "LOC":
					loc++
				default:
					other++
				}
			}
		}
		t.Logf("%s %s (%s): %d records, %d PER, %d ORG, %d LOC, %d other; dev (%s) %d records",
			s.Lang, s.Name, s.Source, len(s.Records), per, org, loc, other, s.DevSource, len(s.Dev))
		if per == 0 || org == 0 {
			t.Errorf("%s: %d persons, %d organizations", s.Name, per, org)
		}
		if w := want[s.Name]; w[0] != len(s.Records) || w[1] != len(s.Dev) {
			t.Errorf("%s: %d test and %d dev records, want %d and %d", s.Name, len(s.Records), len(s.Dev), w[0], w[1])
		}
	}
	if len(splits) != len(want) {
		t.Errorf("%d splits, want %d", len(splits), len(want))
	}
	for _, l := range []string{"de", "fr", "es", "it", "nl", "pt"} {
		if !langs[l] {
			t.Errorf("no split in %s", l)
		}
	}
}

// TestLanguageReaders checks the readers' pieces on small inputs: UTF-16
// offsets (SmartData) around a character outside the BMP, a document cut
// into line records with its spans, Europeana's mended tags and its
// sentences segmented at a full stop.
func TestLanguageReaders(t *testing.T) {
	text := "Hi 😀 Anna\nBei Siemens AG\u00a0heute"
	at := smartdata.UTF16Offsets(text)
	// "Anna" is UTF-16 units 6-10 (the emoji takes two).
	if got := text[at[6]:at[10]]; got != "Anna" {
		t.Errorf("units 6-10 = %q, want Anna", got)
	}
	gold := []Gold{{Start: at[6], End: at[10], Type: "PER", Category: page.Person},
		{Start: at[15], End: at[26], Type: "ORG", Category: page.Organization}} // "Siemens AG" and the no-break space
	recs := lineRecords(text, gold, "d")
	if len(recs) != 2 || recs[0].Text != "Hi 😀 Anna" || recs[1].Text != "Bei Siemens AG\u00a0heute" {
		t.Fatalf("records %+v", recs)
	}
	for i, want := range []string{"Anna", "Siemens AG"} {
		r := recs[i]
		if len(r.Spans) != 1 || r.Text[r.Spans[0].Start:r.Spans[0].End] != want || r.Doc != "d" {
			t.Errorf("record %d: spans %+v in %q, want one over %q", i, r.Spans, r.Text, want)
		}
	}
	for in, want := range map[string]string{"B_LOC": "B-LOC", "B-PEr": "B-PER", "I-ORG": "I-ORG", "O": "O", "???": "???"} {
		if got := foldTag(in); got != want {
			t.Errorf("foldTag(%q) = %q, want %q", in, got, want)
		}
	}
	path := filepath.Join(t.TempDir(), "enp.bio")
	bio := "# file:\tX_001\nHerr O\nMüller B-PEr\nkam O\n. O\nIn O\nWien B_LOC\nDie Presse B-ORG\n"
	if err := os.WriteFile(path, []byte(bio), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := columns{tok: 0, tag: 1, comments: true, fold: true, segment: true}.read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || len(docs[0]) != 2 {
		t.Fatalf("docs %+v, want one document of two sentences", docs)
	}
	s1, s2 := docs[0][0], docs[0][1]
	if s1.Text != "Herr Müller kam ." || len(s1.Spans) != 1 || s1.Text[s1.Spans[0].Start:s1.Spans[0].End] != "Müller" || s1.Spans[0].Category != page.Person {
		t.Errorf("sentence 1 %+v", s1)
	}
	// "Die Presse" holds a space: the token is "Die", the tag the last field.
	if s2.Text != "In Wien Die" || len(s2.Spans) != 2 || s2.Spans[0].Type != "LOC" || s2.Spans[1].Category != page.Organization {
		t.Errorf("sentence 2 %+v", s2)
	}
}
