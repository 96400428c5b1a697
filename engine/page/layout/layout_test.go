package layout

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// TestBuild runs the cases of testdata/*, in pebble's datadriven format.
// Each case draws glyphs the way MuPDF reports them (Helvetica advances,
// boxes from 1.075 em above the baseline to 0.3 em below) and prints the
// words built from them, a line of output per line, words separated by
// " | ". Input lines, in drawing order:
//
//	line x y size [tc=em] [angle=deg] [order=rtl|words-back] [hint=glyph|prev] text
//	stack x y size pitch text
//	comb x y size pitch text
//	bold x y size text
//	ligature x y size before lig after
//
// line draws text with its baseline starting at (x, y) in display space
// (y down), tc ems of letter spacing after every glyph, turned angle
// degrees (counter-clockwise as seen), its glyphs or words in reverse
// order; each line directive is one producer line, or each glyph its
// own with hint=glyph (as MuPDF reports glyphs drawn backwards), or the
// line directive's before with hint=prev; x "+"
// continues where the line before ended. stack
// draws text one glyph per line, centred on x, from baseline y down at
// pitch. comb draws text one glyph per box of pitch points from x,
// centred, each glyph its own producer line (a space leaves a box
// empty). bold draws text twice, 0.4 pt apart (fake bold). ligature draws
// before, lig as one ligature glyph and after, as MuPDF reports them.
// Command
// arguments: shuffle draws all glyphs in a random order, each its own
// producer line; ink builds with Builder.Ink. Every word must have one quad per rune.
func TestBuild(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var b Builder
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "build" {
				d.Fatalf(t, "unknown command %s", d.Cmd)
			}
			gs := glyphs(t, d)
			b.Ink = d.HasArg("ink")
			if d.HasArg("shuffle") {
				rng := rand.New(rand.NewPCG(1, 2))
				rng.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
				for i := range gs {
					gs[i].Line = int32(i)
				}
			}
			words, next := b.Build(nil, gs, page.SourceTextLayer, 0)
			var out strings.Builder
			last := -1
			for _, w := range words {
				if n := utf8.RuneCountInString(w.Text); n != len(w.Chars) {
					t.Errorf("%q has %d runes and %d quads", w.Text, n, len(w.Chars))
				}
				if w.Line != last {
					if last >= 0 {
						out.WriteByte('\n')
					}
					last = w.Line
				} else {
					out.WriteString(" | ")
				}
				out.WriteString(w.Text)
			}
			if len(words) > 0 && next != words[len(words)-1].Line+1 {
				t.Errorf("next line %d after line %d", next, words[len(words)-1].Line)
			}
			out.WriteByte('\n')
			return out.String()
		})
	})
}

// glyphs parses the input of d.
func glyphs(t *testing.T, d *datadriven.TestData) []Glyph {
	var gs []Glyph
	pen := 0.0 // where the last line directive ended
	var prevLine int32
	for n, l := range strings.Split(d.Input, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		f := strings.Fields(l)
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				d.Fatalf(t, "%s: %v", l, err)
			}
			return v
		}
		switch f[0] {
		case "line":
			x, y, size := pen, num(2), num(3)
			if f[1] != "+" {
				x = num(1)
			}
			opts := map[string]string{}
			rest := f[4:]
			for len(rest) > 0 && strings.Contains(rest[0], "=") {
				k, v, _ := strings.Cut(rest[0], "=")
				opts[k] = v
				rest = rest[1:]
			}
			tc, _ := strconv.ParseFloat(opts["tc"], 64)
			angle, _ := strconv.ParseFloat(opts["angle"], 64)
			text := strings.Join(rest, " ")
			var line []Glyph
			adv := 0.0
			for _, r := range text {
				line = append(line, glyph(r, x, y, size, angle, adv, int32(n)))
				adv += width(r, size) + tc*size
			}
			pen = x + adv
			switch opts["order"] {
			case "rtl":
				reverse(line)
			case "words-back":
				var words [][]Glyph
				s := 0
				for i := range line {
					if line[i].R == ' ' {
						words = append(words, line[s:i+1])
						s = i + 1
					}
				}
				words = append(words, line[s:])
				var out []Glyph
				for i := len(words) - 1; i >= 0; i-- {
					out = append(out, words[i]...)
				}
				line = out
			}
			switch opts["hint"] {
			case "glyph":
				for i := range line {
					line[i].Line = int32(1000*n + i)
				}
			case "prev":
				for i := range line {
					line[i].Line = prevLine
				}
			}
			prevLine = line[0].Line
			gs = append(gs, line...)
		case "stack":
			x, y, size, pitch := num(1), num(2), num(3), num(4)
			for i, r := range strings.Join(f[5:], " ") {
				if r != ' ' {
					gs = append(gs, glyph(r, x-width(r, size)/2, y+float64(i)*pitch, size, 0, 0, int32(1000*n+i)))
				}
			}
		case "ligature":
			// before, then a ligature of lig as MuPDF reports one (its
			// first letter spanning it, the others empty at its end),
			// then after, starting 0.02 pt early (kerning, rounding).
			x, y, size := num(1), num(2), num(3)
			adv := 0.0
			for _, r := range f[4] {
				gs = append(gs, glyph(r, x, y, size, 0, adv, int32(n)))
				adv += width(r, size)
			}
			lig := []rune(f[5])
			g := glyph(lig[0], x, y, size, 0, adv, int32(n))
			adv += width(lig[0], size) + width(lig[1], size)*0.6
			g.Q.UR.X, g.Q.LR.X = x+adv, x+adv
			gs = append(gs, g)
			for _, r := range lig[1:] {
				g := glyph(r, x, y, size, 0, adv, int32(n))
				g.Q.UR.X, g.Q.LR.X = g.Q.UL.X, g.Q.LL.X
				gs = append(gs, g)
			}
			adv -= 0.02
			for _, r := range f[6] {
				gs = append(gs, glyph(r, x, y, size, 0, adv, int32(n)))
				adv += width(r, size)
			}
		case "comb":
			// One producer line per glyph, each centred in its box of
			// pitch points from x; a space leaves its box empty.
			x, y, size, pitch := num(1), num(2), num(3), num(4)
			for i, r := range strings.Join(f[5:], " ") {
				if r != ' ' {
					c := x + (float64(i)+0.5)*pitch
					gs = append(gs, glyph(r, c-width(r, size)/2, y, size, 0, 0, int32(1000*n+i)))
				}
			}
		case "bold":
			x, y, size := num(1), num(2), num(3)
			adv := 0.0
			for _, r := range strings.Join(f[4:], " ") {
				gs = append(gs, glyph(r, x, y, size, 0, adv, int32(n)), glyph(r, x+0.4, y, size, 0, adv, int32(n)))
				adv += width(r, size)
			}
		default:
			d.Fatalf(t, "unknown directive %s", f[0])
		}
	}
	return gs
}

