package view

import (
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

func TestViewText(t *testing.T) {
	p := &page.Page{Words: []page.Word{
		{Text: "Straße", Line: 0}, {Text: "İstanbul", Line: 0}, {Text: "a\tb", Line: 1}, {Text: "x", Line: 4},
	}}
	v := PageView(p)
	if want := "Straße İstanbul\na_b\nx"; v.Text != want {
		t.Fatalf("Text %q want %q", v.Text, want)
	}
	if len(v.Lower) != len(v.Text) || v.Lower[:7] != "straße" {
		t.Errorf("Lower %q not aligned with Text", v.Lower)
	}
	if v.Lines() != 3 {
		t.Errorf("Lines %d want 3", v.Lines())
	}
	if f, e := v.Line(1); f != 2 || e != 3 {
		t.Errorf("line 1 = [%d,%d) want [2,3)", f, e)
	}
	if s, e := v.LineRange(0); v.Text[s:e] != "Straße İstanbul" {
		t.Errorf("LineRange 0 = %q", v.Text[s:e])
	}
	// A view over a part of the page keeps page indices.
	sub := NewView(p, 1, 3)
	if sub.Text != "İstanbul\na_b" || sub.First != 1 {
		t.Errorf("sub view %q first %d", sub.Text, sub.First)
	}
	s, ok := sub.Span(0, len(sub.Text), page.Address, 1, "t")
	if !ok || s.First != 1 || s.Last != 2 || s.Start != 0 || s.End != 0 {
		t.Errorf("sub span %+v", s)
	}
}

func TestViewSpan(t *testing.T) {
	p, _ := PageFromText("Mail:jö@x.org (555) 123\nnächste Zeile")
	v := PageView(p)
	for _, c := range []struct {
		sub  string
		want page.Span
	}{
		// Partial first word, rune offsets (ö is one rune, two bytes).
		{"jö@x.org", page.Span{First: 0, Last: 0, Start: 5, End: 0}},
		{"Mail", page.Span{First: 0, Last: 0, Start: 0, End: 4}},
		{"jö", page.Span{First: 0, Last: 0, Start: 5, End: 7}},
		{"(555) 123", page.Span{First: 1, Last: 2}},
		{"555", page.Span{First: 1, Last: 1, Start: 1, End: 4}},
		{"123\nnächste", page.Span{First: 2, Last: 3}},
		{"chste", page.Span{First: 3, Last: 3, Start: 2, End: 0}},
	} {
		i := indexOf(v.Text, c.sub)
		got, ok := v.Span(i, i+len(c.sub), page.Email, 1, "t")
		c.want.Category, c.want.Score, c.want.Recognizer = page.Email, 1, "t"
		if !ok || got != c.want {
			t.Errorf("%q: got %+v want %+v", c.sub, got, c.want)
		}
		// ByteRange inverts Span.
		if s, e, ok := v.ByteRange(got); !ok || v.Text[s:e] != c.sub {
			t.Errorf("%q: ByteRange gives %q", c.sub, v.Text[s:e])
		}
	}
	// Ranges over separators only, or empty, are no span.
	for _, r := range [][2]int{{14, 15}, {3, 3}, {-5, 0}, {len(v.Text), len(v.Text) + 3}} {
		if s, ok := v.Span(r[0], r[1], page.Email, 1, "t"); ok {
			t.Errorf("range %v gave %+v", r, s)
		}
	}
}

func indexOf(s, sub string) int {
	for i := range s {
		if len(s)-i >= len(sub) && s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestTrimPunct(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"jo@x.org.", "jo@x.org"},
		{"(555) 123-4567,", "(555) 123-4567"},
		{"(John)", "(John)"},
		{"Müller (GmbH).", "Müller (GmbH)"},
		{"«Paris»", "Paris"},
		{"Smith)", "Smith"},
		{"\"quoted\"", "quoted"},
		{"...", ""},
	} {
		s, e := TrimPunct(c.in, 0, len(c.in))
		if got := c.in[s:e]; got != c.want {
			t.Errorf("TrimPunct(%q) = %q want %q", c.in, got, c.want)
		}
	}
}

func TestPageFromText(t *testing.T) {
	p, offs := PageFromText("  a bc\n\nd\t e ")
	var got []string
	for i, w := range p.Words {
		got = append(got, w.Text)
		if offs[i] < 0 || "  a bc\n\nd\t e "[offs[i]:offs[i]+len(w.Text)] != w.Text {
			t.Errorf("offset of %q wrong: %d", w.Text, offs[i])
		}
	}
	if !slices.Equal(got, []string{"a", "bc", "d", "e"}) {
		t.Errorf("words %q", got)
	}
	if p.Words[1].Line != 0 || p.Words[2].Line != 2 || p.Words[3].Line != 2 {
		t.Errorf("lines %+v", p.Words)
	}
	// Lines that follow each other flow on; a blank line breaks the
	// paragraph, as a wider gap does on a PDF's page.
	v := PageView(p)
	pp, _ := PageFromText("a\nb\n\nc")
	pv := PageView(pp)
	if v.FlowsOn(0) || !pv.FlowsOn(0) || pv.FlowsOn(1) {
		t.Errorf("FlowsOn: across a blank line %v, %v; next line %v", v.FlowsOn(0), pv.FlowsOn(1), pv.FlowsOn(0))
	}
}

// TestDetectMatchesDetectView checks that a recognizer gives the same spans

// through Detect (own view) as through Run (shared view).

// TestEndsSentence checks the one sentence-end predicate and address

// growth's narrowing of it: an abbreviation's full stop ends no address.

// TestEndsSentence checks the one sentence-end predicate.
func TestEndsSentence(t *testing.T) {
	for _, c := range []struct {
		text string
		word int
		ends bool
	}{
		{"I went home. Then", 2, true},
		{`you?" he`, 0, true},
		{"(ok!) Then", 0, true},
		{"home, then", 0, false},
		{"Apt. 676", 0, true},
		{"Acme Inc., Boston", 1, false},
	} {
		p, _ := PageFromText(c.text)
		if got := EndsSentence(PageView(p), c.word); got != c.ends {
			t.Errorf("EndsSentence(%q, %d) = %v, want %v", c.text, c.word, got, c.ends)
		}
	}
}
