package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/shareddata"
	"github.com/redactd/redactd/internal/testkit/hostile/visible"
)

// wordAt is an upright text-layer word at x on baseline line y, 10 pt
// high, 6 pt a character (or w wide when w > 0).
func wordAt(text string, x, y, w float64, line int) page.Word {
	if w <= 0 {
		w = 6 * float64(len([]rune(text)))
	}
	return page.Word{Text: text, Line: line, Conf: 1, Quad: page.QuadFromRect(page.Rect{X0: x, Y0: y - 8, X1: x + w, Y1: y + 2})}
}

// sentence lays out words from x on line y with a 3-pt space.
func sentence(line int, y float64, words ...string) []page.Word {
	var out []page.Word
	x := 72.0
	for _, s := range words {
		w := wordAt(s, x, y, 0, line)
		out = append(out, w)
		x = w.Quad.UR.X + 3
	}
	return out
}

func TestReleaseSigns(t *testing.T) {
	plain := func() []page.Word {
		ws := sentence(0, 100, "The", "quarterly", "review", "covered", "a", "lot.")
		return append(ws, sentence(1, 114, "Call", "me", "at", "noon", "or", "at", "3", "pm.")...)
	}
	for _, c := range []struct {
		name  string
		words func() []page.Word
		want  releaseSign
	}{
		{"ordinary text", plain, 0},
		{"three single glyphs", func() []page.Word { return sentence(0, 100, "say", "a", "b", "c", "then") }, 0},
		{"letter-spaced digits", func() []page.Word {
			var ws []page.Word
			for i, d := range "+442079460958" {
				// Proportional widths, even gaps: tracking.
				w := 5.0
				if d == '+' {
					w = 6
				}
				ws = append(ws, wordAt(string(d), 72+float64(i)*12, 100, w, 0))
			}
			return ws
		}, signLetterGaps | signComb},
		{"digits in groups, one glyph each", func() []page.Word {
			// "+44 20 7946 0958" drawn digit by digit, wider gaps between
			// groups: no four in a row evenly spaced, but many.
			var ws []page.Word
			x := 72.0
			for _, g := range []string{"44", "20", "79", "46", "09", "58"} {
				for _, d := range g {
					ws = append(ws, wordAt(string(d), x, 100, 6, 0))
					x += 12
				}
				x += 9
			}
			return ws
		}, signLetterGaps},
		{"letter-spaced name", func() []page.Word {
			var ws []page.Word
			x := 72.0
			for _, r := range "Maria" {
				w := map[rune]float64{'M': 9, 'a': 5.5, 'r': 3.5, 'i': 2.2}[r]
				ws = append(ws, wordAt(string(r), x, 100, w, 0))
				x += w + 4
			}
			return ws
		}, signLetterGaps},
		{"comb field", func() []page.Word {
			// One glyph centred in each 14-pt box: even pitch, uneven gaps.
			var ws []page.Word
			for i, r := range "MllMll" {
				w := map[rune]float64{'l': 2, 'M': 8}[r]
				c := 72 + 14*float64(i) + 7
				ws = append(ws, wordAt(string(r), c-w/2, 100, w, i))
			}
			return ws
		}, signComb},
		{"words going backwards", func() []page.Word {
			ws := sentence(0, 100, "alez@example.com")
			ws = append(ws, wordAt("maria.gonz", 10, 100, 0, 0))
			return ws
		}, signOrder},
		{"line drawn in two pieces around another", func() []page.Word {
			ws := sentence(0, 100, "Contact", "maria.gonz")
			ws = append(ws, sentence(1, 130, "Other", "line")...)
			end := ws[1].Quad.UR.X
			return append(ws, wordAt("alez@example.com", end, 100, 0, 2))
		}, signOrder},
		{"two columns", func() []page.Word {
			ws := sentence(0, 100, "Left", "column")
			ws = append(ws, sentence(1, 114, "goes", "on")...)
			right := wordAt("Right", 300, 100, 0, 2)
			return append(ws, right, wordAt("column", 333, 100, 0, 2))
		}, 0},
		{"zero-width space", func() []page.Word { return sentence(0, 100, "lucinda.hargreave\u200b@fernleigh.org") }, signFormat},
		{"soft hyphen", func() []page.Word { return sentence(0, 100, "Margin\u00adalia") }, signFormat},
		{"bidi override", func() []page.Word { return sentence(0, 100, "\u202egro.elpmaxe@oj") }, signFormat},
		{"accents are not format characters", func() []page.Word { return sentence(0, 100, "Müller", "Łukasz", "café") }, 0},
		{"cut by the right edge", func() []page.Word {
			return append(plain(), wordAt("GB33BUKB20201", 540, 300, 80, 5))
		}, signEdge},
		{"touching the top edge", func() []page.Word {
			return append(plain(), wordAt("Header", 72, 8.5, 0, 5))
		}, signEdge},
		{"right-to-left words", func() []page.Word {
			return []page.Word{wordAt("שלום", 200, 100, 0, 0), wordAt("עולם", 150, 100, 0, 0)}
		}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			pg := &page.Page{Width: 612, Height: 792, Words: c.words()}
			got, at := releaseSigns(pg)
			if got != c.want {
				t.Errorf("signs %q, want %q", got, c.want)
			}
			if (got == 0) != (len(at) == 0) {
				t.Errorf("signs %q at %v", got, at)
			}
		})
	}
}

