package detect

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestCommonWordSpans checks which of the NER model's spans made of
// ordinary words survive Run.
func TestCommonWordSpans(t *testing.T) {
	type mark struct {
		words string // consecutive words of the text
		cat   page.Category
		rec   string
	}
	ner := func(w string) mark { return mark{w, page.Person, nerRecognizer} }
	addr := func(w string) mark { return mark{w, page.Address, nerRecognizer} }
	for _, c := range []struct {
		name  string
		text  string
		marks []mark
		want  []string // Person and Address spans kept
	}{
		{"headings and labels alone on a line", "Summary\nAWS Data Transfer $4.11\nCharges $4.11\nCredits $0.00",
			[]mark{ner("Summary"), ner("Charges"), ner("Credits")}, nil},
		{"ordinary words in prose", "She is a classical musician and her brother works in the battery industry.",
			[]mark{ner("classical musician"), ner("battery")}, nil},
		{"names that are words", "Will\nRose\nBill Young", []mark{ner("Will"), ner("Rose"), ner("Bill Young")},
			[]string{"Will", "Rose", "Bill Young"}},
		{"street and firm words", "12 Main St.\nGalorath Incorporated", []mark{ner("St."), ner("Incorporated")},
			[]string{"St.", "Incorporated"}},
		{"part of a larger entity", "Open Data Nation\nFollow up with William ten Pas in 2 months.",
			[]mark{ner("Open"), {"Data Nation", page.Organization, "org"}, ner("William"), ner("Pas")},
			[]string{"Open", "William", "Pas"}},
		{"other detectors are trusted", "Summary", []mark{{"Summary", page.Person, "gazetteer"}}, []string{"Summary"}},
		{"a word the lists do not know", "Zyxwvut", []mark{ner("Zyxwvut")}, []string{"Zyxwvut"}},
		{"table cells read as addresses", "06/22/2015 45 Closure Permanent\n\nTemporary Closure",
			[]mark{addr("45 Closure Permanent"), addr("Temporary Closure")}, nil},
		{"street", "12 Main Street", []mark{addr("12 Main Street")}, []string{"12 Main Street"}},
		{"street name no list knows", "Vesturgata 66", []mark{addr("Vesturgata 66")}, []string{"Vesturgata 66"}},
		{"post box", "PO Box 12", []mark{addr("PO Box 12")}, []string{"PO Box 12"}},
		{"organizations are left alone", "Open Data Nation", []mark{{"Open Data Nation", page.Organization, nerRecognizer}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _ := PageFromText(c.text)
			var spans []page.Span
			for _, m := range c.marks {
				first, last := findWords(t, p, m.words)
				spans = append(spans, span(first, last, m.cat, 0.7, m.rec))
			}
			got, err := Run(context.Background(), p, []Detector{fixed{name: "marks", spans: spans}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var kept []string
			for _, s := range got {
				if (s.Category == page.Person || s.Category == page.Address) && (s.Recognizer == nerRecognizer || s.Recognizer == "gazetteer") {
					kept = append(kept, wordsText(p, s))
				}
			}
			if !slices.Equal(kept, c.want) {
				t.Errorf("spans kept %q, want %q", kept, c.want)
			}
			if c.name == "organizations are left alone" && len(got) != 1 {
				t.Errorf("organization dropped: %q", describe(p, got))
			}
		})
	}
}

// findWords returns the first and last index of the consecutive words
// ws in p.
func findWords(t *testing.T, p *page.Page, ws string) (int, int) {
	t.Helper()
	f := strings.Fields(ws)
	for i := range p.Words {
		if i+len(f) <= len(p.Words) && slices.Equal(texts(p.Words[i:i+len(f)]), f) {
			return i, i + len(f) - 1
		}
	}
	t.Fatalf("%q not in page", ws)
	return 0, 0
}

func texts(ws []page.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

func wordsText(p *page.Page, s page.Span) string {
	return strings.Join(texts(p.Words[s.First:s.Last+1]), " ")
}

// TestLeadingFunctionWords checks that the NER model's spans start past
// the words no entity begins with, and only those.
func TestLeadingFunctionWords(t *testing.T) {
	for _, c := range []struct {
		name, text, marked string
		cat                page.Category
		want               []string // spans left, as words
	}{
		{"question opener alone", "What's your email? jo@example.org", "What's", page.Person, nil},
		{"opener and possessive", "Here's my SSN: 308-63-0237", "Here's my SSN:", page.Organization, []string{"SSN:"}},
		{"object pronoun", "she named him joshua", "him joshua", page.Person, []string{"joshua"}},
		{"salutation", "Dear John,", "Dear John,", page.Person, []string{"John,"}},
		{"curly apostrophe", "They’re not answering", "They’re not answering", page.Organization, []string{"answering"}},
		{"a capitalised possessive may be a name", "My Nguyen called.", "My Nguyen", page.Person, []string{"My Nguyen"}},
		{"a capitalised pronoun may be a name", "He Jiankui spoke.", "He Jiankui", page.Person, []string{"He Jiankui"}},
		{"an article may start a firm", "The Home Depot", "The Home Depot", page.Organization, []string{"The Home Depot"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _ := PageFromText(c.text)
			first, last := findWords(t, p, c.marked)
			got, err := Run(context.Background(), p, []Detector{fixed{name: "marks",
				spans: []page.Span{span(first, last, c.cat, 0.7, nerRecognizer)}}}, Options{Categories: []page.Category{c.cat}})
			if err != nil {
				t.Fatal(err)
			}
			var kept []string
			for _, s := range got {
				if s.Recognizer == nerRecognizer {
					kept = append(kept, wordsText(p, s))
				}
			}
			if !slices.Equal(kept, c.want) {
				t.Errorf("spans kept %q, want %q", kept, c.want)
			}
		})
	}
}
