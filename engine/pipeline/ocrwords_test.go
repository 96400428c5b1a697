package pipeline

import (
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// inkPage is a white raster with a black bar of w x 24 pixels centred on
// each of xs, from y = 20: letters' ink, as regroupOCR measures it.
func inkPage(xs []float64, w int) *page.Raster {
	r := &page.Raster{W: 1200, H: 80, Channels: 1, Stride: 1200, Pix: make([]byte, 1200*80)}
	for i := range r.Pix {
		r.Pix[i] = 255
	}
	for _, x := range xs {
		for y := 20; y < 44; y++ {
			for px := int(x) - w/2; px < int(x)+w/2; px++ {
				r.Pix[y*r.Stride+px] = 0
			}
		}
	}
	return r
}

func box(x0, x1 float64) page.Quad {
	return page.QuadFromRect(page.Rect{X0: x0, Y0: 16, X1: x1, Y1: 48})
}

func texts(ws []page.Word) string {
	var b strings.Builder
	last := -1
	for _, w := range ws {
		if len(w.Chars) != len([]rune(w.Text)) {
			b.WriteString("!chars!")
		}
		if last >= 0 {
			if w.Line == last {
				b.WriteString(" | ")
			} else {
				b.WriteString(" / ")
			}
		}
		last = w.Line
		b.WriteString(w.Text)
	}
	return b.String()
}

// TestRegroupOCRComb: a row of boxes the recogniser read one letter a
// line, some boxes empty, some read together, comes back one line of
// words, split at the empty box.
func TestRegroupOCRComb(t *testing.T) {
	var xs []float64
	var words []page.Word
	text := "GB33 BUKB2020"
	for i, r := range text {
		if r == ' ' {
			continue
		}
		x := 60 + 60*float64(i)
		xs = append(xs, x)
		q := box(x-12, x+12)
		words = append(words, page.Word{Text: string(r), Quad: q, Chars: []page.Quad{q}, Line: i, Conf: 0.9})
	}
	// The recogniser read the last four boxes as one word.
	last := words[len(words)-4:]
	joined := page.Word{Text: "2020", Quad: box(last[0].Quad.UL.X-18, last[3].Quad.UR.X+18), Line: 99, Conf: 0.8}
	for i := range last {
		c := last[i].Quad.Bounds()
		joined.Chars = append(joined.Chars, box(c.X0-18, c.X1+18))
	}
	words = append(words[:len(words)-4], joined)
	got := texts(regroupOCR(words, inkPage(xs, 14)))
	if want := "GB33 | BUKB2020"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRegroupOCRLetterSpaced: letter-spaced print read one letter a word
// joins into its words; ordinary words, and a line of them, stay as read.
func TestRegroupOCRLetterSpaced(t *testing.T) {
	// "ab cd": letters 14 pixels wide at a pitch of 26 (12 pixels of
	// letter spacing), a word gap of 30.
	var xs []float64
	var words []page.Word
	x := 100.0
	for i, r := range "abcd" {
		if i == 2 {
			x += 30
		}
		xs = append(xs, x)
		words = append(words, page.Word{Text: string(r), Line: 0, Conf: 1})
		x += 26
	}
	for i := range words {
		l, r := xs[i]-13, xs[i]+13
		if i > 0 {
			l = (xs[i-1] + xs[i]) / 2
		}
		if i < len(words)-1 {
			r = (xs[i] + xs[i+1]) / 2
		}
		words[i].Quad = box(l, r)
		words[i].Chars = []page.Quad{words[i].Quad}
	}
	ordinary := []page.Word{
		{Text: "The", Quad: box(600, 660), Line: 1, Conf: 1},
		{Text: "client", Quad: box(660, 760), Line: 1, Conf: 1},
	}
	for i := range ordinary {
		w := &ordinary[i]
		b := w.Quad.Bounds()
		n := len(w.Text)
		for k := range n {
			w.Chars = append(w.Chars, box(b.X0+(b.X1-b.X0)*float64(k)/float64(n), b.X0+(b.X1-b.X0)*float64(k+1)/float64(n)))
		}
	}
	got := texts(regroupOCR(append(words, ordinary...), inkPage(xs, 14)))
	if want := "ab | cd / The | client"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
