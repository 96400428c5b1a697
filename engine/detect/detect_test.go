package detect

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// fixed is a detector returning given spans, used to test Run's merging
// and filtering independently of any recognizer.
type fixed struct {
	name  string
	spans []page.Span
	err   error
	delay time.Duration
}

func (f fixed) Name() string { return f.name }

func (f fixed) Detect(ctx context.Context, p *page.Page) ([]page.Span, error) {
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return slices.Clone(f.spans), f.err
}

func span(first, last int, c page.Category, score float32, rec string) page.Span {
	return page.Span{First: first, Last: last, Category: c, Score: score, Recognizer: rec}
}

func TestRunMerge(t *testing.T) {
	p, _ := PageFromText("Anna Maria Schmidt works at Acme Widgets in Berlin")
	ds := []Detector{
		fixed{name: "a", spans: []page.Span{span(0, 1, page.Person, 0.6, "a"), span(5, 6, page.Organization, 0.7, "a")}},
		fixed{name: "b", spans: []page.Span{span(1, 2, page.Person, 0.9, "b"), span(6, 6, page.Person, 0.4, "b"), span(8, 8, page.Address, 0.5, "b")}},
		fixed{name: "c", spans: []page.Span{span(99, 100, page.Person, 1, "c"), span(3, 2, page.Date, 1, "c")}}, // invalid: dropped
	}
	got, err := Run(context.Background(), p, ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []page.Span{
		span(0, 2, page.Person, 0.9, "b"),       // union of 0-1 and 1-2, best score
		span(5, 6, page.Organization, 0.7, "a"), // different categories overlapping: both kept
		span(6, 6, page.Person, 0.4, "b"),
		span(8, 8, page.Address, 0.5, "b"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestMergePartialWords(t *testing.T) {
	// Two partial spans of one word that do not overlap stay apart;
	// overlapping ones merge.
	a := page.Span{First: 0, Last: 0, Start: 0, End: 3, Category: page.Email, Score: 0.5}
	b := page.Span{First: 0, Last: 0, Start: 4, End: 0, Category: page.Email, Score: 0.6}
	c := page.Span{First: 0, Last: 0, Start: 2, End: 5, Category: page.Email, Score: 0.7}
	if got := view.Merge([]page.Span{a, b}); len(got) != 2 {
		t.Errorf("disjoint partial spans merged: %+v", got)
	}
	got := view.Merge([]page.Span{a, b, c})
	want := []page.Span{{First: 0, Last: 0, Start: 0, End: 0, Category: page.Email, Score: 0.7}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v want %+v", got, want)
	}
}

func TestRunOptions(t *testing.T) {
	text := "Call Acme Corp about John Smith\nand the secret project Blue\nBird today"
	p, _ := PageFromText(text)
	ds := []Detector{fixed{name: "f", spans: []page.Span{
		span(1, 2, page.Organization, 0.8, "f"), // Acme Corp
		span(4, 5, page.Person, 0.8, "f"),       // John Smith
		span(4, 4, page.Person, 0.5, "f"),       // John
	}}}
	for _, c := range []struct {
		name string
		opts Options
		want []string
	}{
		{"all", Options{}, []string{"Organization:Acme Corp", "Person:John Smith"}},
		{"only person", Options{Categories: []page.Category{page.Person}}, []string{"Person:John Smith"}},
		{"none", Options{Categories: []page.Category{}}, nil},
		{"excluded equal", Options{Excluded: []string{"acme corp"}}, []string{"Person:John Smith"}},
		{"excluded within", Options{Excluded: []string{"ACME CORP ABOUT"}}, []string{"Person:John Smith"}},
		{"excluded smaller than span", Options{Excluded: []string{"John"}}, []string{"Organization:Acme Corp", "Person:John Smith"}},
		{"excluded part of word", Options{Excluded: []string{"Acm"}}, []string{"Organization:Acme Corp", "Person:John Smith"}},
		{"included across lines", Options{Categories: []page.Category{}, Included: []string{"project  blue bird"}},
			[]string{"IncludedTerm:project Blue\nBird"}},
		{"included whole word only", Options{Included: []string{"cre", "today"}},
			[]string{"Organization:Acme Corp", "Person:John Smith", "IncludedTerm:today"}},
		{"included beats excluded", Options{Included: []string{"john smith"}, Excluded: []string{"John Smith", "Acme"}},
			[]string{"Organization:Acme Corp", "IncludedTerm:John Smith"}},
		{"included repeated", Options{Included: []string{"the", "THE", " "}}, []string{"Organization:Acme Corp", "Person:John Smith", "IncludedTerm:the"}},
	} {
		spans, err := Run(context.Background(), p, ds, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(p, spans); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q want %q", c.name, got, c.want)
		}
	}
}

func TestIncludedPartialWord(t *testing.T) {
	p, _ := PageFromText("Login:secret42, (Kennwort: hunter2)")
	spans, err := Run(context.Background(), p, nil, Options{Included: []string{"secret42", "hunter2"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []page.Span{
		{First: 0, Last: 0, Start: 6, End: 14, Category: page.IncludedTerm, Score: 1, Recognizer: "included-term"},
		{First: 2, Last: 2, Start: 0, End: 7, Category: page.IncludedTerm, Score: 1, Recognizer: "included-term"},
	}
	if !slices.Equal(spans, want) {
		t.Errorf("got %+v want %+v", spans, want)
	}
}

func TestExcludedRemovesRecognizerSpan(t *testing.T) {
	got := spanTexts(t, "Write to jo@x.org or to ann@y.org.", allRecs(t), Options{Excluded: []string{"JO@X.ORG"}})
	if want := []string{"Email:ann@y.org"}; !slices.Equal(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestRunErrors(t *testing.T) {
	p, _ := PageFromText("hello world")
	boom := errors.New("boom")
	if _, err := Run(context.Background(), p, []Detector{fixed{name: "x", err: boom}}, Options{}); !errors.Is(err, boom) {
		t.Errorf("detector error not returned: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, p, allRecs(t), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, p, []Detector{fixed{name: "slow", delay: time.Minute}}, Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("blocking detector did not honour ctx: %v", err)
	}
}

func TestRunEmptyPage(t *testing.T) {
	for _, text := range []string{"", "\n\n", "   "} {
		p, _ := PageFromText(text)
		spans, err := Run(context.Background(), p, allRecs(t), Options{Included: []string{"x"}})
		if err != nil || len(spans) != 0 {
			t.Errorf("%q: %v %v", text, spans, err)
		}
	}
}

// TestConcurrent runs the recognizers from many goroutines (with -race
// this checks they share no mutable state beyond the phone cache).
func TestConcurrent(t *testing.T) {
	ds := allRecs(t)
	p, _ := PageFromText(samplePage)
	want, err := Run(context.Background(), p, ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got, err := Run(context.Background(), p, ds, Options{})
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("concurrent run differs: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestSamplePage checks the recognizers together on a realistic page.
func TestSamplePage(t *testing.T) {
	got := spanTexts(t, samplePage, allRecs(t), Options{})
	for _, w := range []string{
		"Person:Margaret Thompson", "Address:1847 Willow Creek Road, Suite 210\nPortland, OR 97205",
		"PhoneNumber:(503) 555-0182", "Email:m.thompson@northwind-legal.com", "Date:March 14, 2024",
		"Organization:Northwind Legal Services LLC", "IBAN:GB82 WEST 1234 5698 7654 32",
		"CreditCard:4111-1111-1111-1111", "Date:12/03/2023", "Person:Daniel Okafor",
	} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %q", w)
		}
	}
	for _, g := range got {
		for _, bad := range []string{"Invoice", "Total", "Please", "Grace", "Will", "May"} {
			if strings.HasSuffix(g, ":"+bad) {
				t.Errorf("ordinary word masked: %q", g)
			}
		}
	}
}
