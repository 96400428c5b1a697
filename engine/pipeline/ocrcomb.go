package pipeline

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/models/ocr"
)

// Comb fields on scans (issue 42). A form printed one character per box
// in black walls reads badly whatever groups the recogniser's pieces:
// "1" beside a wall reads "L" or "|", a date of birth 14/03/1986
// "14/03|" and "986", so no detector knows it, and regroupOCR (which only
// joins) cannot mend a misread letter. Where the page's rules make a row
// of evenly pitched boxes (ocr.CombRows), that row is read again box by
// box, its glyphs cut out of their walls and set side by side as print
// (ocr.ReadComb), and the reading replaces the recogniser's words there:
// one word per run of filled boxes, an empty box a word gap, each
// character's quad its box, so a mask covers every box of it. Erasing
// the rules of the whole page before reading was tried and rejected: at
// 150 dpi it turned an IBAN's 0 into O elsewhere on the page.

// readCombs returns words (read in img, dpi its pixels per inch; quads
// mapped to the raster by toRaster) with the words of each comb row of
// img put in place of those the recogniser read there.
func (a ocrAdapter) readCombs(ctx context.Context, img ocr.Image, dpi float64, words []page.Word, toRaster func(ocr.Quad) page.Quad) ([]page.Word, error) {
	rows := ocr.CombRows(img, dpi)
	if len(rows) == 0 {
		return words, nil
	}
	line := 0
	for _, w := range words {
		line = max(line, w.Line+1)
	}
	var combs []page.Word
	var areas []page.Rect // rows read, raster pixels
	for _, row := range rows {
		cells, conf, err := a.e.ReadComb(ctx, img, row)
		if err != nil {
			return nil, err
		}
		if !oneEach(cells) {
			continue // a table's row of words, not a comb
		}
		quads := make([]page.Quad, len(row.Cells))
		for i, c := range row.Cells {
			quads[i] = toRaster(rectQuad(c.Min.X, c.Min.Y, c.Max.X, c.Max.Y))
		}
		ws := combWords(cells, quads, conf, line)
		if len(ws) == 0 {
			continue // nothing read: the recogniser's words stay
		}
		line++
		combs = append(combs, ws...)
		b := row.Bounds()
		areas = append(areas, toRaster(rectQuad(b.Min.X, b.Min.Y, b.Max.X, b.Max.Y)).Bounds())
	}
	if len(combs) == 0 {
		return words, nil
	}
	out := make([]page.Word, 0, len(words)+len(combs))
	for _, w := range words {
		b := w.Quad.Bounds()
		cx, cy := (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
		in := false
		for _, r := range areas {
			if cx >= r.X0 && cx <= r.X1 && cy >= r.Y0 && cy <= r.Y1 {
				in = true
				break
			}
		}
		if !in {
			out = append(out, w)
		}
	}
	return append(out, combs...), nil
}

// combWords are the words of a comb row whose boxes (quads, left to
// right) read cells: a run of filled boxes is a word, each rune's quad a
// share of its box; all on line.
func combWords(cells []string, quads []page.Quad, conf float32, line int) []page.Word {
	var out []page.Word
	var cur *page.Word
	var bounds page.Rect
	var text strings.Builder
	flush := func() {
		if cur != nil {
			cur.Text = text.String()
			cur.Quad = page.QuadFromRect(bounds)
			out = append(out, *cur)
			cur = nil
			text.Reset()
		}
	}
	for i, c := range cells {
		c = strings.TrimSpace(c)
		if c == "" {
			flush()
			continue
		}
		if cur == nil {
			cur = &page.Word{Line: line, Source: page.SourceOCR, Conf: conf}
			bounds = quads[i].Bounds()
		}
		bounds = bounds.Union(quads[i].Bounds())
		text.WriteString(c)
		n := utf8.RuneCountInString(c)
		for k := range n {
			cur.Chars = append(cur.Chars, subQuad(quads[i], float64(k)/float64(n), float64(k+1)/float64(n)))
		}
	}
	flush()
	return out
}

// oneEach reports whether boxes that read cells hold a character each,
// as a comb's do: at most a quarter of the filled ones read as more (a
// glyph split in two, "rn" for "m"), and some filled. A table's row of
// evenly wide cells, which the rules alone cannot tell from a comb,
// holds words.
func oneEach(cells []string) bool {
	filled, more := 0, 0
	for _, c := range cells {
		n := utf8.RuneCountInString(strings.TrimSpace(c))
		if n > 0 {
			filled++
		}
		if n > 1 {
			more++
		}
	}
	return filled > 0 && 4*more <= filled
}

// rectQuad is the upright quad of pixel rectangle x0, y0, x1, y1.
func rectQuad(x0, y0, x1, y1 int) ocr.Quad {
	return ocr.Quad{UL: ocr.Point{X: float64(x0), Y: float64(y0)}, UR: ocr.Point{X: float64(x1), Y: float64(y0)},
		LL: ocr.Point{X: float64(x0), Y: float64(y1)}, LR: ocr.Point{X: float64(x1), Y: float64(y1)}}
}

// subQuad is the part of upright quad q from t0 to t1 of its width.
func subQuad(q page.Quad, t0, t1 float64) page.Quad {
	b := q.Bounds()
	w := b.X1 - b.X0
	return page.QuadFromRect(page.Rect{X0: b.X0 + t0*w, Y0: b.Y0, X1: b.X0 + t1*w, Y1: b.Y1})
}
