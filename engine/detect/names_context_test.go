package detect

import (
	"context"
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// partialOf is a test detector that marks the first runes of a word, as
// the NER model does with "Don" in "Don't".
type partialOf struct {
	word  string
	runes int
}

func (f partialOf) Name() string { return "partialOf" }

func (f partialOf) Detect(_ context.Context, p *page.Page) ([]page.Span, error) {
	for i, w := range p.Words {
		if w.Text == f.word {
			return []page.Span{{First: i, Last: i, End: f.runes, Category: page.Person, Score: 0.9}}, nil
		}
	}
	return nil, nil
}

// persons runs every recognizer plus core (when set) on text and returns
// the Person spans.
func persons(t *testing.T, text string, core Detector) []string {
	t.Helper()
	ds := allRecs(t)
	if core != nil {
		ds = append(ds, core)
	}
	return spanTexts(t, text, ds, Options{Categories: []page.Category{page.Person}})
}

// TestContractionIsNoName: the model's "Don" in "Don't" is dropped; a
// possessive or a contracted "will" keeps its name.
func TestContractionIsNoName(t *testing.T) {
	for _, tc := range []struct {
		text string
		core partialOf
		want []string
	}{
		{"Don't go there.", partialOf{"Don't", 3}, nil},
		{"I won’t go.", partialOf{"won’t", 2}, nil},
		{"Bill'll come.", partialOf{"Bill'll", 4}, []string{"Person:Bill"}},
		{"It is Cynthia's daughter.", partialOf{"Cynthia's", 7}, []string{"Person:Cynthia"}},
	} {
		if got := persons(t, tc.text, tc.core); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
}
