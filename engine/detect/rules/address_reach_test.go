package rules

import (
	"testing"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
)

// TestEndsAddressSentence checks address growth's narrowing of
// view.EndsSentence: an abbreviation's full stop ends no address.
func TestEndsAddressSentence(t *testing.T) {
	gz, err := gazetteer.Get()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		word int
		want bool
	}{
		{"I went home. Then", 2, true},
		{`you?" he`, 0, true},
		{"(ok!) Then", 0, true},
		{"(ok!) then", 0, false},
		{"home, then", 0, false},
		{"Acme Inc., Boston", 1, false},
		{"Apt. 676", 0, false},
		{"St. John", 0, false},
		{"Belarus. please", 0, false},
		{"Belarus. Please", 0, true},
	} {
		p, _ := view.PageFromText(c.text)
		if got := endsAddressSentence(view.PageView(p), gz, c.word); got != c.want {
			t.Errorf("endsAddressSentence(%q, %d) = %v, want %v", c.text, c.word, got, c.want)
		}
	}
}
