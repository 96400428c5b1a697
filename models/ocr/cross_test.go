package ocr

import (
	"strings"
	"testing"
)

func TestShapeDoubt(t *testing.T) {
	for w, want := range map[string]bool{
		"LouisVille": true, "ZuZanna": true, "Grass0": true, "Ø844": true, "2O24": true, "S.r.!.": true,
		"Zuzanna.jankowski@example.org": true, "delgado@ínbox.example.eu": true,
		"Louisville": false, "Müller": false, "GmbH": false, "L717": false, "DE89": false, "2024": false,
		"S.p.A.": false, "jane.doe@example.org": false, "O'Brien": false, "Pătrașcu": false,
		"McDonald": false, "MacLeod": false, "Hello!": false, "Tel|": true,
	} {
		if got := shapeDoubt(w); got != want {
			t.Errorf("shapeDoubt(%q) = %v, want %v", w, got, want)
		}
	}
}

func wordsOf(s string, conf float32) []Word {
	var ws []Word
	for _, f := range strings.Fields(s) {
		ws = append(ws, Word{Text: f, Conf: conf, minP: conf})
	}
	return ws
}

func lineOf(s string, conf float32) Line {
	return Line{Text: s, Conf: conf, Words: wordsOf(s, conf)}
}

func TestIBANSpans(t *testing.T) {
	for _, c := range []struct {
		text  string
		spans []ibanSpan
	}{
		{"IBAN DE89 3704 0044 0532 0130 00 at Northwind", []ibanSpan{{1, 7, true}}},
		{"IBAN DE89 3704 0044 0532 0130 09 at Northwind", []ibanSpan{{1, 7, false}}},
		{"IBAN DE89370400440532013000", []ibanSpan{{1, 2, true}}},
		{"Invoice 2024-0173 to Jane", nil},
	} {
		got := ibanSpans(lineOf(c.text, 1).Words)
		if len(got) != len(c.spans) {
			t.Errorf("%q: spans %v, want %v", c.text, got, c.spans)
			continue
		}
		for i := range got {
			if got[i] != c.spans[i] {
				t.Errorf("%q: spans %v, want %v", c.text, got, c.spans)
			}
		}
	}
}

func TestMergeReadings(t *testing.T) {
	for _, c := range []struct {
		name       string
		latin, pp  Line
		want       string
		latinWords []float32 // word confidences of the latin reading, when not all its line's
	}{
		{name: "marks kept", latin: lineOf("Jürgen Müller", 0.95), pp: lineOf("Jurgen Muller", 0.99), want: "Jürgen Müller"},
		{name: "shape doubt taken", latin: lineOf("Garden CitV, KS", 0.95), pp: lineOf("Garden City, KS", 0.95), want: "Garden City, KS"},
		{name: "both doubtful: latin stays", latin: lineOf("ZuZanna", 0.95), pp: lineOf("ZuZAnna", 0.99), want: "ZuZanna"},
		{name: "unsure word, surer pp", latin: lineOf("Tel. 9648 337", 0.95), pp: lineOf("Tel. 0648 337", 0.99), latinWords: []float32{0.99, 0.5, 0.99}, want: "Tel. 0648 337"},
		{name: "sure word stays", latin: lineOf("Tel. 9648 337", 0.99), pp: lineOf("Tel. 0648 337", 0.99), want: "Tel. 9648 337"},
		{name: "iban check digits", latin: lineOf("IBAN DE89 3704 0044 0532 0130 09", 0.99), pp: lineOf("IBAN DE89 3704 0044 0532 0130 00", 0.99), want: "IBAN DE89 3704 0044 0532 0130 00"},
		{name: "iban failing both: latin stays", latin: lineOf("IBAN DE89 3704 0044 0532 0130 09", 0.99), pp: lineOf("IBAN DE89 3704 0044 0532 0130 08", 0.99), want: "IBAN DE89 3704 0044 0532 0130 09"},
		{name: "e-mail marks not kept", latin: lineOf("a@ínbox.eu", 0.95), pp: lineOf("a@inbox.eu", 0.95), want: "a@inbox.eu"},
		{name: "a letter pp lacks: latin stays", latin: lineOf("Małgorzata Żółkiewska", 0.97), pp: lineOf("Malgorzata Zotkiewska", 0.99), latinWords: []float32{0.97, 0.4}, want: "Małgorzata Żółkiewska"},
		{name: "words differ, sure latin stays", latin: lineOf("Łukasz Wiśniewski", 0.95), pp: lineOf("Lukasz Wis niewski", 0.99), want: "Łukasz Wiśniewski"},
		{name: "words differ, unsure latin: pp with latin's marks", latin: lineOf("Łukasz Wiśniewskl x", 0.6), pp: lineOf("Lukasz Wisniewski", 0.9), want: "Łukasz Wisniewski"},
	} {
		for i, cf := range c.latinWords {
			c.latin.Words[i].Conf, c.latin.Words[i].minP = cf, cf
		}
		if got := mergeReadings(c.latin, c.pp, func(w string) bool { return !strings.ContainsAny(w, "łŁżŻ") }).Text; got != c.want {
			t.Errorf("%s: merge(%q, %q) = %q, want %q", c.name, c.latin.Text, c.pp.Text, got, c.want)
		}
	}
}

