package pipeline

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/burn"
	"github.com/redactd/redactd/engine/visual"
)

// Handwriting (issue 47, category Signature): signatures, initials and
// handwritten notes. Only ink that print does not explain is looked at:
// in the page's pictures (scans, pasted images) the ink outside the
// words the text layer or OCR read with confidence (handPrintConf), and
// on pages with a text layer the drawn ink it leaves unexplained (vector
// signatures, ink.go's regions, which OCR read already). That ink is
// grouped into candidates (visual.InkCandidates), cut into patches
// (visual.Patches) and scored by models/hand's classifier; a candidate
// whose mean score reaches handThreshold is masked, or handLabelThreshold
// when a label ("Signature", "Unterschrift", ...) is near it, or
// handNearThreshold beside handwriting taken. A page
// with neither pictures nor unexplained ink pays nothing.

// Hand scores patches of ink (models/hand.Model).
type Hand interface {
	Score(patches [][]float32) ([]float32, error)
}

const (
	// handPrintConf: an OCR word read with this confidence is print and
	// explains the ink under it; below it, the classifier decides. On the
	// handwriting corpus's scans the recogniser read handwriting at 0.42
	// to 0.90 (initials as "OO" once at 0.90) and the small print of
	// noisy scans from 0.76 up, mostly over 0.9.
	handPrintConf = 0.9
	// handThreshold and handLabelThreshold are the classifier's score
	// from which a candidate is handwriting, away from and near a label.
	// At 0.5 away from labels 9 of the shared real documents' 79 pages
	// got a false mask (cut print, seals, logos, hatching); at 0.85, 2
	// (with printOverflow), the dev corpus's recall 0.94 -> 0.90.
	handThreshold      = 0.85
	handLabelThreshold = 0.3
	// handFieldThreshold: a candidate a form field's caption announces
	// ("Date", "Name": handFields) is taken from the classifier's own
	// decision point. A field's typed entry is print that the text layer
	// or OCR reads; the entry they leave unexplained there is mostly
	// written by hand (the dev corpora's dates and names in form boxes
	// scored 0.42 to 0.85).
	handFieldThreshold = 0.5
	// handNearThreshold, handNearPt: a candidate within handNearPt of
	// handwriting (a candidate taken) is taken from this score: a note's
	// short words and a signature's pieces are handwriting beside
	// handwriting.
	handNearThreshold = 0.2
	handNearPt        = 18
	// handMirror: a candidate of one patch that is its own mirror image
	// left to right this nearly (visual.Mirrored) is not handwriting,
	// whatever its score. 0.9 is the 99.5th percentile of the recipe's
	// handwriting patches (seed 1: 0.5% of them reach it, 17% of its
	// other patches reach 0.8).
	handMirror = 0.9
)

// handTrace, when set (by tests), is told each page's candidates and
// the print that explained ink: for finding why a piece is missed.
var handTrace func(pg *page.Page, print []page.Rect, cands []HandCandidate)

// HandCandidate is one candidate as handPage decided it (handTrace).
type HandCandidate struct {
	Box        page.Rect // points
	Score, Thr float32
	Label      bool   // a label is near
	Taken      bool   // masked
	Dropped    string // why it was not scored ("print overflow", "no patch")
}

// handLabels are the words that announce a signature or handwriting, in
// the languages the product reads, lower case and without accents'
// variants listed apart.
var handLabels = map[string]bool{
	"signature": true, "signatures": true, "signed": true, "sign": true, "signatory": true, "initials": true,
	"unterschrift": true, "unterschriften": true, "unterzeichnet": true,
	"signé": true, "signe": true, "signée": true, "visa": true,
	"firma": true, "firmado": true, "firmato": true,
	"handtekening": true, "getekend": true, "paraaf": true,
	"assinatura": true, "assinado": true,
}

// handFields are the captions of the form fields people fill in by
// hand (a date, a name), in the languages the product reads, lower case:
// an entry under or beside one is handwriting from handFieldThreshold.
var handFields = map[string]bool{
	"date": true, "name": true, "datum": true, "naam": true, "nom": true,
	"fecha": true, "nombre": true, "data": true, "nome": true,
}

// isField reports whether w is a form field's caption (handFields).
func isField(w string) bool {
	return handFields[strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))]
}

// isDateField reports whether field caption w is a date's.
func isDateField(w string) bool {
	switch strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })) {
	case "date", "datum", "fecha", "data":
		return true
	}
	return false
}

