package detect

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// FuzzRun feeds arbitrary text through every recognizer and the term
// matching: nothing may panic, and every span must fit the page.
func FuzzRun(f *testing.F) {
	for _, s := range []string{samplePage, "Email:jo@x.org", "(555) 123-4567 x12", "DE89 3704 0044 0532 0130 00",
		"3–5 March 2021", "P.O. Box 1\nAB T2P 1J9", "Mr. ", "@@@", "+(", "1/2/", "rue", "İ\u0130ß", "\xff\xfe @ [at] (dot)"} {
		f.Add(s, "x", "y")
	}
	ds, err := Recognizers()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text, inc, exc string) {
		p, _ := PageFromText(text)
		spans, err := Run(context.Background(), p, ds, Options{Included: []string{inc}, Excluded: []string{exc}})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range spans {
			if s.First < 0 || s.Last >= len(p.Words) || s.First > s.Last || s.Start < 0 || s.End < 0 {
				t.Fatalf("span out of page: %+v", s)
			}
			if n := utf8.RuneCountInString(p.Words[s.First].Text); s.Start > n {
				t.Fatalf("start beyond word: %+v", s)
			}
			if n := utf8.RuneCountInString(p.Words[s.Last].Text); s.End > n {
				t.Fatalf("end beyond word: %+v", s)
			}
			if s.First == s.Last && s.End != 0 && s.End <= s.Start {
				t.Fatalf("empty span: %+v", s)
			}
			if s.Category == page.IncludedTerm && s.Score != 1 {
				t.Fatalf("included term score %v", s.Score)
			}
		}
	})
}
