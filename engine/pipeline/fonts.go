package pipeline

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// Text-layer verification. A font's ToUnicode map may say "xxxx" while
// its glyphs show a name; an invisible OCR layer may say "Cr3ss1da" over
// a picture of "Cressida". So before a font's words are trusted, a sample
// of them is cut out of the rendered page at the boxes the layer gives
// and read by the recogniser alone (no detection: the boxes are known),
// all in one line, and the reading is compared with the layer. A font
// that disagrees beyond fontTolerance makes every page it is used on be
// read whole by OCR, as a scan. The verdict is kept for the rest of the
// document, so the check costs one recogniser run of about
// sampleMaxRunes characters per font per document. Plain fonts (a simple
// font with neither an embedded program nor a ToUnicode map: page.Word.
// Plain) are not checked: their glyphs and their text follow the same
// glyph names, so the layer cannot say other than what they draw. What
// such a layer may still hide (invisible text over a picture) is read
// where the picture is: images are never explained by words (ink.go) and
// pages that are mostly picture are read whole.
const (
	// sampleWords and sampleMaxRunes bound a font's sample: its longest
	// words on the page, up to this many words and characters.
	sampleWords    = 3
	sampleMaxRunes = 18
	// sampleMinRunes is the least a sample must hold for its verdict to
	// stand for the whole document; a smaller one decides for its page
	// only. Fonts with fewer than minCheckRunes characters of letters or
	// digits on a page are not checked there: nothing legible to hide.
	sampleMinRunes = 10
	minCheckRunes  = 3
	// fontTolerance is the largest share of the sample's characters the
	// reading may get wrong (edits over layer characters, ignoring case
	// and spaces) for the font to be trusted. The recogniser reads clean
	// rendered text at a few percent; a lying layer gets most of them
	// wrong, and an OCR layer with digits for letters about a quarter.
	fontTolerance = 0.2
)

// docState is what the pages of one document share while it is
// processed: the verdicts on its fonts, and the readings of the ink
// regions met so far (regions.go).
type docState struct {
	mu      sync.Mutex
	fonts   map[uint64]*fontVerdict
	regions map[regionKey]*regionReading
}

func newDocState() *docState {
	return &docState{fonts: map[uint64]*fontVerdict{}, regions: map[regionKey]*regionReading{}}
}

// fontVerdict is one font's check, done by the first page that needs it;
// other pages wait for done.
type fontVerdict struct {
	done    chan struct{}
	trusted bool
	settled bool // false: the sample was too small to stand for the document
}

// checkFonts checks the fonts of pg's text-layer words not yet judged in
// this document and reports whether any of them disagrees with the
// pixels.
func (p *Pipeline) checkFonts(ctx context.Context, pg *page.Page, doc *docState) (bool, error) {
	byFont := map[uint64][]int{}
	var order []uint64
	for i, w := range pg.Words {
		if w.Source != page.SourceTextLayer || w.Font == 0 || w.Plain {
			continue
		}
		if _, ok := byFont[w.Font]; !ok {
			order = append(order, w.Font)
		}
		byFont[w.Font] = append(byFont[w.Font], i)
	}
	bad := false
	for _, f := range order {
		ok, err := p.fontTrusted(ctx, pg, doc, f, byFont[f])
		if err != nil {
			return false, err
		}
		bad = bad || !ok
	}
	return bad, nil
}

// fontTrusted returns the document's verdict on font f, checking it on
// this page (words: its words here) when no settled verdict exists.
func (p *Pipeline) fontTrusted(ctx context.Context, pg *page.Page, doc *docState, f uint64, words []int) (bool, error) {
	doc.mu.Lock()
	v, checking := doc.fonts[f]
	if !checking {
		v = &fontVerdict{done: make(chan struct{})}
		doc.fonts[f] = v
	}
	doc.mu.Unlock()
	if checking {
		// Another page is checking this font: wait for its verdict.
		select {
		case <-v.done:
		case <-ctx.Done():
			return false, ctx.Err()
		}
		if v.settled {
			return v.trusted, nil
		}
		// The other page's sample was too small, or its check failed:
		// judge on this page.
		trusted, _, err := p.checkSample(ctx, pg, words)
		return trusted, err
	}
	trusted, runes, err := p.checkSample(ctx, pg, words)
	if err != nil {
		doc.mu.Lock()
		delete(doc.fonts, f)
		doc.mu.Unlock()
		close(v.done)
		return false, err
	}
	v.trusted = trusted
	v.settled = runes >= sampleMinRunes
	close(v.done)
	return trusted, nil
}

