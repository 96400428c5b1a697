package corpus

import (
	"context"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"

	"github.com/redactd/redactd/internal/shareddata"
)

var presidio = shareddata.Path("pii", "presidio_research", "generated_large.json")

// TestTextTruthMatchesMuPDF checks the text corpus's truth against what
// MuPDF extracts from the same PDF: the same words at the same places.
func TestTextTruthMatchesMuPDF(t *testing.T) {
	if _, err := os.Stat(presidio); err != nil {
		t.Skipf("presidio data not available: %v", err)
	}
	recs, err := LoadPresidio(presidio)
	if err != nil {
		t.Fatal(err)
	}
	docs := TextDocs(recs, TextSpec{Prefix: "t", Docs: 2, MinPages: 2, MaxPages: 2, Terms: []string{"Kestrelvane"}, Seed: 7})
	for _, d := range docs {
		doc, err := mupdf.Open(d.Data, mupdf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if doc.NumPages() != d.Pages || len(d.Truth) != d.Pages {
			t.Fatalf("%s: %d pages, truth for %d, want %d", d.Name, doc.NumPages(), len(d.Truth), d.Pages)
		}
		cats := map[page.Category]int{}
		for i := range d.Pages {
			p, err := doc.LoadPage(context.Background(), i)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Words()
			truth := d.Truth[i]
			if len(got) != len(truth) {
				t.Fatalf("%s page %d: MuPDF finds %d words, truth has %d", d.Name, i, len(got), len(truth))
			}
			for j, w := range truth {
				cats[w.Cat]++
				if w.Cat != "" || w.Ignore {
					continue // narrowed to the entity's characters
				}
				g := got[j]
				b := g.Quad.Bounds()
				if g.Text != w.Text || math.Abs(b.X0/p.Width()-w.Quad[0].X) > 0.005 || math.Abs(b.X1/p.Width()-w.Quad[1].X) > 0.005 {
					t.Errorf("%s page %d word %d: MuPDF %q at %.3f..%.3f, truth %q at %.3f..%.3f", d.Name, i, j,
						g.Text, b.X0/p.Width(), b.X1/p.Width(), w.Text, w.Quad[0].X, w.Quad[1].X)
				}
			}
			p.Close()
		}
		doc.Close()
		if cats[page.IncludedTerm] != d.Pages || cats[page.Person] == 0 || cats[""] == 0 {
			t.Errorf("%s: words by category %v", d.Name, cats)
		}
		for _, e := range d.Entities {
			if e.Text == "" || e.Cat == "" || e.Page < 0 || e.Page >= d.Pages {
				t.Errorf("%s: bad entity %+v", d.Name, e)
			}
		}
	}
}

// TestEntityEndPunctuation checks that an entity's closing punctuation is
// left out of its last truth word, and only that: "u." inside the entity
// keeps its dot, a plain word is whole.
func TestEntityEndPunctuation(t *testing.T) {
	text := "Meet at 64 Király u. 23., Tiszabög"
	start := len("Meet at ")
	end := start + len("64 Király u. 23.")
	rec := Record{Text: text, Spans: []Span{{Type: "STREET_ADDRESS", Start: start, End: end}}}
	docs := TextDocs([]Record{rec}, TextSpec{Prefix: "p", Docs: 1, MinPages: 1, MaxPages: 1, Seed: 1})
	var got []string
	for _, w := range docs[0].Truth[0] {
		if w.Cat == page.Address {
			got = append(got, w.Text)
		}
	}
	want := []string{"64", "Király", "u.", "23"}
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("address truth words %q, want %q first", got, want)
	}
	for _, c := range []struct{ in, want string }{{"23.", "23"}, {"Sq,", "Sq"}, {"(UK)", "(UK"}, {"...", "..."}, {"Smith", "Smith"}} {
		if g := trimEndPunct(c.in); g != c.want {
			t.Errorf("trimEndPunct(%q) = %q, want %q", c.in, g, c.want)
		}
	}
}
