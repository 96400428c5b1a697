package eval

import (
	"os"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/shareddata"
)

// TestGenerated checks the generated documents: every language's set is
// the same for one seed and differs between the dev and test seeds, every
// category is planted, and every gold span lies on the text it names.
func TestGenerated(t *testing.T) {
	root := shareddata.Path("gazetteers")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	for _, lang := range GeneratedLangs {
		dev, err := Generated(root, lang, GeneratedDevSeed, 12)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Generated(root, lang, GeneratedDevSeed, 12)
		test, _ := Generated(root, lang, GeneratedTestSeed, 12)
		if dev[0].Text != again[0].Text {
			t.Errorf("%s: one seed, two documents", lang)
		}
		if dev[0].Text == test[0].Text {
			t.Errorf("%s: dev and test seeds wrote the same document", lang)
		}
		seen := map[page.Category]int{}
		for _, r := range dev {
			for _, g := range r.Spans {
				seen[g.Category]++
				if s := r.Text[g.Start:g.End]; strings.TrimSpace(s) != s || s == "" {
					t.Errorf("%s: span %q has blanks at its ends", lang, s)
				}
			}
		}
		for _, c := range []page.Category{page.Person, page.Address, page.PhoneNumber, page.Date, page.NationalID, page.IBAN, page.Email, page.Organization} {
			if seen[c] == 0 {
				t.Errorf("%s: no %s planted", lang, c)
			}
		}
		if testing.Verbose() {
			t.Logf("%s:\n%s", lang, dev[1].Text)
		}
	}
}
