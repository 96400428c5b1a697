// Package layout turns a page's glyphs into the words and lines a reader
// sees.
//
// A content stream may draw its glyphs in any order, letter-spaced, with
// invisible characters among them, or one letter per line: a text layer
// read in drawing order and split where the producer's spaces fall then
// holds no word a detector knows, while a reader of the page sees a name,
// a phone number or an IBAN at once. So words are built from geometry
// alone:
//
//   - Invisible format characters (zero-width spaces and joiners, soft
//     hyphens, bidi controls, every Cf character, variation selectors)
//     are dropped with their boxes before anything else.
//   - Glyphs are grouped by orientation (the direction of their quads'
//     baselines, so rotated text keeps its own), then into rows by the
//     position of their boxes' bottom edge across that direction, and
//     sorted along it: drawing order plays no part.
//   - A glyph drawn twice a little apart (fake bold, fill then stroke) is
//     kept once, its box widened to cover both.
//   - A row splits into words where the gap between two boxes exceeds the
//     letter spacing around it by more than 0.15 em (MuPDF's own space
//     threshold, measured from zero). Letter spacing is read off the two
//     gaps on either side (the smaller of each side, the wider side), and
//     is none next to letters that touch: so evenly letter-spaced glyphs
//     (Tc, kerning in TJ, up to 1.5 em) join into one word, while ordinary
//     text, whose letters touch, splits at its spaces as before, single
//     letter words ("a", "I") included. A space the producer put between
//     two touching-letter words splits them even where the gap is narrow.
//     Single letters at an even spacing of an ordinary space ("x = y")
//     read as one word: geometry cannot tell them from letter spacing.
//   - A row splits into lines at gaps no letter spacing explains (column
//     gutters, table cells) between glyphs the producer put on different
//     lines; what it drew as one line stays one.
//   - A run of four or more glyphs on a row whose centres fall at an
//     even pitch of 0.9 to 3.5 em is a comb field (one character per
//     box, see comb.go): neighbouring boxes are one word whatever the
//     gaps, an empty box parts words of one line.
//   - A column of single letters, each alone on its row, aligned and at an
//     even pitch of about a line, is one word read top to bottom.
//   - Look-alike letters are folded conservatively: fullwidth ASCII always,
//     Cyrillic and Greek homoglyphs of Latin letters only inside a word
//     that has a Latin letter and no other letter of those scripts, so no
//     real Cyrillic or Greek word changes.
//
// Lines come out in the order of the first glyph the producer gave for
// each, so ordinary pages keep their order, and words of a line in
// reading order (right to left for a line mostly in a right-to-left
// script). Every word keeps one quad per rune of its text.
//
// Cost: O(n log n) per page in sorting; a Builder reuses its scratch
// memory, and the words of one call share one string and one quad array.
package layout

