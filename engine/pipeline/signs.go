package pipeline

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// Signs that a page's words were broken apart. Detection reads words;
// when a producer draws a number one glyph at a time, spaced out, in
// boxes, out of order, with invisible format characters between its
// letters, or past the page's edge, the words the layer gives are not
// the ones a reader sees, and a recognizer that would have matched the
// whole passes the pieces by. Such pages are rare and cheap to spot from
// the words alone; on them the burned page is read once more by OCR
// before it is released (release.go). The check is one pass over the
// page's producer words, without allocation on ordinary pages.

// releaseSign is a set of signs, one bit each.
type releaseSign uint8

const (
	// signLetterGaps: a run of words of one letter or digit each on one
	// baseline, evenly spaced edge to edge (letter-spaced text, or glyphs placed
	// one by one at a wide spacing).
	signLetterGaps releaseSign = 1 << iota
	// signComb: a run of single-glyph words at an even pitch, centre to
	// centre (comb fields: one glyph per box).
	signComb
	// signOrder: a line's words go backwards along it, or a line goes on
	// where an earlier one, drawn before other lines, stopped (drawing
	// order jumping between lines).
	signOrder
	// signFormat: format characters in the text (zero-width space,
	// joiner and non-joiner, word joiner, soft hyphen, BOM, bidi
	// controls), invisible to a reader and in the way of a pattern.
	signFormat
	// signEdge: text-layer text touching or cut by the page's edge. A
	// form field's or annotation's value is laid out by the renderer and
	// clipped to its box, and detection reads the whole value, whatever
	// the box shows.
	signEdge
	numSigns = 5
)

// signNames are the metric labels and message words of the signs, by bit.
var signNames = [numSigns]string{"letter_gaps", "comb", "order", "format", "edge"}

// String lists the signs' names, comma-separated.
func (s releaseSign) String() string {
	var b strings.Builder
	for i, n := range signNames {
		if s&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
		}
	}
	return b.String()
}

const (
	// minGlyphRun is the shortest run of single-glyph words that is a
	// sign: three in a row occur in ordinary text ("a 3 x"), four
	// evenly spaced hardly do.
	minGlyphRun = 4
	// edgeTolPt is how close to the page's edge, in points, a word's box
	// must come to touch it.
	edgeTolPt = 1.0
	// maxLineLookback bounds how many earlier lines a line is compared
	// with for an order jump, so a page of thousands of tiny lines costs
	// no more than a page of text.
	maxLineLookback = 200
)

// lineSum is what the order check keeps of a line: its frame (the first
// word's direction d and its normal), where it starts along d,
// its baseline across d, and its glyph height.
type lineSum struct {
	dx, dy   float64 // unit direction
	start    float64 // along d, in d's own frame
	across   float64 // baseline, across d
	h        float64
	llx, lly float64 // the first word's lower-left corner
	lrx, lry float64 // the last word's lower-right corner
	// The first and the last word's boxes: where a line drawn in pieces
	// joins, the sign is.
	first, last page.Rect
}

// releaseSigns returns the signs page pg shows in the words its producer
// placed (text layer, form fields, annotations; OCR words come from the
// pixels and are left out), and where: the boxes (points) of the words
// or lines that show them, which the release check holds its findings
// against. A page without a sign allocates nothing.
func releaseSigns(pg *page.Page) (releaseSign, []page.Rect) {
	var s releaseSign
	var at []page.Rect
	var buf [64]lineSum
	lines := buf[:0]
	run := glyphRun{}
	prevLine := -1
	var cur lineSum
	var prev *page.Word
	endLine := func() {
		cur.lrx, cur.lry = prev.Quad.LR.X, prev.Quad.LR.Y
		cur.last = prev.Quad.Bounds()
		lines = append(lines, cur)
		if joint, ok := orderJump(lines); ok {
			s |= signOrder
			at = addRegion(at, joint)
		}
	}
	for i := range pg.Words {
		w := &pg.Words[i]
		if w.Source == page.SourceOCR {
			continue
		}
		b := w.Quad.Bounds()
		if hasFormatChar(w.Text) {
			s |= signFormat
			at = addRegion(at, b)
		}
		if b.Empty() {
			continue
		}
		if w.Source == page.SourceTextLayer && pg.Width > 0 && pg.Height > 0 &&
			(b.X0 <= edgeTolPt || b.Y0 <= edgeTolPt || b.X1 >= pg.Width-edgeTolPt || b.Y1 >= pg.Height-edgeTolPt) {
			s |= signEdge
			at = addRegion(at, b)
		}
		if g := run.add(w, b); g != 0 {
			s |= g
			at = addRegion(at, run.box)
		}
		if w.Line != prevLine || prev == nil {
			if prev != nil {
				endLine()
			}
			cur = newLineSum(w)
			prevLine = w.Line
		} else if backwards(prev, w) {
			s |= signOrder
			at = addRegion(at, prev.Quad.Bounds().Union(b))
		}
		prev = w
	}
	if prev != nil {
		endLine()
	}
	return s, at
}

