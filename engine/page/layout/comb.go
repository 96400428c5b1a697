package layout

import "math"

// Comb fields. Bank and tax forms print one character per box: ruled
// vector boxes with a glyph centred in each, AcroForm text fields with
// the Comb flag (whose appearance MuPDF draws the same way), or such a
// form on paper, scanned. The gaps between the glyphs are the box pitch
// less the glyph, often wider than any letter spacing (maxSpacingEm), and
// uneven, as the glyphs' widths differ; but the glyphs' centres fall at
// an even pitch, as the boxes do, whatever the glyphs. So a run of at
// least combMinGlyphs glyphs on one row whose centres step by one pitch
// (or, across empty boxes, by two to four) is one field: the glyphs of
// neighbouring boxes are one word, an empty box parts words of one line
// ("07946 095812"). Nothing but geometry is needed: the boxes' own paths
// do not reach the text layer, and on a scan they are ink like any other.
//
// Ordinary text never qualifies: its glyphs' centres step by their
// uneven widths, and monospaced text steps by less than combMinEm. Single
// letters or digits at an even pitch of one to three and a half ems in a row of four
// or more (a table of single digits across evenly spaced columns) read
// as one word: geometry cannot tell them from a comb.

// combGap says what a comb run makes of a gap between two glyphs of a
// row.
type combGap uint8

const (
	combNone combGap = iota // no comb run: letter spacing decides
	combJoin                // neighbouring boxes of a run: one word
	combSkip                // across empty boxes of a run: a word gap, one line
)

const (
	// combMinEm and combMaxEm bound a comb's pitch, in ems: below, the
	// glyphs are letter-spaced text or monospaced (and letter spacing
	// joins them); above, evenly spaced columns.
	combMinEm = 0.9
	combMaxEm = 3.5
	// combTol is how far, as a share of the pitch, a centre may stray from
	// its box's: producers centre exactly, a recogniser's boxes less so.
	combTol = 0.12
	// combMinGlyphs is the fewest glyphs of a run: three single letters
	// at an even pitch are as likely a table's columns.
	combMinGlyphs = 4
	// combMinSteps is the fewest steps of one box in a run, which set
	// its pitch.
	combMinSteps = 2
	// combMaxEmpty is the most empty boxes a run crosses.
	combMaxEmpty = 3
)

// combs fills b.comb for the gaps of row o (b.gaps measured).
func (b *Builder) combs(o []int32) {
	b.comb = b.comb[:0]
	for range b.gaps {
		b.comb = append(b.comb, combNone)
	}
	from := 0 // the first glyph no run has taken
	for k := 0; k+combMinGlyphs <= len(o); {
		end, pitch, filled := b.combRun(o, k)
		if end-k+1 < combMinGlyphs || filled < combMinSteps {
			k++
			continue
		}
		// A run may start past empty boxes: the pitch is known now.
		for k > from && b.combStep(o, k-1, pitch) > 0 {
			k--
		}
		for i := k; i < end; i++ {
			if b.combStep(o, i, pitch) == 1 {
				b.comb[i] = combJoin
			} else {
				b.comb[i] = combSkip
			}
		}
		k = end + 1
		from = k
	}
}

// combStep is how many boxes of pitch lie between glyphs k and k+1 of
// row o, 0 if they are not in neighbouring boxes of one comb.
func (b *Builder) combStep(o []int32, k int, pitch float64) int {
	if !sameBox(&b.recs[o[k]], &b.recs[o[k+1]]) {
		return 0
	}
	d := b.centre(o[k+1]) - b.centre(o[k])
	m := math.Round(d / pitch)
	if m < 1 || m > 1+combMaxEmpty || math.Abs(d-m*pitch) > combTol*pitch {
		return 0
	}
	return int(m)
}

// combRun returns the last glyph of the longest comb run of row o that
// starts at glyph k, its pitch, and how many of its steps are one box.
func (b *Builder) combRun(o []int32, k int) (end int, pitch float64, units int) {
	x, y := &b.recs[o[k]], &b.recs[o[k+1]]
	em := emPerHeight * max(x.h(), y.h())
	p := b.centre(o[k+1]) - b.centre(o[k])
	if p < combMinEm*em || p > combMaxEm*em || !sameBox(x, y) {
		return k, 0, 0
	}
	sum, units := p, 1
	end = k + 1
	for end+1 < len(o) {
		m := b.combStep(o, end, sum/float64(units))
		if m == 0 {
			break
		}
		if m == 1 {
			sum += b.centre(o[end+1]) - b.centre(o[end])
			units++
		}
		end++
	}
	return end, sum / float64(units), units
}

// centre is where glyph i's box is centred along its row.
func (b *Builder) centre(i int32) float64 {
	r := &b.recs[i]
	return (r.a0 + r.a1) / 2
}

// sameBox reports whether x and y are drawn alike across the row, as the
// glyphs of one comb are: the smaller box within the band of the larger,
// and not a third of its height. A recogniser's boxes hug each glyph's
// ink (a slash or a hyphen read alone has a small one), so the bounds are
// loose.
func sameBox(x, y *rec) bool {
	lo := min(x.h(), y.h())
	return lo > 0.3*max(x.h(), y.h()) && min(x.b, y.b)-max(x.t, y.t) > 0.8*lo
}
