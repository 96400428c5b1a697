package ocreval

import (
	"math"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"flaw", "lawn", 2},
		{"Straße", "Strasse", 2}, // runes, not bytes: ß→s plus an s
		{"naïve", "naive", 1},
		{"same", "same", 0},
	} {
		if got := Levenshtein([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Levenshtein([]rune(c.b), []rune(c.a)); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  a \t b\n c  ", "a b c"},
		{"\u201cquoted\u201d \u2018x\u2019", `"quoted" 'x'`},
		{"2019\u20132020 \u2014 a\u2212b", "2019-2020 - a-b"},
		{"\ufb01le \ufb02ow e\ufb03cient", "file flow efficient"},
		{"\uff21\uff22\uff23\uff11", "ABC1"}, // full-width forms
		{"wait\u2026", "wait..."},
		{"a\u00a0b", "a b"},   // no-break space
		{"e\u0301", "\u00e9"}, // composed
		{"non\u2011breaking", "non-breaking"},
		{"co\u00adoperate", "cooperate"}, // soft hyphen
		{"\u2022 item \u00b7", "\u00b7 item \u00b7"},
		{"''iDEAL'' \u2018\u2019x\u2019\u2019", `"iDEAL" "x"`},
		{"Case Kept", "Case Kept"},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// line builds a truth line of words laid out left to right at height y,
// each word 10 pixels per rune wide with 10 pixels between words.
func line(y float64, words ...string) Line {
	var l Line
	x := 0.0
	for _, w := range words {
		b := Box{x, y, x + 10*float64(len([]rune(w))), y + 20}
		l.Words = append(l.Words, Word{Text: w, Box: b})
		if len(l.Words) == 1 {
			l.Box = b
		}
		l.Box = l.Box.union(b)
		x = b.X1 + 10
	}
	return l
}

// words returns the words of lines, as a system reading them perfectly.
func words(lines ...Line) []Word {
	var out []Word
	for _, l := range lines {
		out = append(out, l.Words...)
	}
	return out
}

func shift(ws []Word, dx, dy float64) []Word {
	out := make([]Word, len(ws))
	for i, w := range ws {
		out[i] = Word{w.Text, Box{w.Box.X0 + dx, w.Box.Y0 + dy, w.Box.X1 + dx, w.Box.Y1 + dy}}
	}
	return out
}

func TestScore(t *testing.T) {
	l1 := line(0, "Invoice", "number", "42")
	l2 := line(40, "Jane", "Smith")
	far := Word{"logo", Box{1000, 1000, 1040, 1020}}
	truth := []Line{l1, l2}
	chars := len("Invoice number 42") + len("Jane Smith") // 17 + 10
	for _, c := range []struct {
		name  string
		got   []Word
		edits int
		found int
		extra int
	}{
		{"perfect", words(l1, l2), 0, 5, 0},
		{"reading order does not matter", words(l2, l1), 0, 5, 0},
		{"words out of order within a line are sorted by x", []Word{l1.Words[2], l1.Words[0], l1.Words[1], l2.Words[1], l2.Words[0]}, 0, 5, 0},
		{"boxes off by a few pixels", shift(words(l1, l2), 4, 3), 0, 5, 0},
		{"nothing read", nil, chars, 0, 0},
		{"one character wrong", append(words(l1), Word{"Jane", l2.Words[0].Box}, Word{"Smlth", l2.Words[1].Box}), 1, 4, 0},
		{"a missing word costs it and its space", append(words(l1), l2.Words[0]), len(" Smith"), 4, 0},
		{"words outside every line are extra, not errors", append(words(l1, l2), far), 0, 5, 1},
		{"two words read as one", append([]Word{{"Invoicenumber", l1.Words[0].Box.union(l1.Words[1].Box)}, l1.Words[2]}, words(l2)...), 1, 3, 0},
		{"typographic variants match", []Word{{"Invoice", l1.Words[0].Box}, {"number", l1.Words[1].Box}, {"\uff14\uff12", l1.Words[2].Box}, l2.Words[0], l2.Words[1]}, 0, 5, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Score(truth, c.got)
			want := Tally{Lines: 2, Chars: chars, Edits: c.edits, TruthWords: 5, Found: c.found, Extra: c.extra}
			if got != want {
				t.Errorf("Score = %+v, want %+v", got, want)
			}
		})
	}
}

// TestScoreNearestLine checks a word whose centre falls in two padded
// line boxes goes to the nearer line only.
func TestScoreNearestLine(t *testing.T) {
	a := line(0, "upper")
	b := line(22, "lower") // padded boxes overlap between y 16.5 and 25
	// Both centres (y 17 and 24) lie in the overlap.
	got := Score([]Line{a, b}, []Word{{"upper", Box{0, 7, 50, 27}}, {"lower", Box{0, 14, 50, 34}}})
	if got.Edits != 0 || got.Found != 2 {
		t.Errorf("Score = %+v, want every word on its own line", got)
	}
}

func TestTallyRates(t *testing.T) {
	var tot Tally
	if !math.IsNaN(tot.CER()) || !math.IsNaN(tot.Recall()) {
		t.Error("empty tally should have NaN rates")
	}
	tot.Add(Tally{Chars: 100, Edits: 3, TruthWords: 20, Found: 18})
	tot.Add(Tally{Chars: 300, Edits: 1, TruthWords: 60, Found: 60, Extra: 2})
	if tot.CER() != 0.01 || tot.Recall() != 0.975 || tot.Extra != 2 {
		t.Errorf("tally %+v: CER %v recall %v", tot, tot.CER(), tot.Recall())
	}
}

func TestParseTSV(t *testing.T) {
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t1700\t2200\t-1\t\n" +
		"4\t1\t1\t1\t1\t0\t100\t200\t300\t40\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t100\t200\t120\t40\t96.5\tInvoice\n" +
		"5\t1\t1\t1\t1\t2\t240\t200\t60\t40\t91.0\t42\n" +
		"5\t1\t1\t1\t1\t3\t310\t200\t10\t40\t95.0\t \n"
	got, err := ParseTSV(tsv)
	if err != nil {
		t.Fatal(err)
	}
	want := []Word{{"Invoice", Box{100, 200, 220, 240}}, {"42", Box{240, 200, 300, 240}}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("ParseTSV = %+v, want %+v", got, want)
	}
	if _, err := ParseTSV("header\n5\t1\tshort\n"); err == nil {
		t.Error("a short row should fail")
	}
}

func TestUsable(t *testing.T) {
	mk := func(n int, text string) []page.Word {
		ws := make([]page.Word, n)
		for i := range ws {
			x := float64(i * 30)
			ws[i] = page.Word{Text: text, Quad: page.Quad{UL: page.Point{X: x, Y: 0}, UR: page.Point{X: x + 20, Y: 0}, LL: page.Point{X: x, Y: 10}, LR: page.Point{X: x + 20, Y: 10}}}
		}
		return ws
	}
	rotated := mk(50, "word")
	for i := range rotated {
		q := &rotated[i].Quad
		q.UR = page.Point{X: q.UL.X, Y: q.UL.Y - 20} // running upwards
	}
	for _, c := range []struct {
		name  string
		words []page.Word
		want  bool
	}{
		{"plain words", mk(50, "Invoice"), true},
		{"too few", mk(39, "Invoice"), false},
		{"replacement characters", mk(50, "\ufffd\ufffd\ufffd"), false},
		{"symbol soup", mk(50, "3(1',1*"), false},
		{"consonant soup", mk(50, "Xqjrtz"), false},
		{"not Latin", mk(50, "Счёт"), false},
		{"rotated words do not count", rotated, false},
		{"a few symbols among words", append(mk(50, "Total"), mk(5, "—")...), true},
	} {
		if got := Usable(c.words, 40); got != c.want {
			t.Errorf("%s: Usable = %v, want %v", c.name, got, c.want)
		}
	}
}
