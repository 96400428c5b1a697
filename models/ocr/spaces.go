package ocr

import (
	"math"
	"slices"
	"unicode"
)

// The recogniser sometimes drops the space between digit groups or short
// words (more so on small text). Where a crop has clear ink, the blank gap
// between two glyphs decides instead: the widest run of ink-free columns
// between their centres, in units of the line's ink height. The bar comes
// from the page's own spacing, the gaps at the spaces the recogniser did
// emit, so monospaced text (whose narrow letters and punctuation leave
// wide gaps) keeps its words whole. On rendered proportional text letter
// gaps stay under 0.22 and word gaps above 0.26.
//
// A digit's cell is as wide as any other digit's (fonts set figures
// tabular by default), so a narrow "1" leaves a blank beside it as wide
// as a word space: "2015" read "201 5", "07/10" "07/1 0", an IBAN broken
// into pieces. Before inserting a space the gap is therefore reduced by
// the blank a digit's own cell holds: on each side whose glyph is a
// digit, half of how much narrower its ink is than the line's typical
// glyph (see insertGap). Letters and punctuation get no such allowance:
// proportional fonts give "l", "t" or a comma a narrow cell, and a space
// dropped after one must still be put back. On the OCR comparison's 24
// real pages (bench --only ocr) this cut the spaces inserted inside words
// and numbers from 511 to 94 (457 of them beside a "1") while repairing
// all but 6 of the dropped spaces repaired before: CER 2.73% to 1.84%,
// word recall 87.9% to 92.0%.
//
// Spaces the recogniser emits are kept, but beside an '@'. Dropping those
// at narrow gaps (an earlier rule) took real spaces out wherever the gap
// measure fails: in a table, text of the rows above and below reaches
// into the crop and inks the gaps ("Boeing Company" measured 0.00 ink
// heights between its words, "Hank Fisher Properties, Inc." 0.11), and a
// rule or an underline through the crop inks every column. On the OCR
// comparison's dev pages (bench --only ocr --ocr-eval-dev: the 10 usable
// pages after its 24) keeping them took PP-OCRv4 from CER 2.44% and word
// recall 87.3% to 1.54% and 97.6%; dropping only below 0.12 still cost 0.2
// points of CER and 3 of word recall. Inside an e-mail address the old
// rule still holds: phone photos and small print are read
// "GermanKauz ar@armyspy.com" and "gustr.co m", which leave part of the
// address readable, so a narrow space beside a word with an '@' goes (the
// bench's photo corpus: e-mail words masked 88.9% without it, 100% with).
// The e-mail recogniser also joins a domain split by one space
// (engine/detect/pattern).
//
// Rows with one run of ink across most of the crop (rules, underlines,
// cell borders) are left out of the ink profile, so the gaps between words
// over a rule are still seen (dev pages: CER 1.54% to 1.50%).
//
// The bar for inserting is the page's narrowest space that is not an
// outlier (under half the median): one space the recogniser put between
// two letters ("P I") must not lower the bar for the whole page.
// redactd-latin emits such spaces on monospaced print, where PP-OCRv4
// does not; with the narrowest space as the bar it split every word of a
// Courier page ("P I S TOL", "8 3 2 2 2 9"). A higher bar (the first
// quartile, tried first) missed spaces on scans ("call469 34 883",
// "forcc 4532...") and cost the bench's scan corpus phone and card words.
const (
	spaceInsertMin = 0.25 // never insert a space at a narrower gap
	spaceInsertRel = 0.9  // nor below this share of the bar space
	spaceOutlier   = 0.5  // spaces narrower than this share of the median do not set the bar
	spaceAtDrop    = 0.22 // a space beside an '@' word at a narrower gap is dropped
	spaceAtDropRel = 0.6  // nor above this share of the median space gap
	spaceInsertDef = 0.36 // threshold when the page shows too few spaces
	spaceMinSeen   = 3    // spaces needed to trust the page's spacing
	ruleShare      = 0.6  // a row with one ink run over this share of the crop is a rule
)

