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
