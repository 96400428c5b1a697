package detect

import (
	"context"
	"testing"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
)

// langProbe is a view detector that notes the language of the block of
// the page's first word as Run's view tells it, and finds nothing.
type langProbe struct{ got lang.Result }

func (p *langProbe) Name() string { return "lang-probe" }
func (p *langProbe) Detect(context.Context, *page.Page) ([]page.Span, error) {
	return nil, nil
}
func (p *langProbe) DetectView(v *View) []page.Span {
	p.got = v.BlockLang(v.BlockOf(0))
	return nil
}

// TestRunLanguageHint checks that Options.Language (the job's language
// hint) reaches the view Run's rules read: a line too short to tell takes
// the hint, a sentence keeps the language its text tells.
func TestRunLanguageHint(t *testing.T) {
	for _, c := range []struct {
		text string
		hint lang.Code
		want lang.Code
	}{
		{"Anlage 3", lang.German, lang.German},
		{"Anlage 3", lang.Italian, lang.Italian},
		{"Tel.: 030 1234567", lang.French, lang.French},
		{"The parties agree that this contract is governed by the laws of England and Wales.", lang.German, lang.English},
		{"Die Parteien vereinbaren, dass dieser Vertrag dem Recht der Bundesrepublik Deutschland unterliegt.", lang.English, lang.German},
	} {
		p, _ := PageFromText(c.text)
		probe := &langProbe{}
		if _, err := Run(context.Background(), p, []Detector{probe}, Options{Language: c.hint}); err != nil {
			t.Fatal(err)
		}
		if probe.got.Lang != c.want {
			t.Errorf("%q with hint %s: block language %q (%+v), want %q", c.text, c.hint, probe.got.Lang, probe.got, c.want)
		}
	}
}
