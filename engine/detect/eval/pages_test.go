package eval

import (
	"strings"
	"testing"
)

func TestPages(t *testing.T) {
	rec := func(doc, text string, name string) Record {
		i := strings.Index(text, name)
		return Record{Text: text, Doc: doc, Spans: []Gold{{Start: i, End: i + len(name), Type: "PER"}}}
	}
	recs := []Record{
		rec("a", "Anna Berg wrote the first report about the harbour and its many ships.", "Anna Berg"),
		rec("a", "Later Carl Olsen read it.", "Carl Olsen"),
		rec("a", "Nobody else did, said Dora Lind.", "Dora Lind"),
		rec("b", "Emil Sand lives elsewhere.", "Emil Sand"),
		rec("", "Fia Ek stands alone.", "Fia Ek"),
		rec("", "Gus Ek too.", "Gus Ek"),
	}
	got := Pages(recs, 2)
	if len(got) != 5 {
		t.Fatalf("%d pages, want 5 (a: 2+1, b: 1, two without a document)", len(got))
	}
	for _, p := range got {
		for _, l := range strings.Split(p.Text, "\n") {
			if len(l) > lineWidth && strings.Contains(l, " ") {
				t.Errorf("line of %d bytes: %q", len(l), l)
			}
		}
		for _, g := range p.Spans {
			name := strings.ReplaceAll(p.Text[g.Start:g.End], "\n", " ")
			if strings.Count(name, " ") != 1 || name[0] < 'A' || name[0] > 'Z' {
				t.Errorf("gold span %q moved off its name in %q", name, p.Text)
			}
		}
	}
	if !strings.Contains(got[0].Text, "\n") || len(got[0].Spans) != 2 {
		t.Errorf("first page %q (%d spans): want two records wrapped over lines", got[0].Text, len(got[0].Spans))
	}
	if same := Pages(recs, 1); len(same) != len(recs) {
		t.Errorf("Pages(recs, 1) = %d records, want them as they are", len(same))
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"aa bb cc dd", 5, "aa bb\ncc dd"},
		{"aa bb\ncc dd ee", 5, "aa bb\ncc dd\nee"},
		{"abcdefgh ij", 3, "abcdefgh\nij"},
		{"", 3, ""},
	} {
		if got := wrap(tc.in, tc.w); got != tc.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}
