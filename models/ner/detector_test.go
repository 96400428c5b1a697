package ner

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// testPage lays out lines of text as a page: words split on spaces, one
// line id per line, boxes on a 12pt grid.
func testPage(lines ...string) *page.Page {
	p := &page.Page{Width: 612, Height: 792}
	for li, l := range lines {
		x := 72.0
		for _, w := range strings.Fields(l) {
			wd := 6 * float64(utf8.RuneCountInString(w))
			r := page.Rect{X0: x, Y0: 72 + 14*float64(li), X1: x + wd, Y1: 84 + 14*float64(li)}
			p.Words = append(p.Words, page.Word{Text: w, Quad: page.QuadFromRect(r), Line: li, Conf: 1})
			x += wd + 4
		}
	}
	return p
}

// checkSpans asserts what every span must satisfy on p.
func checkSpans(t *testing.T, p *page.Page, spans []page.Span) {
	t.Helper()
	for _, s := range spans {
		if s.First < 0 || s.Last >= len(p.Words) || s.First > s.Last {
			t.Errorf("span %+v out of the page's %d words", s, len(p.Words))
			continue
		}
		if s.Start < 0 || s.Start >= utf8.RuneCountInString(p.Words[s.First].Text) {
			t.Errorf("span %+v: start outside its first word %q", s, p.Words[s.First].Text)
		}
		if s.End < 0 || s.End > utf8.RuneCountInString(p.Words[s.Last].Text) {
			t.Errorf("span %+v: end outside its last word %q", s, p.Words[s.Last].Text)
		}
		if s.Score <= 0 || s.Score > 1 || s.Recognizer != "ner" {
			t.Errorf("span %+v: bad score or recognizer", s)
		}
		switch s.Category {
		case page.Person, page.Organization, page.Address:
		default:
			t.Errorf("span %+v: category %s", s, s.Category)
		}
	}
}

// spanText renders a span's text, honouring partial words.
func spanText(p *page.Page, s page.Span) string {
	var parts []string
	for i := s.First; i <= s.Last; i++ {
		r := []rune(p.Words[i].Text)
		a, b := 0, len(r)
		if i == s.First {
			a = s.Start
		}
		if i == s.Last && s.End != 0 {
			b = s.End
		}
		parts = append(parts, string(r[a:b]))
	}
	return string(s.Category) + ":" + strings.Join(parts, " ")
}