import (
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// Glyph is one character of a text layer as its producer reports it.
type Glyph struct {
	R rune
	Q page.Quad
	// Font and Plain are copied to the words the glyph starts (see
	// page.Word).
	Font  uint64
	Plain bool
	// Line is the producer's line (MuPDF's), a hint only: a wide gap
	// between glyphs of different producer lines on one row is more
	// readily a column gutter.
	Line int32
}

// Thresholds, in ems estimated from box heights (see emPerHeight).
const (
	// spaceEm is the gap beyond the letter spacing that splits words.
	spaceEm = 0.15
	// spaceRatio widens spaceEm for wide letter spacing, so uneven
	// positioning of widely spaced letters does not split them.
	spaceRatio = 0.4
	// touchEm is the widest gap between letters that touch, as those of
	// ordinary words do (kerning aside).
	touchEm = 0.05
	// inkSlackEm widens the word gap of letter-spaced ink boxes (wider
	// than inkSpacedEm: ordinary print's ink gaps stay below) by two side
	// bearings.
	inkSlackEm  = 0.15
	inkSpacedEm = 0.2
	// maxSpacingEm is the widest letter spacing that still joins letters.
	maxSpacingEm = 1.5
	// gutterEm is the gap between glyphs of different producer lines that
	// starts a new line.
	gutterEm = 1.0
	// emPerHeight converts a box height to ems: MuPDF's boxes span the
	// font's ascender to descender, about 1.3 em for common fonts.
	emPerHeight = 0.75
	// rowOverlap is the share of the lower of two boxes that must overlap
	// the other across the line for both to be on one row: a superscript
	// joins its line, the next line at tight leading does not.
	rowOverlap = 0.5
	// angleTolerance groups glyphs whose baselines differ by less (rad):
	// half a degree lets a 10-pt line 700 pt long lean against its
	// group's direction and still keep one row.
	angleTolerance = 0.5 * math.Pi / 180
)

// Builder builds words. Its zero value is ready; it reuses its memory
// from call to call and is not safe for concurrent use.
type Builder struct {
	// Ink says the glyphs' boxes hold their ink, as a recogniser's do,
	// rather than their advances: the gaps of letter-spaced print then
	// vary by the letters' side bearings as well, so a word gap there
	// must exceed the letter spacing by inkSlackEm more.
	Ink bool

	recs   []rec
	order  []int32 // indices into recs: by cluster and row, then words' glyphs
	gaps   []float64
	comb   []combGap // per gap of the current row: what a comb run says of it
	lines  []line
	words  []wspan
	cands  []cand
	chains []chain
	open   []int32
	frames []frame
	text   []byte
}

// rec is a glyph kept for layout.
type rec struct {
	g           int32 // index into the caller's glyphs
	r           rune
	ang         float64
	a0, a1      float64 // extent along the orientation's direction
	key         float64 // where it sorts along: a0, or its ligature's
	t, b        float64 // top and bottom edge across it
	ext         float64 // along-extension taken from dropped duplicates
	cl          int32   // orientation cluster
	spaceBefore bool    // the producer put a space between the previous kept glyph and this one
	dropped     bool    // a duplicate drawn over another (fake bold)
	used        bool    // taken into a vertical word
}

func (r *rec) h() float64 { return r.b - r.t }

// line is an output line: a span of b.words.
type line struct {
	key    int32 // smallest glyph index: the producer's order
	w0, w1 int32
	cl     int32
	rtl    bool
}

// wspan is a word: a span of b.order.
type wspan struct{ o0, o1 int32 }

// cand is a glyph that may belong to a vertical word.
type cand struct {
	rec  int32
	prev int32 // previous member of its chain, -1 for none
}

type chain struct {
	last  int32 // index in b.cands
	n     int32
	pitch float64
	cl    int32
}

type frame struct{ d, n page.Point }

// Build appends to dst the words of glyphs gs (one source's, in the
// producer's order), all with source src, numbering their lines from
// firstLine, and returns them with the next free line number.
func (b *Builder) Build(dst []page.Word, gs []Glyph, src page.Source, firstLine int) ([]page.Word, int) {
	b.collect(gs)
	if len(b.recs) == 0 {
		return dst, firstLine
	}
	b.cluster(gs)
	b.lines, b.words, b.cands = b.lines[:0], b.words[:0], b.cands[:0]
	nrec := len(b.order)
	for s := 0; s < nrec; {
		e := s + 1
		ref := &b.recs[b.order[s]]
		for e < nrec {
			r := &b.recs[b.order[e]]
			if r.cl != ref.cl || min(r.b, ref.b)-max(r.t, ref.t) < rowOverlap*min(r.h(), ref.h()) {
				break
			}
			e++
		}
		b.row(gs, s, e)
		s = e
	}
	b.stacks()
	return b.emit(dst, gs, src, firstLine)
}

// collect fills b.recs with the glyphs worth laying out.
func (b *Builder) collect(gs []Glyph) {
	b.recs = b.recs[:0]
	space := false
	for i := range gs {
		g := &gs[i]
		r := g.R
		if r == 0 || !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			// Control characters carry no text; they come from symbol
			// fonts (check marks) and broken ToUnicode maps, and part
			// words as spaces do.
			space = true
			continue
		}
		if Invisible(r) || !finite(g.Q) {
			continue
		}
		v := sub(g.Q.LR, g.Q.LL)
		if v.X == 0 && v.Y == 0 {
			v = sub(g.Q.UR, g.Q.UL)
		}
		if v.X == 0 && v.Y == 0 {
			up := sub(g.Q.UL, g.Q.LL)
			v = page.Point{X: -up.Y, Y: up.X}
		}
		ang := 0.0
		if v.Y != 0 || v.X < 0 { // most text runs straight right: 0
			ang = math.Atan2(v.Y, v.X)
		}
		if ang < -math.Pi+angleTolerance {
			ang += 2 * math.Pi // keep upside-down text in one group
		}
		b.recs = append(b.recs, rec{g: int32(i), r: r, ang: ang, spaceBefore: space})
		space = false
	}
}

