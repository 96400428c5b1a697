package detect

import (
	"slices"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestPersonGrowth covers post-nominals, honorifics that are also street
// words, names wrapped onto the next line and lone names in text written
// without capitals, each with the ordinary text that must stay unmasked.
func TestPersonGrowth(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		core       wordsOf // zero: recognizers only
		want       []string
	}{
		{"post-nominal", "Producer Amanda Sultygov MD explained it.", wordsOf{},
			[]string{"Person:Amanda Sultygov MD"}},
		{"post-nominal after a comma", "Signed by Jane Meyer, PhD yesterday.", wordsOf{page.Person, "Jane Meyer,"},
			[]string{"Person:Jane Meyer, PhD"}},
		{"generational suffix", "Ask Keith Bult Jr. about it.", wordsOf{page.Person, "Keith Bult"},
			[]string{"Person:Keith Bult Jr"}},
		{"no post-nominal after a sentence", "I met Jane Meyer. MD is a state.", wordsOf{page.Person, "Jane Meyer."},
			[]string{"Person:Jane Meyer."}},
		{"honorific with a street word", "Mr. Ford is a 50 year old man.", wordsOf{},
			[]string{"Person:Mr. Ford"}},
		{"name wrapped after honorific", "please correct it to Mr. Sean\nVizirov DVM?", wordsOf{},
			[]string{"Person:Mr. Sean\nVizirov DVM"}},
		{"honorific wrapped before name", "please correct it to Mr.\nAllen Tazuka today", wordsOf{page.Person, "Allen Tazuka"},
			[]string{"Person:Mr.\nAllen Tazuka"}},
		{"no wrap over an ordinary word", "I gave it to Sean\nYesterday we left.", wordsOf{page.Person, "Sean"},
			[]string{"Person:Sean"}},
		{"no wrap after punctuation", "I gave it to Sean.\nVizirov came later.", wordsOf{page.Person, "Sean."},
			[]string{"Person:Sean."}},
		{"no-caps single name", "samantha is a very sympathetic person. they are also good", wordsOf{},
			[]string{"Person:samantha"}},
		{"no-caps names in speech", "i'm so jealous! said petra to michael", wordsOf{},
			[]string{"Person:petra", "Person:michael"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := allRecs(t)
			if tc.core.words != "" {
				ds = append(ds, tc.core)
			}
			got := spanTexts(t, tc.text, ds, Options{Categories: []page.Category{page.Person}})
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLowerProseKeepsOrdinaryWords: lower-case prose, with and without
// sentence starts in lower case, keeps words that are also first names.
func TestLowerProseKeepsOrdinaryWords(t *testing.T) {
	for _, text := range []string{
		"the tenant will pay the rent on the first day of the month. rose and summer grant the page",
		"we shall bill the owner. may the court grant relief. jack and max are dogs",
		"i will read the page and mark it. the rose will bloom in summer.",
		"and the court may grant the motion if the parties agree to it",
		"First line ends here.\nthe page will grant the summer rose a mark",
	} {
		if got := spanTexts(t, text, allRecs(t), Options{}); len(got) != 0 {
			t.Errorf("%q: masked %q", text, got)
		}
	}
}

func TestWrappedNameStopsAtSentences(t *testing.T) {
	for _, text := range []string{
		"everyone calls me Adlan\nIt's a fine day.",
		"everyone calls me Adlan\nHere's the rest.",
		"she called out to Sean\nI'd rather stay.",
		"we met john smith\nprincess diana was there.",
	} {
		got := spanTexts(t, text, append(allRecs(t), wordsOf{page.Person, "Adlan"}, wordsOf{page.Person, "Sean"}), Options{})
		for _, g := range got {
			if strings.Contains(g, "\n") {
				t.Errorf("%q: masked %q across the line", text, g)
			}
		}
	}
}

func TestCuedNames(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"My name is Þórólfur", "Person:Þórólfur"},
		{"Her maiden name is Hyytiä", "Person:Hyytiä"},
		{"Sometimes people call me Snežana", "Person:Snežana"},
		{"The name is Important for us", ""},
		{"They call me Tuesday", ""},
		{"The file name is README today", ""},
	} {
		got := spanTexts(t, tc.text, allRecs(t), Options{Categories: []page.Category{page.Person}})
		if tc.want == "" && len(got) != 0 || tc.want != "" && !slices.Equal(got, []string{tc.want}) {
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
}
