package eval

import (
	"os"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"

	"github.com/redactd/redactd/internal/shareddata"
)

var nerRoot = shareddata.Path("ner")

// TestHeldOutSplits checks that the held-out splits hold the sentences
// the recipe held out (models/ner/model/manifest.json, training.data.*.
// test_sentences), that the corpora never trained on keep their drawn
// splits, that every corpus but uner_pud has a dev split, and that their
// entities map to categories.
func TestHeldOutSplits(t *testing.T) {
	if _, err := os.Stat(nerRoot); err != nil {
		t.Skipf("NER corpora not available: %v", err)
	}
	splits, err := HeldOut(nerRoot)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"wnut17": 1287, "btc": 2000, "wikigold": 297, "wikiann": 10000,
		"uner_ewt": 2077, "uner_pud": 1000, "sec": 303,
		// never trained on (issue 14)
		"wnut16": 3850, "crossner": 2506, "europarl": 600, "re3d": 530, "litbank": 1606, "gum": 1614, "enron": 823}
	for _, s := range splits {
		if got := len(s.Records); got != want[s.Name] {
			t.Errorf("%s: %d sentences, the recipe held out %d", s.Name, got, want[s.Name])
		}
		var per, org, loc int
		for _, r := range s.Records {
			for _, g := range r.Spans {
				if r.Text[g.Start:g.End] == "" || g.End > len(r.Text) {
					t.Fatalf("%s: empty or out-of-range span in %q", s.Name, r.Text)
				}
				switch {
				case g.Category == page.Person:
					per++
				case g.Category == page.Organization:
					org++
				case g.Type == "LOC":
					loc++
				}
			}
		}
		if per == 0 || org == 0 {
			t.Errorf("%s: %d persons, %d organizations", s.Name, per, org)
		}
		t.Logf("%s (%s): %d sentences, %d PER, %d ORG, %d LOC; dev (%s) %d sentences", s.Name, s.Source, len(s.Records), per, org, loc, s.DevSource, len(s.Dev))
		if s.Name != "uner_pud" && len(s.Dev) == 0 {
			t.Errorf("%s: no dev split", s.Name)
		}
	}
	if len(splits) != len(want) {
		t.Errorf("%d splits, want %d", len(splits), len(want))
	}
}

// TestNameWords checks the mapping of the corpora that label every
// mention: in GUM, LitBank, re3d and the Enron threads a name word of a
// person or organisation mention is gold, a pronoun is a plain word, and
// a common noun or title of the mention counts for nothing.
func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		tok, typ string
		want     string
	}{
		{"Dvořák", "PER", "PER"}, {"NASA", "ORG", "ORG"}, {"he", "PER", ""}, {"His", "PER", ""},
		{"composer", "PER", "IGN"}, {"President", "PER", "IGN"}, {"Mr.", "PER", "IGN"}, {"The", "ORG", "IGN"},
		{"London", "LOC", "LOC"}, {"the", "LOC", "LOC"},
	} {
		if got := labelOf(c.tok, c.typ, true); got != c.want {
			t.Errorf("labelOf(%q, %s) = %q, want %q", c.tok, c.typ, got, c.want)
		}
	}
	if _, err := os.Stat(nerRoot); err != nil {
		t.Skipf("NER corpora not available: %v", err)
	}
	splits, err := HeldOut(nerRoot)
	if err != nil {
		t.Fatal(err)
	}
	// words of one sentence and what they count as
	want := map[string]map[string]string{
		"gum": {"Dvořák": "PER", "composer": "IGN", "Petitioner": "IGN", "he": ""},
	}
	for _, s := range splits {
		w, ok := want[s.Name]
		if !ok {
			continue
		}
		seen := map[string]string{}
		for _, r := range s.Records {
			for _, g := range r.Spans {
				for _, word := range strings.Fields(r.Text[g.Start:g.End]) {
					if _, ok := w[word]; ok {
						seen[word] = g.Type
					}
				}
			}
		}
		for word, typ := range w {
			if got := seen[word]; got != typ {
				t.Errorf("%s: %q counts as %q, want %q", s.Name, word, got, typ)
			}
		}
	}
}

