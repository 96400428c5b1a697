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

// TestCoordinatedOrdinarySurnames: a surname that is also an ordinary
// word or a town is a name when listed with a name, and not where it
// heads a phrase, follows a sentence end or the neighbour is no name.
func TestCoordinatedOrdinarySurnames(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		core       wordsOf
		want       []string
	}{
		{"ordinary word after and", "Willis and Green were precision engineers.", wordsOf{page.Person, "Willis"},
			[]string{"Person:Willis and Green"}},
		{"ordinary word ends a list", "It has 3 founders: Mazzi, Bowman and Hill. The idea", wordsOf{page.Person, "Mazzi, Bowman"},
			[]string{"Person:Mazzi, Bowman and Hill"}},
		{"town listed with an unknown name", "Sadly Roeterdink and Lopez were engineers.", wordsOf{page.Person, "Roeterdink"},
			[]string{"Person:Roeterdink and Lopez"}},
		{"ordinary word before and", "we thank Green and Willis for it.", wordsOf{page.Person, "Willis"},
			[]string{"Person:Green and Willis"}},
		{"list wrapped onto the next line", "It has 3 founders: Abakumova, Wallace and\nPerez. The idea", wordsOf{page.Person, "Abakumova, Wallace"},
			[]string{"Person:Abakumova, Wallace and\nPerez"}},
		{"firm's kin", "Smith and Sons is a firm.", wordsOf{page.Person, "Smith"},
			[]string{"Person:Smith"}},
		{"no name anchor", "Research and Development matters.", wordsOf{page.Person, "Research"},
			[]string{"Person:Research"}},
		{"lower-case word", "Johnson and the team went home.", wordsOf{page.Person, "Johnson"},
			[]string{"Person:Johnson"}},
		{"heads a phrase", "Ask Willis and Hill Street will answer.", wordsOf{page.Person, "Willis"},
			[]string{"Person:Willis"}},
		{"sentence start", "It was good. Green and Willis left.", wordsOf{page.Person, "Willis"},
			[]string{"Person:Willis"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := persons(t, tc.text, tc.core); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestMonthEndsNameList: a month that is a first name ends a list of
// names as a Person, and never makes the names a firm.
func TestMonthEndsNameList(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		core       wordsOf
		want       []string
	}{
		{"list of names", "They had 6: Victor, Andrew, Brandon, John, Evan and April.", wordsOf{page.Person, "Victor, Andrew, Brandon, John, Evan"},
			[]string{"Person:Victor, Andrew, Brandon, John, Evan and April"}},
		{"month in a date", "Pay John, Evan and April 5 later.", wordsOf{page.Person, "John, Evan"},
			[]string{"Person:John, Evan"}},
		{"one name", "I saw Evan and April was over.", wordsOf{page.Person, "Evan"},
			[]string{"Person:Evan"}},
		{"no firm of a month", "We met Craig, Palmer and June.", wordsOf{},
			[]string{"Person:Craig, Palmer and June"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := allRecs(t)
			if tc.core.words != "" {
				ds = append(ds, tc.core)
			}
			got := spanTexts(t, tc.text, ds, Options{Categories: []page.Category{page.Person, page.Organization}})
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestContextNames: lone names told by their place in the sentence, and
// the ordinary text in the same places that must stay readable.
func TestContextNames(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"speaker labels", `Arquímedes: "Who are you?" Amber:"I'm your daughter".`,
			[]string{"Person:Arquímedes", "Person:Amber"}},
		{"escaped quotes", `Troy: \"Who are you?\" Lindsey:\"I'm here\".`,
			[]string{"Person:Troy", "Person:Lindsey"}},
		{"label of a note", `Note: "keep this" Warning: "hot".`, nil},
		{"label without quote", `Arquímedes: see the list.`, nil},
		{"attribution", `"I'm glad to hear that," says Shcherbakova.`,
			[]string{"Person:Shcherbakova"}},
		{"attribution without quote", "I'm so jealous! said Tómas to Colleen",
			[]string{"Person:Tómas", "Person:Colleen"}},
		{"speaker that is a country", `Kalman: "Who are you?" Jordan:"I'm here".`,
			[]string{"Person:Kalman", "Person:Jordan"}},
		{"attribution of a role", `"It works," said the manager.`, nil},
		{"vocative after a comma", "Don't go to town, Charlotte!",
			[]string{"Person:Charlotte"}},
		{"ordinary word as vocative", "Well done, Bill! Come on, May! Thanks, Will!", nil},
		{"vocative before a request", "Mimount, can I please speak to your boss?",
			[]string{"Person:Mimount"}},
		{"ordinary word before a request", "However, can I go? Yes, please do. Paris, can you?", nil},
		{"speaker of a shout", `Xenophon shouted at her: "What are you doing here?"`,
			[]string{"Person:Xenophon"}},
		{"shout of a role", `Everyone shouted at her.`, nil},
		{"owner of an address", "As promised, here's Viktor's address: none yet.",
			[]string{"Person:Viktor"}},
		{"parent", "Yes, I'm Arquímedes's daughter.",
			[]string{"Person:Arquímedes"}},
		{"owner that is a town or word", "The company's address and London's phone code. The King's son.", nil},
		{"recipient", "He had given Aija his address.",
			[]string{"Person:Aija"}},
		{"recipient that is a word", "I gave him his book and sent Paris her due.", nil},
		{"work named after its author", "Unlike the Bodnár novel, it is short. I was a huge Rolc fan.",
			[]string{"Person:Bodnár", "Person:Rolc"}},
		{"work named after a full name", "Have you been to a Zachary Örlygsdóttir concert before?",
			[]string{"Person:Zachary Örlygsdóttir"}},
		{"escaped possessive", `Amber:\"I\'m Cynthia\'s daughter\".`,
			[]string{"Person:Amber", "Person:Cynthia"}},
		{"work of an ordinary word", "Unlike the Gothic novel, the Victorian poem and the Christmas concert were a big band version.", nil},
		{"period of an artist", "Is there a better example than early Andersson?",
			[]string{"Person:Andersson"}},
		{"period of a thing", "It was better than early April? Or late Monday, or early retirement, or late Baroque.", nil},
		{"named in lower case", "sometimes people call me philipp. she named him anthony",
			[]string{"Person:philipp", "Person:anthony"}},
		{"named by a word in lower case", "people call me crazy. they named him king", nil},
		{"starring", "A film directed by Lori Švéda and starring Lafontaine",
			[]string{"Person:Lori Švéda", "Person:Lafontaine"}},
		{"honorific in lower case", "dr. hurst is a 50 year old man who grew up here.",
			[]string{"Person:dr. hurst"}},
		{"honorific before a word in lower case", "the dr. said no. ask mr. smith", []string{"Person:mr. smith"}},
		{"full name in the possessive", "the verses from Teresa Walker's Cautionary Tales.",
			[]string{"Person:Teresa Walker's"}},
		{"lone possessive", "London's parks and Will's idea.", nil},
		{"pair of surnames", "Hermansen and Lowery were precision engineers.",
			[]string{"Person:Hermansen and Lowery"}},
		{"pair in lower case", "is there a better song? norberg and smith were precision engineers.",
			[]string{"Person:norberg", "Person:smith"}},
		{"pair of words in lower case", "the dogs jack and max are here. rose and summer grant it.", nil},
		{"list of three", "It has 3 founders: Nadbath, Smith and Stanton. The idea",
			[]string{"Person:Nadbath, Smith and Stanton"}},
		{"list in lower case", "the brainchild of our 3 founders: mazzi, blair and parks. the idea",
			[]string{"Person:mazzi", "Person:blair", "Person:parks"}},
		{"list of towns and words", "We flew Paris, London and Berlin. Red, Green and Blue.", nil},
		{"pair in a firm", "Marks and Spencer Group sells. Sousa and Ball play.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := persons(t, tc.text, nil); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
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