// cluster groups recs by orientation, measures each in its group's
// frame, and leaves b.order sorted by group, then bottom edge.
func (b *Builder) cluster(gs []Glyph) {
	b.order = b.order[:0]
	for i := range b.recs {
		b.order = append(b.order, int32(i))
	}
	slices.SortFunc(b.order, func(x, y int32) int { return cmpF(b.recs[x].ang, b.recs[y].ang) })
	// Each group is measured in the direction of its middle glyph: most
	// of a group's glyphs share one angle, and a line at another angle
	// within the tolerance drifts across the frame by at most its
	// tolerance.
	b.frames = b.frames[:0]
	for s := 0; s < len(b.order); {
		e := s + 1
		for e < len(b.order) && b.recs[b.order[e]].ang-b.recs[b.order[s]].ang <= angleTolerance {
			e++
		}
		sin, cos := math.Sincos(b.recs[b.order[(s+e)/2]].ang)
		f := frame{d: page.Point{X: cos, Y: sin}, n: page.Point{X: -sin, Y: cos}}
		b.frames = append(b.frames, f)
		for _, i := range b.order[s:e] {
			r := &b.recs[i]
			r.cl = int32(len(b.frames) - 1)
			measure(r, gs[r.g].Q, f)
		}
		s = e
	}
	// MuPDF reports the letters after the first of a ligature ("ffi") as
	// empty boxes at its end, where the next glyph may start a hair
	// earlier: they sort with the ligature's first letter, in the
	// producer's order. So do combining marks drawn after their letter.
	for i := range b.recs {
		r := &b.recs[i]
		r.key = r.a0
		if i > 0 {
			p := &b.recs[i-1]
			eps := 0.02 * max(r.h(), p.h())
			if p.cl == r.cl && r.a1-r.a0 <= eps && math.Abs(r.a0-p.a1) <= eps+p.ext && math.Abs(r.b-p.b) <= eps {
				r.key = p.key
			}
		}
	}
	slices.SortFunc(b.order, func(x, y int32) int {
		rx, ry := &b.recs[x], &b.recs[y]
		if rx.cl != ry.cl {
			return int(rx.cl - ry.cl)
		}
		return cmpF(rx.b, ry.b)
	})
}

// measure fills r's extents in frame f from quad q.
func measure(r *rec, q page.Quad, f frame) {
	r.a0, r.t = math.Inf(1), math.Inf(1)
	r.a1, r.b = math.Inf(-1), math.Inf(-1)
	for _, p := range [...]page.Point{q.UL, q.UR, q.LL, q.LR} {
		a, c := dot(p, f.d), dot(p, f.n)
		r.a0, r.a1 = min(r.a0, a), max(r.a1, a)
		r.t, r.b = min(r.t, c), max(r.b, c)
	}
}