// ink is the ink of a line crop: per column whether any pixel is clearly
// darker (or, for light text, lighter) than the background, and the
// height of the inked rows; ok is false for low-contrast crops.
type ink struct {
	cols   []bool
	height float64
	ok     bool
	// runW is, for an inked column, the width of the run of inked
	// columns holding it (a glyph, or glyphs that touch); runMed is the
	// line's median run width.
	runW   []int
	runMed float64
}

// inkProfile measures the crop's ink.
func (c crop) inkProfile() ink {
	g := c.gray()
	var hist [256]int
	for _, v := range g {
		hist[v]++
	}
	n := len(g)
	pct := func(q float64) int { return quantile(&hist, n, q) }
	bg := pct(0.5)
	dark, light := pct(0.02), pct(0.98)
	sign, fg := 1, dark
	if light-bg > bg-dark {
		sign, fg = -1, light // light text on a dark background
	}
	if (bg-fg)*sign < 60 {
		return ink{}
	}
	thr := (bg + fg) / 2
	cols := make([]bool, c.w)
	rows := make([]bool, recH)
	row := make([]bool, c.w)
	for y := 0; y < recH; y++ {
		for x, v := range g[y*c.w : (y+1)*c.w] {
			row[x] = (thr-int(v))*sign > 0
		}
		if isRule(row) {
			continue
		}
		for x, in := range row {
			if in {
				cols[x] = true
				rows[y] = true
			}
		}
	}
	top, bot := -1, -1
	for y, r := range rows {
		if r {
			if top < 0 {
				top = y
			}
			bot = y
		}
	}
	if top < 0 {
		return ink{}
	}
	k := ink{cols: cols, height: float64(bot - top + 1), ok: true, runW: make([]int, c.w)}
	var widths []int
	for x := 0; x < c.w; {
		if !cols[x] {
			x++
			continue
		}
		end := x
		for end < c.w && cols[end] {
			end++
		}
		for i := x; i < end; i++ {
			k.runW[i] = end - x
		}
		widths = append(widths, end-x)
		x = end
	}
	slices.Sort(widths)
	k.runMed = float64(widths[len(widths)/2])
	return k
}

// gray is the crop's gray level per pixel, row by row: (r + 2g + b) / 4
// for three channels, else the first channel (a one-channel crop's own
// pixels).
func (c crop) gray() []byte {
	n := c.w * recH
	if c.ch == 1 {
		return c.pix[:n:n]
	}
	g := make([]byte, n)
	for i := range g {
		p := c.pix[c.ch*i:]
		if c.ch == 3 {
			g[i] = byte((int(p[0]) + 2*int(p[1]) + int(p[2])) / 4)
		} else {
			g[i] = p[0]
		}
	}
	return g
}

// isRule reports whether a row of a crop holds one run of ink longer
// than ruleShare of the crop: a rule, an underline or a cell's border,
// whose ink would fill every gap between the words above it. Glyphs'
// strokes, even bold capitals' bars, end at their cell.
func isRule(row []bool) bool {
	run, long := 0, int(ruleShare*float64(len(row)))
	for _, in := range row {
		if !in {
			run = 0
			continue
		}
		if run++; run > long {
			return true
		}
	}
	return false
}

// gap is the widest blank run between two glyph centres, in ink heights.
func (k ink) gap(a, b glyph) float64 {
	best, _ := k.widest(a, b)
	return float64(best) / k.height
}

// widest is the widest blank run between two glyph centres: its width in
// columns and the column just after it.
func (k ink) widest(a, b glyph) (best, end int) {
	run := 0
	for x := max(int(a.x), 0); x < min(int(math.Ceil(b.x)), len(k.cols)); x++ {
		if k.cols[x] {
			run = 0
			continue
		}
		run++
		if run > best {
			best, end = run, x+1
		}
	}
	return best, end
}

// insertGap is gap less the blank that narrow digits' cells hold: for
// each side of the widest run whose glyph is a digit, half of how much
// narrower the ink run there is than typical, the line's typical glyph
// width in columns (see the note at the top).
func (k ink) insertGap(a, b glyph, typical float64) float64 {
	best, end := k.widest(a, b)
	if best == 0 {
		return 0
	}
	cell := 0.0
	side := func(x, step int, g glyph) {
		if !digits(g.text) {
			return
		}
		for ; x >= 0 && x < len(k.cols); x += step {
			if k.cols[x] {
				cell += max(0, (typical-float64(k.runW[x]))/2)
				return
			}
		}
	}
	side(end-best-1, -1, a)
	side(end, 1, b)
	return max(0, float64(best)-cell) / k.height
}