// undatedEntry reports whether word w lies under one of the date
// captions dates, where nearField finds a field's entry, and holds no
// digit (nor is a caption itself): not a typed date, whatever OCR's
// confidence in it.
func undatedEntry(w page.Word, dates []page.Rect) bool {
	if strings.ContainsFunc(w.Text, unicode.IsDigit) || isField(w.Text) {
		return false
	}
	b := w.Quad.Bounds()
	for _, d := range dates {
		if b.Y0 >= d.Y1-0.5*(d.Y1-d.Y0) && nearField(d, b) {
			return true
		}
	}
	return false
}

// lastOnLine reports whether no word follows words[i] on its line within
// three times its height: a caption ends its line, a sentence's "date"
// ("the invoice date to the account", "Place and date: Amsterdam") does
// not.
func lastOnLine(words []page.Word, i int) bool {
	b := words[i].Quad.Bounds()
	h := b.Y1 - b.Y0
	for j, w := range words {
		o := w.Quad.Bounds()
		if j != i && min(b.Y1, o.Y1)-max(b.Y0, o.Y0) >= 0.5*min(h, o.Y1-o.Y0) && o.X0 >= b.X1-0.2*h && o.X0-b.X1 <= 3*h {
			return false
		}
	}
	return true
}

// isHandLabel reports whether w is a label word, or one letter off one
// of six letters or more (OCR's reading of a scanned label: "Signatıra",
// "Untersclirift" is two off and not taken).
func isHandLabel(w string) bool {
	w = strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
	if handLabels[w] {
		return true
	}
	if n := utf8.RuneCountInString(w); n >= 6 {
		for l := range handLabels {
			if utf8.RuneCountInString(l) >= 6 && oneEditApart([]rune(w), []rune(l)) {
				return true
			}
		}
	}
	return false
}

// oneEditApart reports whether a and b differ by one substitution,
// insertion or deletion.
func oneEditApart(a, b []rune) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return i == len(a) || string(a[i+1:]) == string(b[i+1:])
	}
	return string(a[i+1:]) == string(b[i:])
}

// nearLabel reports whether label box l announces candidate c (points):
// to its left on its line up to 3 in away, or above or below it within
// 0.75 in, overlapping it across within half an inch.
func nearLabel(l, c page.Rect) bool {
	dx := max(l.X0-c.X1, c.X0-l.X1, 0)
	dy := max(l.Y0-c.Y1, c.Y0-l.Y1, 0)
	if dy == 0 && l.X1 <= c.X1 && dx <= 216 {
		return true
	}
	return dx <= 36 && dy <= 54
}

// candScore is a candidate's score from its patches' scores: their mean,
// or 0 for a one-patch candidate that is its own mirror image (an
// ornament, a seal: drawn symmetric).
func candScore(scores []float32, patches [][]float32) float32 {
	if len(patches) == 1 && visual.Mirrored(patches[0]) >= handMirror {
		return 0
	}
	var sum float32
	for _, v := range scores {
		sum += v
	}
	return sum / float32(len(scores))
}