// TestDoubtfulSpans: a word is read again for a character under
// crossCharConf, but not inside an IBAN whose check digits hold.
func TestDoubtfulSpans(t *testing.T) {
	line := func(text string, doubt int) Line {
		var gs []glyph
		for i, r := range []rune(text) {
			p := float32(0.99)
			if i == doubt {
				p = 0.4
			}
			gs = append(gs, glyph{text: string(r), x: float64(10*i + 5), p: p, space: r == ' '})
		}
		q := Quad{UL: Point{0, 0}, UR: Point{float64(10 * len(gs)), 0}, LR: Point{float64(10 * len(gs)), 10}, LL: Point{0, 10}}
		ws := words(gs, q, float64(10*len(gs)))
		return Line{Text: text, Conf: 0.97, Words: ws}
	}
	all := func(string) bool { return true }
	for _, c := range []struct {
		text  string
		doubt int // the index of the rune read at 0.4
		want  []crossSpan
	}{
		{"E-mail: a@kanzlei-test.de", 0, []crossSpan{{i: 0, from: 0, to: 1}}},
		{"Tel. 9648 337", 5, []crossSpan{{i: 0, from: 1, to: 2}}},
		{"Tel. 9648 337", -1, nil},
		{"IBAN IT60 X054 2811 1010 0000 0123 456", 10, nil},
		{"IBAN IT60 X054 2811 1010 0000 0123 457", 10, []crossSpan{{i: 0, from: 1, to: 8}}},
	} {
		got := doubtfulSpans(0, line(c.text, c.doubt), all)
		if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] {
			t.Errorf("%q, rune %d doubtful: spans %+v, want %+v", c.text, c.doubt, got, c.want)
		}
	}
}

func TestHyphensAndTildes(t *testing.T) {
	for in, want := range map[string]string{
		"kanzlei–test.de": "kanzlei-test.de", "E–mail": "E-mail", "(260) 880–1247": "(260) 880-1247",
		"1990–1995": "1990–1995", "10–12": "10–12", "Paris – Berlin": "Paris – Berlin", "Emĩls Ũla": "Emīls Ūla",
	} {
		var gs []glyph
		for _, r := range in {
			gs = append(gs, glyph{text: string(r), space: r == ' '})
		}
		var b strings.Builder
		for _, g := range tildes(hyphens(gs)) {
			b.WriteString(g.text)
		}
		if b.String() != want {
			t.Errorf("%q read as %q, want %q", in, b.String(), want)
		}
	}
}
