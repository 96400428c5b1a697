package ocr

import (
	"math"
	"slices"
)

// The recogniser sometimes drops the space between digit groups or short
// words (more so on small text), or adds one around '@'. Where a crop has
// clear ink, the blank gap between two glyphs decides instead: the widest
// run of ink-free columns between their centres, in units of the line's
// ink height. Thresholds come from the page's own spacing, the gaps at
// the spaces the recogniser did emit, so monospaced text (whose narrow
// letters and punctuation leave wide gaps) keeps its words whole. On
// rendered proportional text letter gaps stay under 0.22 and word gaps
// above 0.26.
const (
	spaceInsertMin = 0.25 // never insert a space at a narrower gap
	spaceInsertRel = 0.9  // nor below this share of the narrowest kept space
	spaceInsertDef = 0.36 // threshold when the page shows too few spaces
	spaceDropMax   = 0.22 // never drop a space at a wider gap
	spaceDropRel   = 0.6  // nor above this share of the median space gap
	spaceMinSeen   = 3    // spaces needed to trust the page's spacing
)

// ink is the ink of a line crop: per column whether any pixel is clearly
// darker (or, for light text, lighter) than the background, and the
// height of the inked rows; ok is false for low-contrast crops.
type ink struct {
	cols   []bool
	height float64
	ok     bool
}

// inkProfile measures the crop's ink.
func (c crop) inkProfile() ink {
	gray := func(x, y int) int {
		p := c.pix[(y*c.w+x)*c.ch:]
		if c.ch == 3 {
			return (int(p[0]) + 2*int(p[1]) + int(p[2])) / 4
		}
		return int(p[0])
	}
	var hist [256]int
	for y := 0; y < recH; y++ {
		for x := 0; x < c.w; x++ {
			hist[gray(x, y)]++
		}
	}
	n := c.w * recH
	pct := func(q float64) int {
		k, acc := int(q*float64(n)), 0
		for v, h := range hist {
			acc += h
			if acc > k {
				return v
			}
		}
		return 255
	}
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
	for y := 0; y < recH; y++ {
		for x := 0; x < c.w; x++ {
			if (thr-gray(x, y))*sign > 0 {
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
	return ink{cols: cols, height: float64(bot - top + 1), ok: true}
}

// gap is the widest blank run between two glyph centres, in ink heights.
func (k ink) gap(a, b glyph) float64 {
	best, run := 0, 0
	for x := max(int(a.x), 0); x < min(int(math.Ceil(b.x)), len(k.cols)); x++ {
		if k.cols[x] {
			run = 0
			continue
		}
		run++
		best = max(best, run)
	}
	return float64(best) / k.height
}

// spaces are the thresholds for one page.
type spaces struct{ insert, drop float64 }

// spacing derives the thresholds from the gaps at the recogniser's
// spaces on every line of jobs.
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
	sp := spaces{insert: spaceInsertDef, drop: spaceDropMax * 0.8}
	if len(seen) >= spaceMinSeen {
		slices.Sort(seen)
		sp.drop = math.Min(spaceDropMax, spaceDropRel*seen[len(seen)/2])
		// The narrowest space that stays sets the bar for new ones.
		if k, _ := slices.BinarySearch(seen, sp.drop); k < len(seen) {
			sp.insert = math.Max(spaceInsertMin, spaceInsertRel*seen[k])
		}
	}
	if debugf != nil {
		debugf("spaces: %d seen, insert above %.2f, drop below %.2f", len(seen), sp.insert, sp.drop)
	}
	return sp
}

// fix inserts spaces the recogniser missed at wide gaps, drops those it
// put where glyphs almost touch, and merges repeated spaces.
func (sp spaces) fix(j *lineJob) []glyph {
	gs, k := j.gs, j.ink
	if !k.ok || len(gs) < 2 {
		return gs
	}
	out := make([]glyph, 0, len(gs)+4)
	for i, g := range gs {
		if i == 0 {
			out = append(out, g)
			continue
		}
		prev := out[len(out)-1]
		switch {
		case g.space:
			if prev.space {
				continue // one space is enough
			}
			if i+1 >= len(gs) || gs[i+1].space || k.gap(prev, gs[i+1]) >= sp.drop {
				out = append(out, g)
			}
		case !prev.space && k.gap(prev, g) > sp.insert:
			out = append(out, glyph{text: " ", x: (prev.x + g.x) / 2, space: true}, g)
		default:
			out = append(out, g)
		}
	}
	return out
}