// row lays out the row b.order[s:e]: sorts it along, drops duplicates,
// and splits it into words and lines.
func (b *Builder) row(gs []Glyph, s, e int) {
	o := b.order[s:e]
	slices.SortFunc(o, func(x, y int32) int {
		rx, ry := &b.recs[x], &b.recs[y]
		if c := cmpF(rx.key, ry.key); c != 0 {
			return c
		}
		return int(rx.g - ry.g)
	})
	// Fake bold and fill-then-stroke draw a glyph twice, a little apart:
	// keep one, widened to cover both.
	n := 1
	for k := 1; k < len(o); k++ {
		r, p := &b.recs[o[k]], &b.recs[o[n-1]]
		if r.r == p.r && r.a0-p.a0 < 0.3*(p.a1-p.a0) && math.Abs(r.b-p.b) < 0.2*p.h() {
			r.dropped = true
			p.ext = max(p.ext, r.a1-p.a1)
			continue
		}
		o[n] = o[k]
		n++
	}
	o = o[:n]
	b.gaps = b.gaps[:0]
	for k := 0; k+1 < len(o); k++ {
		x, y := &b.recs[o[k]], &b.recs[o[k+1]]
		b.gaps = append(b.gaps, (y.a0-x.a1-x.ext)/(emPerHeight*max(x.h(), y.h())))
	}
	lineStart := len(b.words)
	wordStart := 0
	endWord := func(k int) { // the word ends after o[k]
		b.words = append(b.words, wspan{int32(s + wordStart), int32(s + k + 1)})
		if k == wordStart && b.isolated(o, k) {
			b.cands = append(b.cands, cand{rec: o[k], prev: -1})
		}
		wordStart = k + 1
	}
	endLine := func() {
		b.lines = append(b.lines, line{w0: int32(lineStart), w1: int32(len(b.words)), cl: b.recs[o[0]].cl})
		lineStart = len(b.words)
	}
	b.combs(o)
	for k, g := range b.gaps {
		if b.comb[k] == combJoin {
			continue
		}
		l := b.spacing(k)
		x, y := o[k], o[k+1]
		// What the producer drew as one line stays one (a report's
		// columns of one string); a gap no letter spacing explains
		// between two of its lines is a gutter or a cell's edge.
		newLine := gs[b.recs[x].g].Line != gs[b.recs[y].g].Line && g > max(gutterEm, 2*l+0.5) && b.comb[k] != combSkip
		space := y == x+1 && b.recs[y].spaceBefore || x == y+1 && b.recs[x].spaceBefore
		slack := 0.0
		if b.Ink && l > inkSpacedEm {
			slack = inkSlackEm
		}
		if newLine || b.comb[k] == combSkip || g > l+max(spaceEm, spaceRatio*l)+slack || space && l < 0.05 && g > 0.05 {
			endWord(k)
			if newLine {
				endLine()
			}
		}
	}
	endWord(len(o) - 1)
	endLine()
}

// spacing is the letter spacing around gap k of the current row, in ems:
// on each side, the smaller of the two next gaps (the letters of the word
// there, or its spacing), and of the two sides the wider, so that a word
// gap next to ordinary words, whose letters touch, stays a word gap,
// while inside letter-spaced text the spacing is the gaps' own. At least
// 0, and 0 where it is too wide to be letter spacing.
func (b *Builder) spacing(k int) float64 {
	side := func(j0, j1 int) float64 {
		l := math.Inf(1)
		for _, j := range [...]int{j0, j1} {
			if j >= 0 && j < len(b.gaps) {
				l = min(l, b.gaps[j])
			}
		}
		if math.IsInf(l, 1) {
			return math.Inf(-1) // no gap on that side
		}
		return l
	}
	l := max(side(k-1, k-2), side(k+1, k+2))
	if math.IsInf(l, 0) || l > maxSpacingEm {
		return 0
	}
	// A gap right next to touching letters is a word's end: letter
	// spacing spaces every letter.
	if k > 0 && b.gaps[k-1] < touchEm || k+1 < len(b.gaps) && b.gaps[k+1] < touchEm {
		return 0
	}
	return max(l, 0)
}

// isolated reports whether glyph k of row o, a word by itself, is a
// letter or digit at least an em from its neighbours on the row: a
// candidate for a vertical word.
func (b *Builder) isolated(o []int32, k int) bool {
	r := b.recs[o[k]].r
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return false
	}
	return (k == 0 || b.gaps[k-1] > 1) && (k == len(o)-1 || b.gaps[k] > 1)
}