// TestReleaseSignsIgnoreOCRWords: words read from the pixels say nothing
// of how a producer drew the page.
func TestReleaseSignsIgnoreOCRWords(t *testing.T) {
	w := wordAt("a\u200bb", 0, 5, 0, 0)
	w.Source = page.SourceOCR
	if s, _ := releaseSigns(&page.Page{Width: 612, Height: 792, Words: []page.Word{w}}); s != 0 {
		t.Errorf("signs %q from an OCR word", s)
	}
}

// TestReleaseSignsOrdinaryPages: ordinary text pages, as MuPDF gives
// their words, show no sign: the benchmark's letters, the visible
// corpus's control page, and the real documents of shared/data (their
// share with a sign is logged: those pages cost an OCR reading).
func TestReleaseSignsOrdinaryPages(t *testing.T) {
	control, err := visible.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{"letter": letterPDF(3)}
	for _, c := range control {
		if c.Name == "control-text" {
			docs[c.Name] = c.PDF
		}
	}
	for name, pdf := range docs {
		doc, err := mupdf.Open(pdf, mupdf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range doc.NumPages() {
			if s := mupdfSigns(t, doc, i); s != 0 {
				t.Errorf("%s page %d: signs %q", name, i+1, s)
			}
		}
		doc.Close()
	}
	paths, _ := filepath.Glob(shareddata.Path("documents", "*", "*.pdf"))
	pages, signed := 0, map[string]int{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := mupdf.Open(data, mupdf.Options{})
		if err != nil {
			continue
		}
		for i := range min(doc.NumPages(), 5) {
			pages++
			if s := mupdfSigns(t, doc, i); s != 0 {
				signed[s.String()]++
			}
		}
		doc.Close()
	}
	t.Logf("shared documents: %d pages checked, with signs: %v", pages, signed)
}

func mupdfSigns(t *testing.T, doc *mupdf.Document, i int) releaseSign {
	t.Helper()
	pg, err := doc.LoadPage(context.Background(), i)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	s, _ := releaseSigns(&page.Page{Index: i, Width: pg.Width(), Height: pg.Height(), Words: pg.Words()})
	return s
}

// BenchmarkReleaseSigns is the sign check of one dense text page (the
// benchmark letter's 45 lines): the whole cost of the release check on a
// page without a sign.
func BenchmarkReleaseSigns(b *testing.B) {
	doc, err := mupdf.Open(letterPDF(1), mupdf.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	lp, err := doc.LoadPage(context.Background(), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer lp.Close()
	pg := &page.Page{Width: lp.Width(), Height: lp.Height(), Words: lp.Words()}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if s, _ := releaseSigns(pg); s != 0 {
			b.Fatal("sign on the letter")
		}
	}
}
