package pipeline

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/page/layout"
)

// The recogniser reads letter-spaced print ("P h o n e : + 4 4 2 0")
// as one word per letter, and a form printed one character per box as
// one line per box: no detector knows such words, while a reader sees a
// phone number or an IBAN. regroupOCR lays those pieces out again with
// package layout, from the ink of each character, exactly as glyphs of a
// text layer are laid out: letter spacing and comb boxes join, word gaps
// part. Longer words, and words read on a slant, keep the recogniser's
// reading.

const (
	// fragmentRunes is the longest word taken as a fragment of
	// letter-spaced print when in a run of fragmentRun on its line: a
	// letter alone. Runs of short words ("put it in", "of the") are
	// ordinary text, and their ink gaps on a poor scan no surer guide
	// than the recogniser's spaces.
	fragmentRunes = 1
	// fragmentRun is the fewest fragments in a row of one recognised
	// line worth laying out again; a line of one or two letters is a
	// box of a comb and always is.
	fragmentRun = 3
	// inkLevel is the darkest gray counted as paper when measuring a
	// character's ink.
	inkLevel = 128
)

var ocrBuilders = sync.Pool{New: func() any { return &layout.Builder{Ink: true} }}

// regroupOCR returns words (one Recognize call's, in raster pixels, lines
// contiguous) with their fragments joined where package layout, given
// each character's ink, joins them. The builder only joins: a word the
// recogniser read whole stays whole (ink gaps inside a word are less even
// than a font's advances), and a joined word is its pieces' text, cells
// (one quad per rune) and lowest confidence, on their line when they
// share one and on a line of its own otherwise.
func regroupOCR(words []page.Word, r *page.Raster) []page.Word {
	frag := fragments(words)
	nfrag := 0
	for _, f := range frag {
		if f {
			nfrag++
		}
	}
	if nfrag < 2 {
		return words
	}
	// Glyphs of the fragments, their boxes narrowed to their ink; a
	// space between two words, as the recogniser saw it.
	var gs []layout.Glyph
	from := map[page.Quad]int{} // ink box -> word
	nextLine := 0
	for i, w := range words {
		nextLine = max(nextLine, w.Line+1)
		if !frag[i] {
			continue
		}
		if len(gs) > 0 {
			gs = append(gs, layout.Glyph{R: ' ', Line: int32(w.Line)})
		}
		alone := (i == 0 || words[i-1].Line != w.Line) && (i == len(words)-1 || words[i+1].Line != w.Line) && len(w.Chars) == 1
		k := 0
		for _, c := range w.Text {
			q := fontBox(inkQuad(r, w.Chars[k]), alone)
			if _, dup := from[q]; dup {
				q = w.Chars[k] // keep every box its own
			}
			from[q] = i
			gs = append(gs, layout.Glyph{R: c, Q: q, Line: int32(w.Line)})
			k++
		}
	}
	b := ocrBuilders.Get().(*layout.Builder)
	built, _ := b.Build(nil, gs, page.SourceOCR, nextLine)
	ocrBuilders.Put(b)

	// Pieces that share a built word are one word, in the order the
	// builder reads them.
	group := make([]int, len(words)) // union-find parent
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	// Each piece goes on its built word's line: the recogniser's line
	// when all pieces of that line come from one, else a new one (the
	// builder numbers its lines from nextLine on).
	lineOf := make([]int, len(words))
	ocrLine := map[int]int{} // built line -> the recogniser's, or -1 if several
	var order []int
	seen := make([]bool, len(words))
	for _, w := range built {
		for _, q := range w.Chars {
			if i, ok := from[q]; ok {
				if l, ok := ocrLine[w.Line]; !ok {
					ocrLine[w.Line] = words[i].Line
				} else if l != words[i].Line {
					ocrLine[w.Line] = -1
				}
			}
		}
	}
	for _, w := range built {
		root := -1
		for _, q := range w.Chars {
			i, ok := from[q]
			if !ok {
				continue // a duplicate's widened box: its piece is there too
			}
			if !seen[i] {
				seen[i] = true
				order = append(order, i)
				lineOf[i] = w.Line
				if l := ocrLine[w.Line]; l >= 0 {
					lineOf[i] = l
				}
			}
			if root < 0 {
				root = find(i)
			} else {
				group[find(i)] = root
			}
		}
	}
	members := map[int][]int{}
	for _, i := range order {
		members[find(i)] = append(members[find(i)], i)
	}
	out := make([]page.Word, 0, len(words))
	done := make([]bool, len(words))
	for i, w := range words {
		if done[i] {
			continue
		}
		if !frag[i] || !seen[i] {
			out = append(out, w)
			continue
		}
		m := members[find(i)]
		j := joinWords(words, m)
		j.Line = lineOf[m[0]]
		for _, k := range m {
			done[k] = true
		}
		out = append(out, j)
	}
	// Lines contiguous, in the order they were first read; left to right
	// in a line that took fragments (all upright).
	first := map[int]int{}
	took := map[int]bool{}
	for i, w := range out {
		if _, ok := first[w.Line]; !ok {
			first[w.Line] = i
		}
	}
	for i := range words {
		if seen[i] {
			took[lineOf[i]] = true
		}
	}
	slices.SortStableFunc(out, func(x, y page.Word) int {
		if c := cmp.Compare(first[x.Line], first[y.Line]); c != 0 || !took[x.Line] {
			return c
		}
		return cmp.Compare(x.Quad.UL.X, y.Quad.UL.X)
	})
	return out
}