// handPage returns the boxes, in points, of the handwriting to mask on
// pg, and whether any ink was looked at. ink are the regions (raster
// pixels) of drawn ink the text layer left unexplained (readPixels), nil
// on scans; one mostly inside a picture is looked at with the picture.
// It runs only when the request asks for Signature.
func (p *Pipeline) handPage(ctx context.Context, pg *page.Page, opts detect.Options, ink []PixelRect) ([]burn.Box, bool, error) {
	if !slices.Contains(opts.Categories, page.Signature) || pg.Raster == nil || p.deps.Hand == nil {
		return nil, false, nil
	}
	regions := pictureRegions(pg)
	pictures := len(regions)
	for _, r := range ink {
		if r.X1-r.X0 >= minVisualPx && r.Y1-r.Y0 >= minVisualPx && 2*overlap(r, regions[:pictures]) < area(r) {
			regions = append(regions, r)
		}
	}
	if len(regions) == 0 {
		return nil, false, nil
	}
	t := time.Now()
	defer p.metrics.observe("hand", t)
	s := pg.DPI / 72
	var print []visual.Box // raster pixels
	var labels []page.Rect // points
	// OCR's word far taller than the page's print (a signature's loops
	// read as "0.00") explains no ink: the classifier decides.
	var ocrBoxes []page.Rect
	for _, w := range pg.Words {
		if w.Source == page.SourceOCR {
			ocrBoxes = append(ocrBoxes, w.Quad.Bounds())
		}
	}
	huge := math.Inf(1)
	if len(ocrBoxes) > 0 {
		huge = handHugeWord * medianHeight(ocrBoxes)
	}
	// Form fields' captions ("Date", "Full name": a field word read
	// with confidence, nothing after it on its line): an entry near one
	// is handwriting from handFieldThreshold, and a word OCR read under
	// a date's caption with no digit in it is not a typed date: the
	// classifier decides (a date's loops read as "m" at 0.95).
	var fields, dates []page.Rect // points
	for i, w := range pg.Words {
		if w.Conf >= handPrintConf && isField(w.Text) && lastOnLine(pg.Words, i) {
			fields = append(fields, w.Quad.Bounds())
			if isDateField(w.Text) {
				dates = append(dates, w.Quad.Bounds())
			}
		}
	}
	confident := func(w page.Word) bool {
		if isHandLabel(w.Text) {
			return true
		}
		b := w.Quad.Bounds()
		if w.Source == page.SourceOCR && undatedEntry(w, dates) {
			return false
		}
		return w.Conf >= handPrintConf && (w.Source != page.SourceOCR || b.Y1-b.Y0 < huge)
	}
	var misread []page.Rect // OCR's confident words that may be handwriting misread (points)
	for i, w := range pg.Words {
		b := w.Quad.Bounds()
		if isHandLabel(w.Text) {
			labels = append(labels, b)
		}
		// A label is print whatever OCR's confidence in it, and so is a
		// word OCR doubted between two it read on its line (a caption's
		// "of").
		if !confident(w) && !betweenPrint(pg.Words, i, confident) || hiddenWord(pg, b) {
			continue
		}
		if w.Source == page.SourceOCR && !isHandLabel(w.Text) {
			misread = append(misread, b)
		}
		// OCR's boxes are tight: the word's anti-aliased edges and accents
		// are explained too.
		m := max(2/s, 0.15*(b.Y1-b.Y0))
		print = append(print, visual.Box{X0: int((b.X0 - m) * s), Y0: int((b.Y0 - m) * s), X1: int((b.X1+m)*s + 0.999), Y1: int((b.Y1+m)*s + 0.999)})
	}
	type cand struct {
		box        page.Rect
		first, end int // its patches
		g          visual.Gray
		px         visual.Box // in g
		r          PixelRect  // g's region
	}
	var cands []cand
	var patches [][]float32
	var dropped []HandCandidate // handTrace's
	for _, r := range regions {
		if err := ctx.Err(); err != nil {
			return nil, true, err
		}
		g := grayOf(pg.Raster, r)
		var local []visual.Box
		for _, b := range print {
			if b.X1 > r.X0 && b.X0 < r.X1 && b.Y1 > r.Y0 && b.Y0 < r.Y1 {
				local = append(local, visual.Box{X0: b.X0 - r.X0, Y0: b.Y0 - r.Y0, X1: b.X1 - r.X0, Y1: b.Y1 - r.Y0})
			}
		}
		for _, c := range visual.InkCandidates(g, local, pg.DPI) {
			box := regionBoxPt(r, c, s)
			if printOverflow(c, local) {
				if handTrace != nil {
					dropped = append(dropped, HandCandidate{Box: box, Dropped: "print overflow"})
				}
				continue
			}
			ps := visual.Patches(g, c)
			if len(ps) == 0 {
				continue
			}
			cands = append(cands, cand{box, len(patches), len(patches) + len(ps), g, c, r})
			patches = append(patches, ps...)
		}
	}
	if len(cands) == 0 {
		if handTrace != nil {
			handTrace(pg, tracePrint(print, s), dropped)
		}
		return nil, true, nil
	}
	scores, err := p.deps.Hand.Score(patches)
	if err != nil {
		return nil, true, err
	}
	score := make([]float32, len(cands))
	taken := make([]bool, len(cands))
	for i, c := range cands {
		score[i] = candScore(scores[c.first:c.end], patches[c.first:c.end])
		taken[i] = score[i] >= candThreshold(c.box, labels, fields)
	}
	// A caption OCR did not read, joined to the writing under it
	// (visual.BelowCaption): the writing is scored alone, and taken, the
	// caption with it, when it is handwriting.
	var under []int // the candidates scored again
	var ups [][]float32
	var upEnd []int
	var upBox []page.Rect
	for i, c := range cands {
		if taken[i] {
			continue
		}
		b, ok := visual.BelowCaption(c.g, c.px, pg.DPI)
		if !ok {
			continue
		}
		ps := visual.Patches(c.g, b)
		if len(ps) == 0 {
			continue
		}
		under = append(under, i)
		ups = append(ups, ps...)
		upEnd = append(upEnd, len(ups))
		upBox = append(upBox, regionBoxPt(c.r, b, s))
	}
	if len(ups) > 0 {
		sc, err := p.deps.Hand.Score(ups)
		if err != nil {
			return nil, true, err
		}
		from := 0
		for k, i := range under {
			v := candScore(sc[from:upEnd[k]], ups[from:upEnd[k]])
			from = upEnd[k]
			if v > score[i] && v >= candThreshold(upBox[k], labels, fields) {
				score[i], taken[i] = v, true
			}
		}
	}
	for grew := true; grew; {
		grew = false
		for i, c := range cands {
			if taken[i] || score[i] < handNearThreshold {
				continue
			}
			for j, d := range cands {
				if taken[j] && gap(c.box, d.box) <= handNearPt {
					taken[i], grew = true, true
					break
				}
			}
		}
	}
	// OCR's confident reading of a piece of handwriting (a loop read as
	// "y") explains its ink, and the candidates stop at it: a word taller
	// than the page's print beside handwriting taken, on its line, is
	// that handwriting.
	if len(misread) > 0 {
		tall := handMisreadTall * medianHeight(misread)
		for _, w := range misread {
			if w.Y1-w.Y0 < tall {
				continue
			}
			for i, c := range cands {
				if taken[i] && besideOnLine(w, c.box) {
					cands[i].box = page.Rect{X0: min(c.box.X0, w.X0), Y0: min(c.box.Y0, w.Y0), X1: max(c.box.X1, w.X1), Y1: max(c.box.Y1, w.Y1)}
					break
				}
			}
		}
	}
	if handTrace != nil {
		tr := dropped
		for i, c := range cands {
			l := false
			for _, lb := range labels {
				l = l || nearLabel(lb, c.box)
			}
			thr := candThreshold(c.box, labels, fields)
			tr = append(tr, HandCandidate{Box: c.box, Score: score[i], Thr: thr, Label: l, Taken: taken[i]})
		}
		handTrace(pg, tracePrint(print, s), tr)
	}
	var out []burn.Box
	for i, c := range cands {
		if !taken[i] {
			continue
		}
		// A margin of 1 pt: the pen's anti-aliased edge.
		b := page.Rect{X0: c.box.X0 - 1, Y0: c.box.Y0 - 1, X1: c.box.X1 + 1, Y1: c.box.Y1 + 1}
		out = append(out, burn.Box{Rect: b, Category: page.Signature, Source: page.SourceImage, Recognizer: "hand", Score: score[i]})
		p.metrics.visualFound.WithLabelValues("signature").Inc()
	}
	return out, true, nil
}