// addRegion adds r to the regions, replacing the last one when r holds
// it (a run of glyphs grows one glyph at a time).
func addRegion(at []page.Rect, r page.Rect) []page.Rect {
	if n := len(at); n > 0 {
		l := at[n-1]
		if r.X0 <= l.X0 && r.Y0 <= l.Y0 && r.X1 >= l.X1 && r.Y1 >= l.Y1 {
			at[n-1] = r
			return at
		}
	}
	return append(at, r)
}

// hasFormatChar reports whether s holds a format character a reader does
// not see (see signFormat). ASCII text, nearly all of it, is one scan.
func hasFormatChar(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if isFormatRune(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

func isFormatRune(r rune) bool {
	switch {
	case r == 0x00AD, // soft hyphen
		r == 0x061C,                // Arabic letter mark
		r == 0x180E,                // Mongolian vowel separator
		r >= 0x200B && r <= 0x200F, // zero-width space, non-joiner, joiner, LRM, RLM
		r >= 0x202A && r <= 0x202E, // bidi embeddings and overrides
		r >= 0x2060 && r <= 0x2064, // word joiner, invisible operators
		r >= 0x2066 && r <= 0x2069, // bidi isolates
		r == 0xFEFF:                // BOM, zero-width no-break space
		return true
	}
	return false
}

// frame returns the unit direction of w's baseline and its height (the
// distance from its upper to its lower edge).
func frame(w *page.Word) (dx, dy, h float64) {
	dx, dy = w.Quad.UR.X-w.Quad.UL.X, w.Quad.UR.Y-w.Quad.UL.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		dx, dy = 1, 0
	} else {
		dx, dy = dx/n, dy/n
	}
	h = math.Hypot(w.Quad.LL.X-w.Quad.UL.X, w.Quad.LL.Y-w.Quad.UL.Y)
	return dx, dy, h
}

func newLineSum(w *page.Word) lineSum {
	dx, dy, h := frame(w)
	return lineSum{dx: dx, dy: dy, h: h, llx: w.Quad.LL.X, lly: w.Quad.LL.Y, first: w.Quad.Bounds(),
		start: w.Quad.LL.X*dx + w.Quad.LL.Y*dy, across: -w.Quad.LL.X*dy + w.Quad.LL.Y*dx}
}

// rtl reports whether w starts with a letter of a right-to-left script,
// whose words a producer may list in reading order, right to left.
func rtl(w *page.Word) bool {
	r, _ := utf8.DecodeRuneInString(w.Text)
	return r >= 0x0590 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFC
}

// backwards reports whether w, the word after prev on their line, starts
// more than half a glyph's height before prev along the line's direction.
func backwards(prev, w *page.Word) bool {
	if rtl(prev) || rtl(w) {
		return false
	}
	dx, dy, h := frame(prev)
	a := prev.Quad.UL.X*dx + prev.Quad.UL.Y*dy
	b := w.Quad.UL.X*dx + w.Quad.UL.Y*dy
	return b < a-0.5*h
}

// orderJump reports whether the last of lines continues, on the same
// baseline and within a word space of it (0.6 of a glyph's height: a
// column's gutter is wider), a line that was drawn
// before some line on another baseline: the producer drew one line in
// pieces, in an order that jumps between lines, and the pieces of a word
// can then stand in different places of the reading order. It returns
// the boxes of the two words that meet there.
func orderJump(lines []lineSum) (page.Rect, bool) {
	n := len(lines)
	if n < 3 {
		return page.Rect{}, false
	}
	l := &lines[n-1]
	if sameBaseline(&lines[n-2], l) {
		return page.Rect{}, false // split by a gap, not by another line drawn between
	}
	for i := n - 3; i >= max(0, n-1-maxLineLookback); i-- {
		e := &lines[i]
		if !sameBaseline(e, l) {
			continue
		}
		// Along e's direction: where l starts against where e ends, and
		// where l ends against where e starts.
		ls := l.llx*e.dx + l.lly*e.dy
		le := l.lrx*e.dx + l.lry*e.dy
		ee := e.lrx*e.dx + e.lry*e.dy
		h := max(e.h, l.h)
		if gap := ls - ee; gap > -0.5*h && gap < 0.6*h {
			return e.last.Union(l.first), true
		}
		if gap := e.start - le; gap > -0.5*h && gap < 0.6*h {
			return l.last.Union(e.first), true
		}
	}
	return page.Rect{}, false
}

// sameBaseline reports whether b runs in a's direction on a's baseline,
// to within a third of a glyph's height.
func sameBaseline(a, b *lineSum) bool {
	if a.dx*b.dx+a.dy*b.dy < 0.99 {
		return false
	}
	across := -b.llx*a.dy + b.lly*a.dx
	return math.Abs(across-a.across) < max(a.h, b.h)/3
}

// glyphRun follows a run of consecutive single-glyph words on one
// baseline and tells whether it is a sign: four in a row evenly spaced
// edge to edge (signLetterGaps) or centre to centre (signComb), or
// longRun in a row however spaced (signLetterGaps: a number drawn digit
// by digit in groups, "+ 4 4  2 0  7 9 4 6", is uneven across groups).
type glyphRun struct {
	n                  int
	dx, dy, h          float64
	across             float64
	lastStart, lastEnd float64
	box                page.Rect // the run's words' bounds
	// The last minGlyphRun-1 gaps and pitches, oldest first.
	gaps, pitches [minGlyphRun - 1]float64
}

// longRun is the length of a run of single glyphs that is a sign however
// they are spaced.
const longRun = 8

// add takes the next producer word, of bounds b, and returns the signs
// it completes.
func (g *glyphRun) add(w *page.Word, b page.Rect) releaseSign {
	if !singleGlyph(w.Text) {
		g.n = 0
		return 0
	}
	if g.n == 0 {
		g.start(w, b)
		return 0
	}
	across := -w.Quad.LL.X*g.dy + w.Quad.LL.Y*g.dx
	st := w.Quad.LL.X*g.dx + w.Quad.LL.Y*g.dy
	en := w.Quad.LR.X*g.dx + w.Quad.LR.Y*g.dy
	pitch := (st+en)/2 - (g.lastStart+g.lastEnd)/2
	if math.Abs(across-g.across) >= g.h/3 || pitch <= 0 {
		g.start(w, b)
		return 0
	}
	g.box = g.box.Union(b)
	copy(g.gaps[:], g.gaps[1:])
	copy(g.pitches[:], g.pitches[1:])
	g.gaps[len(g.gaps)-1] = st - g.lastEnd
	g.pitches[len(g.pitches)-1] = pitch
	g.lastStart, g.lastEnd = st, en
	g.n++
	var s releaseSign
	if g.n >= longRun {
		s |= signLetterGaps
	}
	if g.n >= minGlyphRun {
		if lo, hi, mean := rangeMean(g.gaps[:]); lo > -0.1*g.h && hi-lo <= max(0.1*g.h, 0.2*mean) {
			s |= signLetterGaps
		}
		if lo, hi, mean := rangeMean(g.pitches[:]); hi-lo <= max(0.1*g.h, 0.1*mean) {
			s |= signComb
		}
	}
	return s
}

// rangeMean returns the least, greatest and mean of v.
func rangeMean(v []float64) (lo, hi, mean float64) {
	lo, hi = v[0], v[0]
	for _, x := range v {
		lo, hi, mean = min(lo, x), max(hi, x), mean+x
	}
	return lo, hi, mean / float64(len(v))
}

// singleGlyph reports whether s is one letter or digit. Runs of single
// punctuation marks are dot leaders and rows of symbols: no PII is
// spelled with them alone.
func singleGlyph(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && n == len(s) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func (g *glyphRun) start(w *page.Word, b page.Rect) {
	dx, dy, h := frame(w)
	*g = glyphRun{n: 1, dx: dx, dy: dy, h: max(h, 1), across: -w.Quad.LL.X*dy + w.Quad.LL.Y*dx, box: b,
		lastStart: w.Quad.LL.X*dx + w.Quad.LL.Y*dy, lastEnd: w.Quad.LR.X*dx + w.Quad.LR.Y*dy}
}