// stacks finds vertical words among b.cands: chains of at least three
// glyphs, one above the other (centres within half a glyph's width), at
// an even pitch between 0.6 and 1.9 box heights, with a letter among
// them. Their glyphs leave their rows' words.
func (b *Builder) stacks() {
	if len(b.cands) < 3 {
		return
	}
	slices.SortFunc(b.cands, func(x, y cand) int {
		rx, ry := &b.recs[x.rec], &b.recs[y.rec]
		if rx.cl != ry.cl {
			return int(rx.cl - ry.cl)
		}
		return cmpF(rx.b, ry.b)
	})
	b.chains, b.open = b.chains[:0], b.open[:0]
	for ci := range b.cands {
		c := &b.recs[b.cands[ci].rec]
		best, bestDx := -1, math.Inf(1)
		for k := 0; k < len(b.open); {
			ch := &b.chains[b.open[k]]
			l := &b.recs[b.cands[ch.last].rec]
			hm := max(c.h(), l.h())
			p := c.b - l.b
			if ch.cl != c.cl || p > 1.9*hm {
				b.open[k] = b.open[len(b.open)-1] // no later glyph can join it
				b.open = b.open[:len(b.open)-1]
				continue
			}
			k++
			if p < 0.6*hm || ch.n >= 2 && math.Abs(p-ch.pitch) > 0.25*ch.pitch {
				continue
			}
			dx := math.Abs((c.a0 + c.a1 - l.a0 - l.a1) / 2)
			if dx > max(0.5*max(c.a1-c.a0, l.a1-l.a0), 0.2*hm) || dx >= bestDx {
				continue
			}
			best, bestDx = k-1, dx
		}
		if best < 0 {
			b.chains = append(b.chains, chain{last: int32(ci), n: 1, cl: c.cl})
			b.open = append(b.open, int32(len(b.chains)-1))
			continue
		}
		ch := &b.chains[b.open[best]]
		if ch.n == 1 {
			ch.pitch = c.b - b.recs[b.cands[ch.last].rec].b
		}
		b.cands[ci].prev = ch.last
		ch.last = int32(ci)
		ch.n++
	}
	for _, ch := range b.chains {
		if ch.n < 3 {
			continue
		}
		letter := false
		for ci := ch.last; ci >= 0; ci = b.cands[ci].prev {
			letter = letter || unicode.IsLetter(b.recs[b.cands[ci].rec].r)
		}
		if !letter {
			continue
		}
		o0 := len(b.order)
		for ci := ch.last; ci >= 0; ci = b.cands[ci].prev {
			b.recs[b.cands[ci].rec].used = true
			b.order = append(b.order, b.cands[ci].rec)
		}
		slices.Reverse(b.order[o0:])
		b.words = append(b.words, wspan{int32(o0), int32(len(b.order))})
		b.lines = append(b.lines, line{w0: int32(len(b.words) - 1), w1: int32(len(b.words)), cl: ch.cl})
	}
}

// emit orders the lines and appends their words to dst.
func (b *Builder) emit(dst []page.Word, gs []Glyph, src page.Source, lineNo int) ([]page.Word, int) {
	// Each line's key and direction; lines emptied by vertical words go.
	n := 0
	for _, ln := range b.lines {
		key, ltr, rtl := int32(math.MaxInt32), 0, 0
		for _, w := range b.words[ln.w0:ln.w1] {
			for _, i := range b.order[w.o0:w.o1] {
				r := &b.recs[i]
				if r.used && !b.vertical(ln) {
					continue
				}
				key = min(key, r.g)
				switch {
				case isRTL(r.r):
					rtl++
				case unicode.IsLetter(r.r):
					ltr++
				}
			}
		}
		if key == math.MaxInt32 {
			continue
		}
		ln.key, ln.rtl = key, rtl > ltr
		b.lines[n] = ln
		n++
	}
	b.lines = b.lines[:n]
	slices.SortStableFunc(b.lines, func(x, y line) int { return int(x.key - y.key) })

	// One string and one quad array for all the words.
	b.text = b.text[:0]
	nq := 0
	for _, ln := range b.lines {
		for _, w := range b.words[ln.w0:ln.w1] {
			nq += int(w.o1 - w.o0)
		}
	}
	quads := make([]page.Quad, 0, nq)
	type span struct{ t0, t1, q0, q1 int }
	first := len(dst)
	nw := 0
	for _, ln := range b.lines {
		nw += int(ln.w1 - ln.w0)
	}
	dst = slices.Grow(dst, nw) // at most one word each
	spans := make([]span, 0, nw)
	for _, ln := range b.lines {
		vert := b.vertical(ln)
		f := b.frames[ln.cl]
		emitted := false
		for k := range ln.w1 - ln.w0 {
			wi := k
			if ln.rtl {
				wi = b.rtlIndex(ln, k)
			}
			w := b.words[ln.w0+wi]
			t0, q0 := len(b.text), len(quads)
			var a0, a1, top, bot = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
			firstRec := int32(-1)
			o := b.order[w.o0:w.o1]
			rev := ln.rtl && b.rtlWord(o)
			homo := b.foldHomoglyphs(o, vert)
			for k := range o {
				if rev {
					k = len(o) - 1 - k
				}
				r := &b.recs[o[k]]
				if r.dropped || r.used && !vert {
					continue
				}
				if firstRec < 0 {
					firstRec = o[k]
				}
				b.text = utf8.AppendRune(b.text, foldRune(r.r, homo))
				q := gs[r.g].Q
				if r.ext > 0 {
					e := page.Point{X: r.ext * f.d.X, Y: r.ext * f.d.Y}
					q.UR, q.LR = add(q.UR, e), add(q.LR, e)
				}
				quads = append(quads, q)
				a0, a1 = min(a0, r.a0), max(a1, r.a1+r.ext)
				top, bot = min(top, r.t), max(bot, r.b)
			}
			if firstRec < 0 {
				continue
			}
			g := &gs[b.recs[firstRec].g]
			dst = append(dst, page.Word{
				Quad:   frameQuad(f, a0, a1, top, bot),
				Line:   lineNo,
				Source: src,
				Conf:   1,
				Font:   g.Font,
				Plain:  g.Plain,
			})
			spans = append(spans, span{t0, len(b.text), q0, len(quads)})
			emitted = true
		}
		if emitted {
			lineNo++
		}
	}
	text := string(b.text)
	for i, s := range spans {
		w := &dst[first+i]
		w.Text = text[s.t0:s.t1]
		w.Chars = quads[s.q0:s.q1:s.q1]
	}
	return dst, lineNo
}