// checkSample reads a sample of the words (indices into pg.Words) off
// the raster and compares the reading with the layer. It also returns
// the sample's legible characters: how far its verdict may stand.
func (p *Pipeline) checkSample(ctx context.Context, pg *page.Page, words []int) (trusted bool, runes int, err error) {
	s := sample(pg, words)
	if runes = sampleRunes(pg, s); runes < minCheckRunes {
		return true, runes, nil
	}
	scale := pg.DPI / 72
	quads := make([]page.Quad, 0, len(s))
	var want strings.Builder
	for _, i := range s {
		w := pg.Words[i]
		quads = append(quads, scaleQuad(padWordQuad(w.Quad), scale))
		want.WriteString(w.Text)
	}
	got, cols, err := p.deps.OCR.ReadBoxes(ctx, pg.Raster, quads)
	if err != nil {
		return false, runes, err
	}
	p.metrics.fontColumns.Add(float64(cols))
	trusted = agrees(want.String(), got)
	if trusted {
		p.metrics.fontChecks.WithLabelValues("trusted").Inc()
	} else {
		p.metrics.fontChecks.WithLabelValues("untrusted").Inc()
	}
	return trusted, runes, nil
}

// sample picks the font's longest legible words on the page that draw
// something a reader can see (drawn), at most sampleWords of them and
// sampleMaxRunes characters in all.
func sample(pg *page.Page, words []int) []int {
	var cands []int
	for _, i := range words {
		if legibleRunes(pg.Words[i].Text) >= 2 {
			cands = append(cands, i)
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int {
		return cmp.Compare(utf8.RuneCountInString(pg.Words[b].Text), utf8.RuneCountInString(pg.Words[a].Text))
	})
	var out []int
	n := 0
	for _, i := range cands {
		k := utf8.RuneCountInString(pg.Words[i].Text)
		if len(out) == sampleWords || (len(out) > 0 && n+k > sampleMaxRunes) {
			break
		}
		if !drawn(pg, pg.Words[i].Quad) {
			continue
		}
		out = append(out, i)
		n += k
	}
	return out
}

// minWordContrast is the least difference between the lightest and the
// darkest pixel of a word's box, in some channel, for the word to show
// anything. White text on white paper (a typesetter's production stamp,
// as on every Federal Register page) differs from the paper by a level
// or two: nothing to read, and so nothing to check a font against. The
// recogniser, which stretches contrast, would read noise there and
// distrust an honest font; its layer words are still detected and
// masked. Faint print is another matter: gray text 15 levels off the
// paper is readable (the visible corpus's layer-xxxx-faint, whose lying
// font went unchecked, and its data unmasked, with a bound of 24), so
// the bound sits well under it.
const minWordContrast = 8

// drawn reports whether the box of q (points) on pg's raster holds any
// contrast a reader could see.
func drawn(pg *page.Page, q page.Quad) bool {
	r := pg.Raster
	x0, y0, x1, y1 := page.PixelRect(q.Bounds(), pg.DPI, r.W, r.H)
	for c := range r.Channels {
		lo, hi := uint8(255), uint8(0)
		for y := y0; y < y1; y++ {
			row := r.Pix[y*r.Stride:]
			for x := x0; x < x1; x++ {
				v := row[x*r.Channels+c]
				lo, hi = min(lo, v), max(hi, v)
			}
			if int(hi)-int(lo) >= minWordContrast {
				return true
			}
		}
	}
	return false
}

func sampleRunes(pg *page.Page, s []int) int {
	n := 0
	for _, i := range s {
		n += legibleRunes(pg.Words[i].Text)
	}
	return n
}

func legibleRunes(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// padWordQuad grows a word's quad (points) by a fifth of its height
// across and a twentieth along, so the recogniser sees the glyphs with
// some paper above and below but not the neighbouring words' letters.
func padWordQuad(q page.Quad) page.Quad {
	ux, uy := q.UR.X-q.UL.X, q.UR.Y-q.UL.Y
	vx, vy := q.LL.X-q.UL.X, q.LL.Y-q.UL.Y
	lu := math.Hypot(ux, uy)
	lv := math.Hypot(vx, vy)
	if lu < 1e-6 || lv < 1e-6 {
		return q
	}
	ux, uy = ux/lu, uy/lu
	vx, vy = vx/lv, vy/lv
	a, c := lv/20, lv/5
	mv := func(p page.Point, su, sv float64) page.Point {
		return page.Point{X: p.X + su*a*ux + sv*c*vx, Y: p.Y + su*a*uy + sv*c*vy}
	}
	return page.Quad{UL: mv(q.UL, -1, -1), UR: mv(q.UR, 1, -1), LL: mv(q.LL, -1, 1), LR: mv(q.LR, 1, 1)}
}

// agrees reports whether the recogniser's reading matches the layer's
// text to within fontTolerance, counting letters and digits only, in
// either case (the recogniser reads stray marks at the edges of a cut-out
// word: "[2019]" for "2019").
func agrees(want, got string) bool {
	w := alnum(want)
	g := alnum(got)
	if len(w) == 0 {
		return true
	}
	return float64(editDistance(w, g)) <= fontTolerance*float64(len(w))
}

func alnum(s string) []rune {
	var out []rune
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, r)
		}
	}
	return out
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