// typicalWidth is a line's typical glyph width in crop columns: the
// median ink run, but no more than the median distance between
// neighbouring glyph centres (on small text glyphs touch and one run
// holds several), and no less than 0.45 ink heights, about a digit's
// width where the line is digits and capitals (on a line of "1"s and
// punctuation the median run is a "1").
func (k ink) typicalWidth(gs []glyph) float64 {
	var pitch []float64
	for i := 1; i < len(gs); i++ {
		if !gs[i].space && !gs[i-1].space {
			pitch = append(pitch, gs[i].x-gs[i-1].x)
		}
	}
	w := k.runMed
	if len(pitch) > 0 {
		slices.Sort(pitch)
		w = min(w, pitch[len(pitch)/2])
	}
	return max(w, 0.45*k.height)
}

// digits reports whether s is digits only.
func digits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// spaces are the thresholds for one page: a gap wider than insert (in
// ink heights, narrow digits' cells allowed for) gets a space; a space
// beside a word with an '@' at a gap narrower than drop goes.
type spaces struct{ insert, drop float64 }

// besideAt reports whether the space gs[i] touches a word holding an '@'
// (the glyphs from the space before it, or up to the space after it).
func besideAt(gs []glyph, i int) bool {
	for j := i - 1; j >= 0 && !gs[j].space; j-- {
		if gs[j].text == "@" {
			return true
		}
	}
	for j := i + 1; j < len(gs) && !gs[j].space; j++ {
		if gs[j].text == "@" {
			return true
		}
	}
	return false
}

// spacing derives the threshold from the gaps at the recogniser's spaces
// on every line of jobs.
func spacing(jobs []*lineJob) spaces {
	var seen []float64
	for _, j := range jobs {
		if !j.ink.ok {
			continue
		}
		gs := j.gs
		for k := 1; k+1 < len(gs); k++ {
			if gs[k].space && !gs[k-1].space && !gs[k+1].space {
				seen = append(seen, j.ink.gap(gs[k-1], gs[k+1]))
			}
		}
	}
	sp := spaces{insert: spaceInsertDef, drop: spaceAtDrop * 0.8}
	if len(seen) >= spaceMinSeen {
		slices.Sort(seen)
		sp.drop = math.Min(spaceAtDrop, spaceAtDropRel*seen[len(seen)/2])
		// The narrowest space that is not an outlier: one under half the
		// median is a space the recogniser put between two letters.
		k, _ := slices.BinarySearch(seen, spaceOutlier*seen[len(seen)/2])
		sp.insert = math.Max(spaceInsertMin, spaceInsertRel*seen[k])
	}
	if debugf != nil {
		debugf("spaces: %d seen, insert above %.2f, drop beside '@' below %.2f", len(seen), sp.insert, sp.drop)
	}
	return sp
}

// fix inserts spaces the recogniser missed at wide gaps (narrow glyphs'
// cells allowed for) and merges repeated spaces.
func (sp spaces) fix(j *lineJob) []glyph {
	gs, k := j.gs, j.ink
	if !k.ok || len(gs) < 2 {
		return gs
	}
	out := make([]glyph, 0, len(gs)+4)
	typical := k.typicalWidth(gs)
	for i, g := range gs {
		if i == 0 {
			out = append(out, g)
			continue
		}
		prev := out[len(out)-1]
		switch {
		case g.space:
			if prev.space { // one space is enough
				continue
			}
			if i+1 < len(gs) && !gs[i+1].space && besideAt(gs, i) && k.gap(prev, gs[i+1]) < sp.drop {
				continue // inside an e-mail address, where the glyphs almost touch
			}
			out = append(out, g)
		case !prev.space && k.insertGap(prev, g, typical) > sp.insert:
			out = append(out, glyph{text: " ", x: (prev.x + g.x) / 2, space: true}, g)
		default:
			out = append(out, g)
		}
	}
	return out
}
