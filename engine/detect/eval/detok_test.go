package eval

import (
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

func TestDetokenize(t *testing.T) {
	for _, tc := range []struct {
		in, want   string
		gold, span string // a gold span's words before and after
	}{
		{"Smith 's office , he said .", "Smith's office, he said.", "Smith", "Smith"},
		{"Peter Frank ( art critic ) wrote", "Peter Frank (art critic) wrote", "Peter Frank ( art critic )", "Peter Frank (art critic)"},
		{`He said " Jane Doe " left`, `He said "Jane Doe" left`, "Jane Doe", "Jane Doe"},
		{"it cost $ 5 , 10 %\n( new line", "it cost $5, 10%\n(new line", "new", "new"},
		{"Mr. Lee does n't know ``  Ann '' .", "Mr. Lee doesn't know ``Ann''.", "Ann", "Ann"},
	} {
		s := strings.Index(tc.in, tc.gold)
		r := Record{Text: tc.in, Doc: "d", Spans: []Gold{{Start: s, End: s + len(tc.gold), Type: "PER", Category: page.Person}}}
		got := Detokenize([]Record{r})[0]
		if got.Text != tc.want {
			t.Errorf("Detokenize(%q) = %q, want %q", tc.in, got.Text, tc.want)
			continue
		}
		if g := got.Spans[0]; got.Text[g.Start:g.End] != tc.span || g.Category != page.Person || got.Doc != "d" {
			t.Errorf("Detokenize(%q): gold %q, want %q", tc.in, got.Text[g.Start:g.End], tc.span)
		}
	}
}

func TestUppercase(t *testing.T) {
	r := Record{Text: "Jürgen met Ann at 5 pm.", Doc: "d", Spans: []Gold{{Start: 0, End: 7, Type: "PER", Category: page.Person}}}
	got := Uppercase([]Record{r})[0]
	if got.Text != "JüRGEN MET ANN AT 5 PM." || got.Spans[0] != r.Spans[0] || got.Doc != "d" {
		t.Errorf("Uppercase = %q %+v", got.Text, got.Spans)
	}
	if r.Text != "Jürgen met Ann at 5 pm." {
		t.Errorf("Uppercase changed its input: %q", r.Text)
	}
}