// vertical reports whether ln is a vertical word's line.
func (b *Builder) vertical(ln line) bool {
	return ln.w1-ln.w0 == 1 && b.words[ln.w0].o0 >= int32(len(b.recs))
}

// rtlIndex is the index, in ln's words from left to right, of the k-th
// word read in right-to-left line ln: from the right, except that a run
// of words with no right-to-left letter (numbers, Latin names) reads from
// its left, as the bidi algorithm shows it.
func (b *Builder) rtlIndex(ln line, k int32) int32 {
	n := ln.w1 - ln.w0
	rtl := func(i int32) bool {
		w := b.words[ln.w0+i]
		return b.rtlWord(b.order[w.o0:w.o1])
	}
	for j := n - 1; j >= 0; {
		if rtl(j) {
			if k == 0 {
				return j
			}
			k--
			j--
			continue
		}
		i := j
		for i > 0 && !rtl(i-1) {
			i--
		}
		if k <= j-i {
			return i + k
		}
		k -= j - i + 1
		j = i - 1
	}
	return k
}

// rtlWord reports whether the glyphs o hold a right-to-left letter.
func (b *Builder) rtlWord(o []int32) bool {
	for _, i := range o {
		if isRTL(b.recs[i].r) {
			return true
		}
	}
	return false
}

func isRTL(r rune) bool {
	if r < 0x590 { // below Hebrew
		return false
	}
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko)
}

// frameQuad is the quad of frame f spanning a0..a1 along and top..bot
// across.
func frameQuad(f frame, a0, a1, top, bot float64) page.Quad {
	at := func(a, c float64) page.Point {
		return page.Point{X: a*f.d.X + c*f.n.X, Y: a*f.d.Y + c*f.n.Y}
	}
	return page.Quad{UL: at(a0, top), UR: at(a1, top), LL: at(a0, bot), LR: at(a1, bot)}
}

func finite(q page.Quad) bool {
	// x-x is 0 for every finite x, NaN for infinities and NaN.
	return q.UL.X-q.UL.X == 0 && q.UL.Y-q.UL.Y == 0 && q.UR.X-q.UR.X == 0 && q.UR.Y-q.UR.Y == 0 &&
		q.LL.X-q.LL.X == 0 && q.LL.Y-q.LL.Y == 0 && q.LR.X-q.LR.X == 0 && q.LR.Y-q.LR.Y == 0
}

func sub(p, q page.Point) page.Point { return page.Point{X: p.X - q.X, Y: p.Y - q.Y} }
func add(p, q page.Point) page.Point { return page.Point{X: p.X + q.X, Y: p.Y + q.Y} }
func dot(p, q page.Point) float64    { return p.X*q.X + p.Y*q.Y }

func cmpF(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