// candThreshold is the score from which candidate c (points) is
// handwriting: handLabelThreshold near a label, handFieldThreshold near a
// field's caption, handThreshold elsewhere.
func candThreshold(c page.Rect, labels, fields []page.Rect) float32 {
	for _, l := range labels {
		if nearLabel(l, c) {
			return handLabelThreshold
		}
	}
	for _, f := range fields {
		if nearField(f, c) {
			return handFieldThreshold
		}
	}
	return handThreshold
}

// nearField reports whether field caption f announces candidate c
// (points): c starts under f (its left edge within f's width plus 36 pt
// of f's) and at most 36 pt below it, or on f's line within 72 pt to its
// right (a form's "Date: ____").
func nearField(f, c page.Rect) bool {
	h := f.Y1 - f.Y0
	if c.Y0 >= f.Y1-0.5*h && c.Y0-f.Y1 <= 36 && c.X0 >= f.X0-0.5*h && c.X0 <= f.X1+36 {
		return true
	}
	return min(f.Y1, c.Y1)-max(f.Y0, c.Y0) >= 0.5*h && c.X0 >= f.X1-0.5*h && c.X0-f.X1 <= 72
}

// betweenPrint reports whether words[i] lies between two words that
// confident accepts on its line: as high as it (within a quarter), its
// box overlapping theirs across most of their height, each apart from it
// by at most 0.6 of its height. Handwriting between printed words that
// tightly is rare; a caption's short word OCR doubted is not.
func betweenPrint(words []page.Word, i int, confident func(page.Word) bool) bool {
	b := words[i].Quad.Bounds()
	h := b.Y1 - b.Y0
	if h <= 0 {
		return false
	}
	left, right := false, false
	for j, w := range words {
		if j == i || !confident(w) {
			continue
		}
		o := w.Quad.Bounds()
		oh := o.Y1 - o.Y0
		if oh < 0.75*h || oh > 1.25*h || min(b.Y1, o.Y1)-max(b.Y0, o.Y0) < 0.7*min(h, oh) {
			continue
		}
		if g := b.X0 - o.X1; g >= -0.2*h && g <= 0.6*h {
			left = true
		}
		if g := o.X0 - b.X1; g >= -0.2*h && g <= 0.6*h {
			right = true
		}
	}
	return left && right
}