// joinWords is the word of pieces m of words, in that order.
func joinWords(words []page.Word, m []int) page.Word {
	j := words[m[0]]
	var text strings.Builder
	j.Chars = nil
	bounds := j.Quad.Bounds()
	for _, k := range m {
		w := &words[k]
		text.WriteString(w.Text)
		j.Chars = append(j.Chars, w.Chars...)
		bounds = bounds.Union(w.Quad.Bounds())
		j.Conf = min(j.Conf, w.Conf)
	}
	j.Text = text.String()
	j.Quad = page.QuadFromRect(bounds)
	return j
}

// fragments marks the words worth laying out again, and makes the quad
// of a one-letter word upright (a square box's turn is the detector's
// guess): upright letters alone in a run of fragmentRun or more on their
// line, a word of one or two letters alone on its line (a box of a comb),
// and words whose letters stand wide apart (a run of boxes read as one
// word, letter-spaced print).
func fragments(words []page.Word) []bool {
	short := make([]bool, len(words))
	for i := range words {
		w := &words[i]
		n := utf8.RuneCountInString(w.Text)
		if n != len(w.Chars) {
			continue
		}
		if n == 1 && !upright(w.Quad) {
			w.Quad = page.QuadFromRect(w.Quad.Bounds())
			w.Chars = []page.Quad{w.Quad}
		}
		short[i] = n <= 2 && upright(w.Quad)
	}
	frag := make([]bool, len(words))
	for s := 0; s < len(words); {
		e := s + 1
		for e < len(words) && words[e].Line == words[s].Line {
			e++
		}
		// words[s:e] is one line.
		if e-s == 1 {
			frag[s] = short[s]
		}
		for i := s; i < e; {
			j := i
			for j < e && short[j] && utf8.RuneCountInString(words[j].Text) <= fragmentRunes {
				j++
			}
			if j-i >= fragmentRun {
				for k := i; k < j; k++ {
					frag[k] = true
				}
			}
			i = j + 1
		}
		s = e
	}
	for i, w := range words {
		frag[i] = frag[i] || spreadApart(w)
	}
	return frag
}

// spreadEm is the mean width of a word's character cells, in ems (a
// quarter less than its box's height), from which its letters stand
// apart: ordinary print's cells average about half an em.
const spreadEm = 1.0

// spreadApart reports whether w is an upright word of letters standing wide
// apart.
func spreadApart(w page.Word) bool {
	n := len(w.Chars)
	if n < 2 || n != utf8.RuneCountInString(w.Text) || !upright(w.Quad) {
		return false
	}
	q := w.Quad
	width := math.Hypot(q.UR.X-q.UL.X, q.UR.Y-q.UL.Y)
	height := math.Hypot(q.LL.X-q.UL.X, q.LL.Y-q.UL.Y)
	return width/float64(n) >= spreadEm*0.75*height
}

