package eval

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
)

// wordsDetector finds the words of its list as Organization spans: the
// tests below check what EvaluateDomain counts, not what a model finds.
type wordsDetector []string

func (wordsDetector) Name() string { return "words" }

func (d wordsDetector) Detect(_ context.Context, p *page.Page) ([]page.Span, error) {
	var ss []page.Span
	for i, w := range p.Words {
		for _, t := range d {
			if w.Text == t {
				ss = append(ss, page.Span{First: i, Last: i, Start: 0, End: len([]rune(w.Text)), Category: page.Organization, Score: 1, Recognizer: "words"})
			}
		}
	}
	return ss, nil
}

// gold labels each of words in text as an Organization.
func gold(text string, words ...string) Record {
	r := Record{Text: text}
	for _, w := range words {
		i := strings.Index(text, w)
		r.Spans = append(r.Spans, Gold{Start: i, End: i + len(w), Type: "ORG", Category: page.Organization})
	}
	return r
}

// TestPlaceOrganization checks which Organization words count as mentions
// that are only a place name: a country or town, with or without "the",
// and no word a name list knows as a person's name.
func TestPlaceOrganization(t *testing.T) {
	recs := []Record{
		gold("Russia announced sanctions on Acme Holdings today.", "Russia", "Acme Holdings"),
		gold("The deal was signed by the United States and Bank of Chile.", "the United States", "Bank of Chile"),
		gold("Washington said so.", "Washington"), // a town, and a surname
	}
	rep, err := EvaluateDomain(context.Background(), []detect.Detector{wordsDetector{"Russia", "Acme"}}, recs, DomainOptions{Examples: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Russia (masked), the, United, States (left): a place name alone.
	if want := (Counts{TP: 1, FN: 3}); rep.PlaceOrganization != want {
		t.Errorf("PlaceOrganization = %+v, want %+v", rep.PlaceOrganization, want)
	}
	// Russia, Acme and Holdings (its legal form, grown over) masked; the,
	// United, States, Bank, of, Chile, Washington left.
	if want := (Counts{TP: 3, FN: 7}); rep.Organization != want {
		t.Errorf("Organization = %+v, want %+v", rep.Organization, want)
	}
	// The two records with a missed word, in record order, marked.
	wantEx := []string{
		"The deal was signed by [the]ORG [United]ORG [States]ORG and [Bank]ORG [of]ORG [Chile.]ORG",
		"[Washington]ORG said so.",
	}
	if strings.Join(rep.Examples, "\n") != strings.Join(wantEx, "\n") {
		t.Errorf("Examples =\n%s\nwant\n%s", strings.Join(rep.Examples, "\n"), strings.Join(wantEx, "\n"))
	}
	tab := PlaceOrganizationTable([]DomainRow{{Name: "news", Split: "test", Report: rep}})
	if !strings.Contains(tab, "| news | test | 10 | 4 (40.0%) | 1 | 0.300 | 0.600 |") {
		t.Errorf("table:\n%s", tab)
	}
}

// TestDomainExamples checks the marks of a false word and of a word
// another category masked, and that Examples caps what is kept.
func TestDomainExamples(t *testing.T) {
	recs := []Record{
		gold("Acme sells Russia oil.", "Russia"),
		gold("Acme sells.", "sells"),
		gold("Acme again."),
	}
	recs[0].Spans[0].Category, recs[0].Spans[0].Type = page.Person, "PER"
	rep, err := EvaluateDomain(context.Background(), []detect.Detector{wordsDetector{"Acme", "Russia"}}, recs, DomainOptions{Examples: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "{Acme} sells [Russia]PER* oil.\n{Acme} [sells.]ORG"
	if got := strings.Join(rep.Examples, "\n"); got != want {
		t.Errorf("Examples =\n%s\nwant\n%s", got, want)
	}
}

// TestOverRedaction checks the share of plain words masked: words less
// the Person and Organization words, place names and ignored words
// already left out of Words.
func TestOverRedaction(t *testing.T) {
	r := DomainReport{Words: 100, Masking: Counts{TP: 8, FN: 2, FP: 9}}
	if got := r.OverRedaction(); math.Abs(got-0.1) > 1e-12 {
		t.Errorf("OverRedaction = %v, want 0.1 (9 of 90 plain words)", got)
	}
	if got := (DomainReport{}).OverRedaction(); got != 0 {
		t.Errorf("OverRedaction of nothing = %v, want 0", got)
	}
	tab := DomainTable([]DomainRow{{Name: "zeitung", Lang: "de", Domain: "news", Split: "test", Report: r}})
	if !strings.Contains(tab, "| zeitung | de | news | test | 100 | – | – | 0.800 / 0.471 | 0.100 | – |") {
		t.Errorf("table:\n%s", tab)
	}
}