func TestDetectorDocument(t *testing.T) {
	m := builtin(t)
	p := testPage(
		"INVOICE",
		"Bill to:",
		"John Smith",
		"Acme Corp",
		"12 Main Street",
		"Springfield, IL 62704",
		"Dear Mr. Smith,",
		"thank you for your order. Please pay within 30 days.",
	)
	spans, err := NewDetector(m, DetectorOptions{}).Detect(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	checkSpans(t, p, spans)
	var got []string
	for _, s := range spans {
		got = append(got, spanText(p, s))
	}
	for _, want := range []string{"Person:John Smith", "Organization:Acme Corp"} {
		if !slices.Contains(got, want) {
			t.Errorf("spans %q lack %q", got, want)
		}
	}
	// The address runs over two lines: every word of both is masked.
	covered := map[int]bool{}
	for _, s := range spans {
		if s.Category == page.Address {
			for i := s.First; i <= s.Last; i++ {
				covered[i] = true
			}
		}
	}
	for i, w := range p.Words {
		if (w.Line == 4 || w.Line == 5) && !covered[i] {
			t.Errorf("address word %q not in an Address span (spans %q)", w.Text, got)
		}
	}
}

// TestDetectorPartialWord: punctuation glued to a name stays unmasked.
func TestDetectorPartialWord(t *testing.T) {
	m := builtin(t)
	p := testPage("Contact: (John Smith), thanks.")
	spans, err := NewDetector(m, DetectorOptions{}).Detect(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	checkSpans(t, p, spans)
	for _, s := range spans {
		if s.Category == page.Person {
			if got := spanText(p, s); got != "Person:John Smith" {
				t.Errorf("person span %q, want Person:John Smith", got)
			}
			return
		}
	}
	t.Errorf("no person in %v", spans)
}

func TestDetectorEmptyPage(t *testing.T) {
	m := builtin(t)
	spans, err := NewDetector(m, DetectorOptions{}).Detect(context.Background(), &page.Page{})
	if err != nil || len(spans) != 0 {
		t.Fatalf("empty page: %v %v", spans, err)
	}
	// Words made only of spaces or nothing.
	p := &page.Page{Words: []page.Word{{Text: ""}, {Text: " ", Line: 1}}}
	if _, err := NewDetector(m, DetectorOptions{}).Detect(context.Background(), p); err != nil {
		t.Fatal(err)
	}
}

// TestDetectorLongPage: many lines and a line longer than a window.
func TestDetectorLongPage(t *testing.T) {
	m := builtin(t)
	var lines []string
	for i := range 120 {
		if i%10 == 0 {
			lines = append(lines, strings.Repeat("word ", 150)+"Maria Garcia")
			continue
		}
		lines = append(lines, "Line of text number about the contract with Globex Corporation .")
	}
	p := testPage(lines...)
	spans, err := NewDetector(m, DetectorOptions{}).Detect(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	checkSpans(t, p, spans)
}

func TestWindows(t *testing.T) {
	mk := func(line, n int) unit {
		u := unit{line: line}
		for range n {
			u.toks = append(u.toks, "x")
			u.refs = append(u.refs, tokRef{})
		}
		return u
	}
	tests := []struct {
		name  string
		units []unit
		n     int
		want  []window
	}{
		{"one", []unit{mk(0, 3)}, 10, []window{{0, 1}}},
		{"pack with overlap", []unit{mk(0, 3), mk(1, 3), mk(2, 3), mk(3, 3)}, 8, []window{{0, 2}, {1, 3}, {2, 4}}},
		{"too long alone", []unit{mk(0, 10), mk(0, 2), mk(1, 10)}, 10, []window{{0, 1}, {1, 2}, {2, 3}}},
		{"same line no NL", []unit{mk(0, 5), mk(0, 5)}, 10, []window{{0, 2}}},
	}
	for _, tt := range tests {
		if got := windows(tt.units, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("%s: windows = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestAssemble: each token takes its label from the window where it has
// the most context on its shorter side (the page's ends count as whole),
// so a line two windows share is split between them at its middle.
func TestAssemble(t *testing.T) {
	mk := func(line int, toks ...string) unit {
		return unit{line: line, toks: toks, refs: make([]tokRef, len(toks))}
	}
	lab := func(e Entity) Label { return Label{Entity: e} }
	tag := func(e Entity, n int) Tagged {
		tg := Tagged{}
		for range n {
			tg.Labels = append(tg.Labels, lab(e))
			tg.Scores = append(tg.Scores, 1)
		}
		return tg
	}
	tests := []struct {
		name     string
		units    []unit
		wins     []window
		wantToks []string
		want     []Entity
	}{
		{
			// Window 0: a b NL c (PER); window 1: c NL d e (ORG). "c" has
			// no context after it in window 0 and none before it in window
			// 1: a tie, so window 0's. The NL after it only window 1 holds.
			name:     "one-token line shared",
			units:    []unit{mk(0, "a", "b"), mk(1, "c"), mk(2, "d", "e")},
			wins:     []window{{0, 2}, {1, 3}},
			wantToks: []string{"a", "b", NL, "c", NL, "d", "e"},
			want:     []Entity{Person, Person, Person, Person, Organization, Organization, Organization},
		},
		{
			name:     "long line shared",
			units:    []unit{mk(0, "a", "b"), mk(1, "s1", "s2", "s3", "s4"), mk(2, "d", "e")},
			wins:     []window{{0, 2}, {1, 3}},
			wantToks: []string{"a", "b", NL, "s1", "s2", "s3", "s4", NL, "d", "e"},
			want:     []Entity{Person, Person, Person, Person, Person, Organization, Organization, Organization, Organization, Organization},
		},
		{
			// A window of one unit ends before the NL after it; the next
			// window starts after it.
			name:     "NL between windows",
			units:    []unit{mk(0, "a"), mk(1, "b")},
			wins:     []window{{0, 1}, {1, 2}},
			wantToks: []string{"a", NL, "b"},
			want:     []Entity{Person, None, Organization},
		},
	}
	for _, tt := range tests {
		var tagged []Tagged
		for i, w := range tt.wins {
			e := Person
			if i%2 == 1 {
				e = Organization
			}
			tagged = append(tagged, tag(e, len(w.tokens(tt.units))))
		}
		toks, _, labels, _ := assemble(tt.units, tt.wins, nil, tagged, nil)
		if !slices.Equal(toks, tt.wantToks) {
			t.Fatalf("%s: tokens %q, want %q", tt.name, toks, tt.wantToks)
		}
		for i, l := range labels {
			if l.Entity != tt.want[i] {
				t.Errorf("%s: token %d %q: %v, want %v", tt.name, i, toks[i], l.Entity, tt.want[i])
			}
		}
	}
}

// TestMeanLabels: a token two windows hold is decoded from the mean of
// their probabilities; a token one window holds from its own.
func TestMeanLabels(t *testing.T) {
	// Two classes: O and B-PER. Page tokens 0..3; window 0 holds 0..2,
	// window 1 holds 2..3.
	spans := [][2]int{{0, 3}, {2, 4}}
	tagged := []Tagged{
		{Labels: make([]Label, 3), Probs: []float32{0.9, 0.1, 0.2, 0.8, 0.3, 0.7}},
		{Labels: make([]Label, 2), Probs: []float32{0.9, 0.1, 0.4, 0.6}},
	}
	var got []float32
	dec := func(p []float32, n int) ([]Label, []float32) {
		got = append([]float32(nil), p...)
		ls, ss := make([]Label, n), make([]float32, n)
		for i := range n {
			if p[2*i+1] > p[2*i] {
				ls[i] = Label{Entity: Person}
			}
			ss[i] = max(p[2*i], p[2*i+1])
		}
		return ls, ss
	}
	labels, scores, ok := meanLabels(4, spans, tagged, dec)
	if !ok {
		t.Fatal("meanLabels refused windows with probabilities")
	}
	want := []float32{0.9, 0.1, 0.2, 0.8, 0.6, 0.4, 0.4, 0.6}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("mean probabilities %v, want %v", got, want)
		}
	}
	wantE := []Entity{None, Person, None, Person}
	for i, l := range labels {
		if l.Entity != wantE[i] {
			t.Errorf("token %d: %v, want %v (score %v)", i, l.Entity, wantE[i], scores[i])
		}
	}
	// A window without probabilities (a Hugging Face model) falls back.
	tagged[1].Probs = nil
	if _, _, ok := meanLabels(4, spans, tagged, dec); ok {
		t.Error("meanLabels took a window without probabilities")
	}
}

func TestDecode(t *testing.T) {
	P := func(in bool) Label { return Label{Entity: Person, Inside: in} }
	A := func(in bool) Label { return Label{Entity: Address, Inside: in} }
	L := func(in bool) Label { return Label{Entity: Location, Inside: in} }
	G := func(in bool) Label { return Label{Entity: Organization, Inside: in} }
	M := func(in bool) Label { return Label{Entity: Misc, Inside: in} }
	tests := []struct {
		name   string
		toks   []string
		labels []Label
		want   []Span
	}{
		{"plain", []string{"a", "b", "c"}, []Label{P(false), P(true), O}, []Span{{Person, 0, 1, 1}}},
		{"I after O starts", []string{"a", "b"}, []Label{O, P(true)}, []Span{{Person, 1, 1, 1}}},
		{"type change", []string{"a", "b"}, []Label{P(false), A(true)}, []Span{{Person, 0, 0, 1}, {Address, 1, 1, 1}}},
		{"place inside a person", []string{"a", "b", "c"}, []Label{P(false), L(true), P(true)}, []Span{{Person, 0, 2, 1}}},
		{"person after a place", []string{"a", "b"}, []Label{L(false), P(true)}, []Span{{Person, 0, 1, 1}}},
		{"organization after a place", []string{"a", "b", "c"}, []Label{L(false), L(true), G(true)}, []Span{{Organization, 0, 2, 1}}},
		{"misc inside an address", []string{"a", "b"}, []Label{A(false), M(true)}, []Span{{Address, 0, 1, 1}}},
		{"place then misc", []string{"a", "b"}, []Label{L(false), M(true)}, []Span{{Location, 0, 0, 1}, {Misc, 1, 1, 1}}},
		{"B of a place splits", []string{"a", "b"}, []Label{P(false), L(false)}, []Span{{Person, 0, 0, 1}, {Location, 1, 1, 1}}},
		{"B splits", []string{"a", "b"}, []Label{P(false), P(false)}, []Span{{Person, 0, 0, 1}, {Person, 1, 1, 1}}},
		{"NL inside", []string{"a", NL, "b"}, []Label{A(false), A(true), A(true)}, []Span{{Address, 0, 2, 1}}},
		{"NL trimmed", []string{NL, "a", NL}, []Label{A(false), A(true), A(true)}, []Span{{Address, 1, 1, 1}}},
		{"punct trimmed", []string{"(", "a", ")", ","}, []Label{P(false), P(true), P(true), P(true)}, []Span{{Person, 1, 1, 1}}},
		{"dot and paren kept", []string{"a", "(", "b", ")", "."}, []Label{P(false), P(true), P(true), P(true), P(true)}, []Span{{Person, 0, 4, 1}}},
		{"only NL", []string{NL}, []Label{A(false)}, nil},
		{"function word trimmed", []string{"Acme", "Corp", "in"}, []Label{P(false), P(true), P(true)}, []Span{{Person, 0, 1, 1}}},
		{"lone function word kept", []string{"in"}, []Label{P(false)}, []Span{{Person, 0, 0, 1}}},
	}
	for _, tt := range tests {
		scores := make([]float32, len(tt.toks))
		for i := range scores {
			scores[i] = 1
		}
		if got := Decode(tt.toks, tt.labels, scores); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseLabel(t *testing.T) {
	tests := map[string]Label{
		"O":                O,
		"B-PER":            {Person, false},
		"I-PER":            {Person, true},
		"B-ORG":            {Organization, false},
		"I-LOC":            {Location, true},
		"B-ADDR":           {Address, false},
		"S-PERSON":         {Person, false},
		"E-ORGANIZATION":   {Organization, true},
		"U-GPE":            {Location, false},
		"B-MISC":           {Misc, false},
		"PER":              {Person, true},
		"B-STREET_ADDRESS": {Address, false},
	}
	for in, want := range tests {
		if got := ParseLabel(in); got != want {
			t.Errorf("ParseLabel(%q) = %v, want %v", in, got, want)
		}
		if got := ParseLabel(in).String(); in[0] == 'B' || in[0] == 'I' || in == "O" {
			if strings.HasSuffix(in, "PER") || strings.HasSuffix(in, "ORG") || in == "O" {
				if got != in {
					t.Errorf("String() = %q, want %q", got, in)
				}
			}
		}
	}
}

// TestDecodeLogitsRecallBias checks Options.EntityProb: an entity label
// likely enough wins over a likelier O, or a likelier MISC (which the
// detector does not mask either), and 1 restores plain argmax; and
// Options.PersonProb, the same bar for person labels alone.
func TestDecodeLogitsRecallBias(t *testing.T) {
	misc := Label{Entity: Misc}
	per, org := Label{Entity: Person}, Label{Entity: Organization}
	for _, tc := range []struct {
		labels       []string
		row          []float32
		prob, person float32
		want         Label
	}{
		// p(O) ≈ 0.67, p(B-PER) ≈ 0.24, p(I-PER) ≈ 0.09.
		{[]string{"O", "B-PER", "I-PER"}, []float32{1, 0, -1}, 0.2, 0.2, per},
		{[]string{"O", "B-PER", "I-PER"}, []float32{1, 0, -1}, 0.3, 0.3, O},
		{[]string{"O", "B-PER", "I-PER"}, []float32{1, 0, -1}, 1, 1, O},
		// p(B-MISC) ≈ 0.67, p(B-ORG) ≈ 0.24: MISC is held down as O is,
		// and a likely MISC is never chosen over O for the bias.
		{[]string{"O", "B-ORG", "B-MISC"}, []float32{-1, 0, 1}, 0.2, 0.2, org},
		{[]string{"O", "B-ORG", "B-MISC"}, []float32{-1, 0, 1}, 0.3, 0.3, misc},
		{[]string{"O", "B-MISC", "B-ORG"}, []float32{1, 0.5, -3}, 0.2, 0.2, O},
		// p(O) ≈ 0.84, p(B-PER) = p(B-ORG) ≈ 0.08: only the person's bar
		// is that low.
		{[]string{"O", "B-PER", "B-ORG"}, []float32{2.4, 0, 0}, 0.2, 0.05, per},
		{[]string{"O", "B-ORG", "B-PER"}, []float32{2.4, 0, 0}, 0.05, 0.2, org},
		{[]string{"O", "B-PER", "B-ORG"}, []float32{2.4, 0, 0}, 0.2, 0.1, O},
		// p(B-ORG) ≈ 0.15 misses its bar of 0.2, p(B-PER) ≈ 0.12 reaches
		// its own of 0.1: the person wins though the organization is
		// likelier.
		{[]string{"O", "B-ORG", "B-PER"}, []float32{1.7, 0, -0.25}, 0.2, 0.1, per},
		{[]string{"O", "B-ORG", "B-PER"}, []float32{1.7, 0, -0.25}, 0.1, 0.1, org},
	} {
		m := &Model{opts: Options{EntityProb: tc.prob, PersonProb: tc.person}}
		m.setLabels(tc.labels)
		got, p := m.decodeLogits(tc.row)
		if got != tc.want {
			t.Errorf("%v %v EntityProb %v PersonProb %v: label %v (p %.2f), want %v", tc.labels, tc.row, tc.prob, tc.person, got, p, tc.want)
		}
	}
}

// TestViterbiPersonBias checks that the CRF path honours PersonProb as
// per-token decoding does: a weak person token becomes a span under a
// low person bar, an organization token as weak does not.
func TestViterbiPersonBias(t *testing.T) {
	c := &CRF{
		Transitions: [][]float32{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
		Start:       []float32{0, 0, 0},
		End:         []float32{0, 0, 0},
	}
	emit := []float32{2.4, 0, 0} // p(O) ≈ 0.84, p(B-PER) = p(B-ORG) ≈ 0.08
	for _, tc := range []struct {
		person float32
		want   int
	}{{0.2, 0}, {0.1, 0}, {0.05, 1}} {
		m := &Model{opts: Options{EntityProb: 0.2, PersonProb: tc.person}}
		m.setLabels([]string{"O", "B-PER", "B-ORG"})
		got := make([]int, 1)
		c.viterbi(emit, 1, 3, m.bias, got)
		if got[0] != tc.want {
			t.Errorf("PersonProb %v: label %d, want %d", tc.person, got[0], tc.want)
		}
	}
}

// BenchmarkDetectPage runs the detector over a page of 48 lines of prose
// (the bench sentences wrapped at about 80 bytes): windows, one TagAll,
// the mean over shared lines and the spans; "capitals" is the same page
// in capitals, read three times (DetectorOptions.LowerCase).
func BenchmarkDetectPage(b *testing.B) {
	m := builtin(b)
	var lines []string
	line := ""
	for i := 0; len(lines) < 48; i++ {
		for _, w := range strings.Fields(benchSentences[i%len(benchSentences)]) {
			if len(line)+len(w) > 80 {
				lines = append(lines, line)
				line = ""
			}
			line = strings.TrimSpace(line + " " + w)
		}
	}
	caps := make([]string, len(lines))
	for i, l := range lines {
		caps[i] = strings.ToUpper(l)
	}
	d := NewDetector(m, DetectorOptions{LowerCase: func(w string) bool { return len(w) < 4 }})
	for _, bc := range []struct {
		name  string
		lines []string
	}{{"mixed", lines}, {"capitals", caps}} {
		b.Run(bc.name, func(b *testing.B) {
			p := testPage(bc.lines...)
			ctx := context.Background()
			for b.Loop() {
				if _, err := d.Detect(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// TestCaseViews: a window mostly in capitals is read twice more, its
// lines in capitals truecased and in lower case; a window mostly in
// lower case is not, and without LowerCase nothing is.
func TestCaseViews(t *testing.T) {
	m := builtin(t)
	lower := map[string]bool{"the": true, "report": true, "by": true, "was": true, "written": true}
	d := NewDetector(m, DetectorOptions{LowerCase: func(w string) bool { return lower[w] }})
	caps := testPage("THE REPORT WAS WRITTEN BY MARIA GARCIA", "Page 2 of 7")
	units := d.units(caps, nil, nil)
	wins := windows(units, 64)
	views := d.caseViews(units, wins)
	if len(views) != 2 {
		t.Fatalf("%d views of a page in capitals, want 2", len(views))
	}
	want := [][]string{
		{"the", "report", "was", "written", "by", "Maria", "Garcia", NL, "Page", "2", "of", "7"},
		{"the", "report", "was", "written", "by", "maria", "garcia", NL, "Page", "2", "of", "7"},
	}
	for i, v := range views {
		if v.win != 0 || !slices.Equal(v.toks, want[i]) {
			t.Errorf("view %d: window %d %q, want window 0 %q", i, v.win, v.toks, want[i])
		}
	}
	mixed := testPage("The report was written by Maria Garcia", "SUMMARY")
	if v := d.caseViews(d.units(mixed, nil, nil), windows(d.units(mixed, nil, nil), 64)); len(v) != 0 {
		t.Errorf("%d views of a page mostly in lower case, want none", len(v))
	}
	plain := NewDetector(m, DetectorOptions{})
	if v := plain.caseViews(units, wins); len(v) != 0 {
		t.Errorf("%d views without LowerCase, want none", len(v))
	}
	// Detect reads the views, keeps spans on the page and reports the
	// readings.
	var got [2]int
	d.o.ObserveWindows = func(w, r int) { got = [2]int{w, r} }
	spans, err := d.Detect(context.Background(), caps)
	if err != nil {
		t.Fatal(err)
	}
	checkSpans(t, caps, spans)
	if got != [2]int{1, 2} {
		t.Errorf("page in capitals: observed %d windows and %d rereads, want 1 and 2", got[0], got[1])
	}
	if _, err := d.Detect(context.Background(), mixed); err != nil {
		t.Fatal(err)
	}
	if got != [2]int{1, 0} {
		t.Errorf("page in mixed case: observed %d windows and %d rereads, want 1 and 0", got[0], got[1])
	}
}