// upright reports whether q runs left to right, level: the recogniser's
// cells of such a word are columns of the raster.
func upright(q page.Quad) bool {
	dx, dy := q.UR.X-q.UL.X, q.UR.Y-q.UL.Y
	return dx > 0 && math.Abs(dy) <= 0.05*dx
}

// ocrBoxScale is how much taller than a recogniser's box of a line,
// which holds the letters' ink and a margin, is the font box a text layer
// reports and package layout measures its ems from: 12-pt print at 200
// dpi has boxes of 34 to 38 pixels, its font box 46. A box around one
// letter alone hugs its ink (about three quarters of an em for capitals
// and digits, less for small letters): ocrLetterScale.
const (
	ocrBoxScale    = 1.3
	ocrLetterScale = 1.7
)

// fontBox is upright box q made as tall as its font box, about its
// middle; alone: q is a letter's own box.
func fontBox(q page.Quad, alone bool) page.Quad {
	s := ocrBoxScale
	if alone {
		s = ocrLetterScale
	}
	b := q.Bounds()
	d := (b.Y1 - b.Y0) * (s - 1) / 2
	b.Y0, b.Y1 = b.Y0-d, b.Y1+d
	return page.QuadFromRect(b)
}

// inkQuad narrows cell (an upright character cell, raster pixels) to the
// columns its character inks in the middle of its height (a box's rules
// above and below are not its ink): the run of dark columns nearest the
// cell's middle, with runs a hair from it (the parts of '"' or '%').
// Thin runs in the outer parts of the cell (a neighbour's overhang, a
// box's rule between two cells) are no one's. A cell with no ink of its
// own is kept whole. A letter whose ink runs to the cell's edge is
// followed past it.
func inkQuad(r *page.Raster, cell page.Quad) page.Quad {
	b := cell.Bounds()
	x0, x1 := max(int(math.Floor(b.X0)), 0), min(int(math.Ceil(b.X1)), r.W)
	y0, y1 := max(int(math.Floor(b.Y0)), 0), min(int(math.Ceil(b.Y1)), r.H)
	if x1-x0 < 2 || y1 <= y0 {
		return cell
	}
	m := (y1 - y0) * 15 / 100
	ry0, ry1 := y0+m, y1-m
	dark := func(x int) bool {
		for y := ry0; y < ry1; y++ {
			if r.Pix[y*r.Stride+x*r.Channels] < inkLevel {
				return true
			}
		}
		return false
	}
	thin := max(2, (y1-y0)/8)
	edge := max(1, (x1-x0)*15/100)
	var runs [][2]int
	for x := x0; x < x1; {
		if !dark(x) {
			x++
			continue
		}
		s := x
		for x < x1 && dark(x) {
			x++
		}
		if x-s <= thin && (s < x0+edge || x > x1-edge) {
			continue
		}
		runs = append(runs, [2]int{s, x})
	}
	if len(runs) == 0 {
		return cell
	}
	mid := (x0 + x1) / 2
	best, bestD := 0, math.MaxInt
	for i, run := range runs {
		d := max(run[0]-mid, mid-run[1], 0)
		if d < bestD {
			best, bestD = i, d
		}
	}
	lo, hi := runs[best][0], runs[best][1]
	for i := best - 1; i >= 0 && lo-runs[i][1] <= thin; i-- {
		lo = runs[i][0]
	}
	for i := best + 1; i < len(runs) && runs[i][0]-hi <= thin; i++ {
		hi = runs[i][1]
	}
	// A wide letter ('@', 'W') reaches past its cell: follow its ink, a
	// cell's width at most.
	w := x1 - x0
	for lo == x0 && lo > max(x0-w, 0) && dark(lo-1) {
		lo--
	}
	for hi == x1 && hi < min(x1+w, r.W) && dark(hi) {
		hi++
	}
	return page.QuadFromRect(page.Rect{X0: float64(lo), Y0: b.Y0, X1: float64(hi), Y1: b.Y1})
}
