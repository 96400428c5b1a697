package burn

import (
	"math"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// word lays out text on a horizontal baseline: each rune 6pt wide, the
// line from y to y+10, starting at x. It returns the word with per-rune
// quads and the x after it.
func word(text string, x, y float64, line int) (page.Word, float64) {
	w := page.Word{Text: text, Line: line, Conf: 1}
	x0 := x
	for range []rune(text) {
		w.Chars = append(w.Chars, page.QuadFromRect(page.Rect{X0: x, Y0: y, X1: x + 6, Y1: y + 10}))
		x += 6
	}
	w.Quad = page.QuadFromRect(page.Rect{X0: x0, Y0: y, X1: x, Y1: y + 10})
	return w, x + 4
}

// letter is a page with two lines: "Contact John Smith" / "Doe today".
func letter() *page.Page {
	p := &page.Page{Width: 612, Height: 792}
	x := 72.0
	for _, t := range []string{"Contact", "John", "Smith"} {
		var w page.Word
		w, x = word(t, x, 100, 0)
		p.Words = append(p.Words, w)
	}
	x = 72
	for _, t := range []string{"Doe", "today", "mail:jo@x.org"} {
		var w page.Word
		w, x = word(t, x, 114, 1)
		p.Words = append(p.Words, w)
	}
	return p
}

func inside(q page.Quad, r page.Rect) bool {
	b := q.Bounds()
	return b.X0 >= r.X0 && b.Y0 >= r.Y0 && b.X1 <= r.X1 && b.Y1 <= r.Y1
}

func TestSpanOverTwoLines(t *testing.T) {
	p := letter()
	span := page.Span{First: 1, Last: 3, Category: page.Person, Score: 0.9, Recognizer: "ner"}
	boxes := Boxes(p, []page.Span{span}, DefaultPad)
	if len(boxes) != 2 {
		t.Fatalf("%d boxes, want 2: %+v", len(boxes), boxes)
	}
	for _, b := range boxes {
		if b.Category != page.Person || b.Recognizer != "ner" || b.Score != 0.9 || b.Source != page.SourceTextLayer {
			t.Errorf("box provenance %+v", b)
		}
	}
	// Every character of the span is inside a box of its own line.
	for i := 1; i <= 3; i++ {
		w := p.Words[i]
		for _, c := range w.Chars {
			if !inside(c, boxes[w.Line].Rect) {
				t.Errorf("word %q char %+v outside %+v", w.Text, c, boxes[w.Line].Rect)
			}
		}
	}
	// Words outside the span are not covered (their centres stay clear).
	for _, i := range []int{0, 4} {
		c := p.Words[i].Quad.Bounds()
		cx, cy := (c.X0+c.X1)/2, (c.Y0+c.Y1)/2
		for _, b := range boxes {
			if cx > b.Rect.X0 && cx < b.Rect.X1 && cy > b.Rect.Y0 && cy < b.Rect.Y1 {
				t.Errorf("word %q covered by %+v", p.Words[i].Text, b.Rect)
			}
		}
	}
	// Padding: the first box starts pad before "John".
	if got, want := boxes[0].Rect.X0, p.Words[1].Quad.UL.X-DefaultPad; math.Abs(got-want) > 1e-9 {
		t.Errorf("box starts at %v, want %v", got, want)
	}
	// Vertical growth: more than pad above and below.
	if r := boxes[0].Rect; r.Y0 >= 100-DefaultPad || r.Y1 <= 110+DefaultPad {
		t.Errorf("box %+v not grown vertically", r)
	}
}

func TestPartialWord(t *testing.T) {
	p := letter()
	// "mail:jo@x.org": mask from rune 5, the address only.
	boxes := Boxes(p, []page.Span{{First: 5, Last: 5, Start: 5, Category: page.Email}}, DefaultPad)
	if len(boxes) != 1 {
		t.Fatalf("%d boxes", len(boxes))
	}
	w := p.Words[5]
	for i, c := range w.Chars {
		b := c.Bounds()
		cx := (b.X0 + b.X1) / 2
		covered := cx > boxes[0].Rect.X0 && cx < boxes[0].Rect.X1
		if covered != (i >= 5) {
			t.Errorf("char %d (%q) covered=%v", i, []rune(w.Text)[i], covered)
		}
	}
	// End inside a word: "jo" of "mail:jo@x.org" (runes 5..7).
	boxes = Boxes(p, []page.Span{{First: 5, Last: 5, Start: 5, End: 7}}, 0)
	if got := boxes[0].Rect; got.X0 != w.Chars[5].UL.X || got.X1 != w.Chars[6].UR.X {
		t.Errorf("box %+v, want chars 5..6", got)
	}
	// Without per-character quads the whole word is masked.
	p.Words[5].Chars = nil
	boxes = Boxes(p, []page.Span{{First: 5, Last: 5, Start: 5}}, 0)
	if got := boxes[0].Rect; got.X0 != w.Quad.UL.X || got.X1 != w.Quad.UR.X {
		t.Errorf("box %+v, want the whole word", got)
	}
}

func TestRotatedText(t *testing.T) {
	// A word running downwards (rotated 90 degrees clockwise): baseline
	// direction +y, "down" is -x.
	q := page.Quad{UL: page.Point{X: 300, Y: 200}, UR: page.Point{X: 300, Y: 260}, LL: page.Point{X: 290, Y: 200}, LR: page.Point{X: 290, Y: 260}}
	p := &page.Page{Width: 612, Height: 792, Words: []page.Word{{Text: "rotated", Quad: q}}}
	b := Boxes(p, []page.Span{{First: 0, Last: 0}}, 2)[0].Rect
	if !inside(q, b) {
		t.Fatalf("quad %+v outside %+v", q, b)
	}
	// Padded by 2 along the text (y) and 2+10% of 10 across it (x).
	want := page.Rect{X0: 290 - 3, Y0: 198, X1: 300 + 3, Y1: 262}
	if math.Abs(b.X0-want.X0)+math.Abs(b.Y0-want.Y0)+math.Abs(b.X1-want.X1)+math.Abs(b.Y1-want.Y1) > 1e-9 {
		t.Fatalf("box %+v, want %+v", b, want)
	}
	// 45 degrees: every corner inside.
	s := math.Sqrt2 / 2
	q45 := page.Quad{UL: page.Point{X: 100, Y: 100}, UR: page.Point{X: 100 + 20*s, Y: 100 + 20*s}, LL: page.Point{X: 100 - 5*s, Y: 100 + 5*s}}
	q45.LR = page.Point{X: q45.UR.X - 5*s, Y: q45.UR.Y + 5*s}
	p.Words[0].Quad = q45
	if b := Boxes(p, []page.Span{{First: 0, Last: 0}}, 1)[0].Rect; !inside(q45, b) {
		t.Fatalf("45 degree quad outside %+v", b)
	}
}

func TestBadSpans(t *testing.T) {
	p := letter()
	for _, c := range []struct {
		name string
		s    page.Span
		want int
	}{
		{"reversed", page.Span{First: 3, Last: 1}, 0},
		{"past the end", page.Span{First: 4, Last: 99}, 1},
		{"before the start", page.Span{First: -5, Last: 0}, 1},
		{"all outside", page.Span{First: 10, Last: 20}, 0},
		{"start past word end", page.Span{First: 0, Last: 0, Start: 50}, 1},
	} {
		if got := Boxes(p, []page.Span{c.s}, DefaultPad); len(got) != c.want {
			t.Errorf("%s: %d boxes, want %d", c.name, len(got), c.want)
		}
	}
	// Boxes are clipped to the page.
	p.Words[0].Quad = page.QuadFromRect(page.Rect{X0: -10, Y0: 780, X1: 20, Y1: 800})
	p.Words[0].Chars = nil
	b := Boxes(p, []page.Span{{First: 0, Last: 0}}, DefaultPad)[0].Rect
	if b.X0 != 0 || b.Y1 != 792 {
		t.Errorf("box %+v not clipped", b)
	}
}

func TestBurn(t *testing.T) {
	const dpi = 150
	for _, ch := range []int{1, 3} {
		r := page.NewRaster(400, 300, ch)
		for i := range r.Pix {
			r.Pix[i] = 200
		}
		box := Box{Rect: page.Rect{X0: 10.2, Y0: 20.7, X1: 50.1, Y1: 30}}
		Burn(r, dpi, []Box{box})
		// Rounded outwards: 10.2pt = 21.25px -> 21, 50.1pt = 104.375px -> 105.
		x0, y0, x1, y1 := 21, 43, 105, 63
		for y := range r.H {
			for x := range r.W {
				in := x >= x0 && x < x1 && y >= y0 && y < y1
				for c := range ch {
					v := r.Pix[y*r.Stride+x*ch+c]
					if in && v != 0 || !in && v != 200 {
						t.Fatalf("channels %d: pixel %d,%d = %d (inside=%v)", ch, x, y, v, in)
					}
				}
			}
		}
		r.Release()
	}
}

func TestBurnCoversBoxes(t *testing.T) {
	// End to end: characters of the span rendered as pixels are black
	// after burning; a character outside is untouched.
	p := letter()
	const dpi = 100
	r := page.NewRaster(int(612*dpi/72), int(792*dpi/72), 3)
	for i := range r.Pix {
		r.Pix[i] = 255
	}
	Burn(r, dpi, Boxes(p, []page.Span{{First: 2, Last: 3}}, DefaultPad))
	check := func(q page.Quad, wantBlack bool) {
		x0, y0, x1, y1 := page.PixelRect(q.Bounds(), dpi, r.W, r.H)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				if black := r.Pix[y*r.Stride+3*x] == 0; black != wantBlack {
					t.Fatalf("pixel %d,%d black=%v, want %v", x, y, black, wantBlack)
				}
			}
		}
	}
	for _, i := range []int{2, 3} {
		for _, c := range p.Words[i].Chars {
			check(c, true)
		}
	}
	check(p.Words[0].Chars[0], false)
}