// TestSplitHandles checks that a user handle the Broad Twitter Corpus
// cut in two ("@" and the name, each B-PER) is read back as the one word a
// tweet writes, in one entity, while an "@" outside any entity ("at")
// stays a word of its own.
func TestSplitHandles(t *testing.T) {
	path := t.TempDir() + "/h.conll"
	conll := "RT\tO\n@\tB-PER\nTheory_Versa\tB-PER\n:\tO\nmeet\tO\n@\tO\nnoon\tO\n@\tB-ORG\nCNN\tB-ORG\n\n"
	if err := os.WriteFile(path, []byte(conll), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := columns{tok: 0, tag: 1, sep: "\t", docStart: true}.read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || len(docs[0]) != 1 {
		t.Fatalf("got %d documents", len(docs))
	}
	r := docs[0][0]
	if want := "RT @Theory_Versa : meet @ noon @CNN"; r.Text != want {
		t.Errorf("text %q, want %q", r.Text, want)
	}
	var got []string
	for _, g := range r.Spans {
		got = append(got, g.Type+" "+r.Text[g.Start:g.End])
	}
	if want := []string{"PER @Theory_Versa", "ORG @CNN"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("spans %q, want %q", got, want)
	}
}

// TestContractions checks that the words Universal Dependencies splits
// are read back as the one word a reader sees, in the entity the
// preposition is in, and that a German "in dem" after a comma (a
// relative clause, where a Portuguese "em o" still contracts) and a pair
// no language contracts stay as they are.
func TestContractions(t *testing.T) {
	cases := []struct {
		name, rows string
		contract   *contractions
		text       string
		spans      []string
	}{
		{"pt name", "1\tMiguel\tB-PER\n2\tÂngelo\tI-PER\n3\tde\tI-PER\n4\ta\tI-PER\n5\tLuz\tI-PER\n6\tfalou\tO\n7\t,\tO\n8\tem\tO\n9\to\tO\n10\tPorto\tB-LOC\n",
			contractionsPT, "Miguel Ângelo da Luz falou , no Porto", []string{"PER Miguel Ângelo da Luz", "LOC Porto"}},
		{"pt before name", "1\tDe\tO\n2\ta\tB-ORG\n3\tFazenda\tI-ORG\n4\tem\tO\n5\tum\tO\n6\tdia\tO\n",
			contractionsPT, "Da Fazenda em um dia", []string{"ORG Fazenda"}},
		{"de", "1\tSie\tO\n2\twar\tO\n3\tin\tO\n4\tdem\tO\n5\tHaus\tO\n6\t,\tO\n7\tin\tO\n8\tdem\tO\n9\tBerta\tB-PER\n10\tlebte\tO\n11\tzu\tO\n12\tder\tO\n13\tZeit\tO\n",
			contractionsDE, "Sie war im Haus , in dem Berta lebte zur Zeit", []string{"PER Berta"}},
		{"no contraction", "1\tin\tO\n2\tdem\tO\n",
			nil, "in dem", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := t.TempDir() + "/ud.iob2"
			if err := os.WriteFile(path, []byte("# sent_id = 1\n"+c.rows+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			docs, err := columns{tok: 1, tag: 2, sep: "\t", comments: true, contract: c.contract}.read(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 || len(docs[0]) != 1 {
				t.Fatalf("got %d documents", len(docs))
			}
			r := docs[0][0]
			if r.Text != c.text {
				t.Errorf("text %q, want %q", r.Text, c.text)
			}
			var got []string
			for _, g := range r.Spans {
				got = append(got, g.Type+" "+r.Text[g.Start:g.End])
			}
			if strings.Join(got, "|") != strings.Join(c.spans, "|") {
				t.Errorf("spans %q, want %q", got, c.spans)
			}
		})
	}
}