// glyph is r's box as MuPDF reports it: adv points along a baseline from
// (x, y) turned angle degrees, one advance wide.
func glyph(r rune, x, y, size, angle, adv float64, line int32) Glyph {
	sin, cos := math.Sincos(angle * math.Pi / 180)
	d := page.Point{X: cos, Y: -sin} // y grows downwards
	up := page.Point{X: -sin, Y: -cos}
	at := func(a, h float64) page.Point {
		return page.Point{X: x + a*d.X + h*up.X, Y: y + a*d.Y + h*up.Y}
	}
	w := width(r, size)
	top, bot := 1.075*size, -0.3*size
	return Glyph{R: r, Line: line, Font: 1, Q: page.Quad{
		UL: at(adv, top), UR: at(adv+w, top), LL: at(adv, bot), LR: at(adv+w, bot),
	}}
}

// width is r's Helvetica advance at size; 0 for invisible characters,
// half an em for what Helvetica lacks.
func width(r rune, size float64) float64 {
	if Invisible(r) {
		return 0
	}
	if _, ok := testpdf.WinAnsi(r); !ok {
		return size / 2
	}
	return float64(testpdf.RuneWidth(r)) * size / 1000
}

func reverse(gs []Glyph) {
	for i, j := 0, len(gs)-1; i < j; i, j = i+1, j-1 {
		gs[i], gs[j] = gs[j], gs[i]
	}
}

// TestCharsAlignedWithText checks, over random glyph soups with
// invisible characters, duplicates and any angle, that every word has
// one quad per rune and that no glyph is lost or made up.
func TestCharsAlignedWithText(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	alphabet := []rune("ab cdeWQ1 2\u200b\u00ad\u202e.@аΟ１")
	var b Builder
	for iter := range 300 {
		var gs []Glyph
		n := rng.IntN(60)
		for i := range n {
			r := alphabet[rng.IntN(len(alphabet))]
			x, y := rng.Float64()*200, rng.Float64()*100
			if rng.IntN(2) == 0 { // some order on a few lines
				x, y = float64(i%20)*7, float64(i/20)*15
			}
			gs = append(gs, glyph(r, x, y, 6+rng.Float64()*10, float64(rng.IntN(4))*90, 0, int32(i/20)))
		}
		words, _ := b.Build(nil, gs, page.SourceTextLayer, 0)
		want := 0
		for _, g := range gs {
			if g.R != ' ' && !Invisible(g.R) {
				want++
			}
		}
		got := 0
		for _, w := range words {
			if c := utf8.RuneCountInString(w.Text); c != len(w.Chars) || c == 0 {
				t.Fatalf("iteration %d: %q has %d quads", iter, w.Text, len(w.Chars))
			}
			got += len(w.Chars)
		}
		// Duplicates (same rune, same place) may merge; nothing else goes.
		if got > want {
			t.Fatalf("iteration %d: %d glyphs in, %d in words", iter, want, got)
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	// A page of body text: 50 lines of 90 characters.
	var gs []Glyph
	line := "The quarterly review covered shipping schedules and supplier terms, approved by the board."
	for l := range 50 {
		adv := 0.0
		for _, r := range line {
			gs = append(gs, glyph(r, 72, 100+float64(l)*14, 11, 0, adv, int32(l)))
			adv += width(r, 11)
		}
	}
	var bld Builder
	dst := make([]page.Word, 0, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		dst, _ = bld.Build(dst[:0], gs, page.SourceTextLayer, 0)
	}
	b.ReportMetric(float64(len(gs)), "glyphs/op")
}

func TestInvisible(t *testing.T) {
	for _, r := range []rune{0x200B, 0x200C, 0x200D, 0x2060, 0x00AD, 0xFEFF, 0x200E, 0x200F,
		0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x061C, 0xFE0F, 0x034F, 0xE0041} {
		if !Invisible(r) {
			t.Errorf("U+%04X is not invisible", r)
		}
	}
	for _, r := range "aZ09@.-+éßжΩ中ـ" {
		if Invisible(r) {
			t.Errorf("%q is invisible", r)
		}
	}
}