// handMisreadTall: an OCR word this many times the page's median OCR
// word height, or taller, beside handwriting taken on its line, is taken
// with it (chosen on the dev corpus, seed 11).
const handMisreadTall = 1.5

// handHugeWord: an OCR word this many times the page's median OCR word
// height, or taller, is not taken for print however confident OCR is in
// it (chosen on the dev corpus, seeds 11 to 13).
const handHugeWord = 3.0

// besideOnLine reports whether word w (points) is on candidate c's line
// (overlapping it across half w's height) and touches it or lies within
// handNearPt of it along the line.
func besideOnLine(w, c page.Rect) bool {
	h := w.Y1 - w.Y0
	if min(w.Y1, c.Y1)-max(w.Y0, c.Y0) < 0.5*h {
		return false
	}
	return max(w.X0-c.X1, c.X0-w.X1, 0) <= handNearPt
}

// medianHeight is the median height of boxes rs.
func medianHeight(rs []page.Rect) float64 {
	hs := make([]float64, len(rs))
	for i, r := range rs {
		hs[i] = r.Y1 - r.Y0
	}
	slices.Sort(hs)
	return hs[len(hs)/2]
}

// tracePrint is print (raster pixels) in points, for handTrace.
func tracePrint(print []visual.Box, s float64) []page.Rect {
	out := make([]page.Rect, len(print))
	for i, b := range print {
		out[i] = page.Rect{X0: float64(b.X0) / s, Y0: float64(b.Y0) / s, X1: float64(b.X1) / s, Y1: float64(b.Y1) / s}
	}
	return out
}

// printOverflow reports whether candidate c is the rest of a printed
// word (one of print, grown): ink overlapping the word's box, on its line
// (its height mostly within the word's) and no taller than 1.5 words: a
// word whose box is narrower than its glyphs (a widget's caption, a
// substituted font) leaves such ink. Handwriting beside print is taller,
// or apart from it.
func printOverflow(c visual.Box, print []visual.Box) bool {
	h := c.Y1 - c.Y0
	for _, b := range print {
		if c.X0 >= b.X1 || b.X0 >= c.X1 || c.Y0 >= b.Y1 || b.Y0 >= c.Y1 {
			continue
		}
		in := min(c.Y1, b.Y1) - max(c.Y0, b.Y0)
		if 10*in >= 6*h && 2*h <= 3*(b.Y1-b.Y0) {
			return true
		}
	}
	return false
}

// gap is the distance between boxes a and b (0 when they touch).
func gap(a, b page.Rect) float64 {
	return max(a.X0-b.X1, b.X0-a.X1, a.Y0-b.Y1, b.Y0-a.Y1, 0)
}

// hiddenWord reports whether b lies in the page's invisible text: such
// words draw nothing, so they explain no ink (a scanner's OCR layer over
// a signature).
func hiddenWord(pg *page.Page, b page.Rect) bool {
	for _, h := range pg.HiddenText {
		if b.X0 >= h.X0-1 && b.Y0 >= h.Y0-1 && b.X1 <= h.X1+1 && b.Y1 <= h.Y1+1 {
			return true
		}
	}
	return false
}

// overlap is the area of r that rs cover (rs do not overlap one another
// much: a page's pictures).
func overlap(r PixelRect, rs []PixelRect) int {
	a := 0
	for _, o := range rs {
		a += area(PixelRect{max(r.X0, o.X0), max(r.Y0, o.Y0), min(r.X1, o.X1), min(r.Y1, o.Y1)})
	}
	return a
}

func area(r PixelRect) int { return max(r.X1-r.X0, 0) * max(r.Y1-r.Y0, 0) }
