package ocr

import (
	"math"

	"github.com/redactd/redactd/kernels"
)

// Form rules and box walls in the recogniser's input. Bank and tax forms
// print one character per box, and a scanned form's box walls are black.
// Read whole at 200 dpi, such a page's date of birth 14/03/1986 read as
// "14/0C——ł986"; with the walls painted out (RuleErased), the detector
// finds each boxed glyph alone and every value of the case reads exactly
// (internal/testkit/hostile/visible, comb-scanned-form with black rules).
// At the 150 dpi scans are read at in engine/pipeline, though, those
// lone glyphs read no better than with their walls ("1 4 / 0 3 1 6 8 6"
// against "1 4 / 0 3 | ← 9 8 6"): the walls are not what the recogniser
// trips on there, and the pipeline does not paint them out. The tests'
// stand-in for a reader (visible.ReadPage) reads pages both ways.
//
// A rule is ink far longer than thick (kernels.ThinRuns), at most
// ruleThickPt thick (a 0.8-pt rule is 2 pixels at 200 dpi, and 5 or 6
// on a redacted output rendered again; 12-pt print's stems are 3): a
// horizontal one at least ruleHPt long, longer than an em dash of 36-pt
// print and as long as two comb boxes; a vertical one at least ruleVPt,
// taller than a glyph of 24-pt print; a box's wall, at least ruleWallPt
// and meeting a horizontal rule at an end, is taller than a glyph of
// 12-pt print (an "l" is 8.6 pt, a "|" 14 pt) and stands on a rule, as
// no letter does. Letters' strokes ("1", "l", "I", "-",
// "_", "—") are shorter than these or thicker; where a glyph touches a
// rule the pixels it shares with it stay (their run across the rule is
// thick).
const (
	ruleThickPt = 2.2
	ruleHPt     = 48
	ruleVPt     = 30
	ruleWallPt  = 16
	// ruleInk is how much darker than the paper a pixel must be to be
	// part of a rule: low enough for a mid-gray rule's anti-aliased
	// pixels (60% gray is about 100 darker at its core) to hold
	// together, as a rule erased in part leaves dashes that read worse
	// than the rule.
	ruleInk = 32
	// ruleFringe is how far, in pixels, from a rule its anti-aliased
	// edge is painted over too (pixels not dark enough to be ink).
	ruleFringe = 2
)

// RuleErased returns img with its rules (above) painted the paper's
// colour, as a new image, or img itself when it has none (img is never
// written: a page's raster is what gets burned). dpi is img's pixels per
// inch (0: 200).
func RuleErased(img Image, dpi float64) Image {
	if img.W <= 0 || img.H <= 0 || (img.Channels != 1 && img.Channels != 3) {
		return img
	}
	mask, rule, paper := ruleMap(img, dpi)
	w, h, ch := img.W, img.H, img.Channels
	found := false
	for _, r := range rule {
		if r {
			found = true
			break
		}
	}
	if !found {
		return img
	}
	out := Image{W: w, H: h, Channels: ch, Stride: w * ch, Pix: make([]byte, w*h*ch)}
	for y := range h {
		copy(out.Pix[y*out.Stride:(y+1)*out.Stride], img.Pix[y*img.Stride:])
	}
	paint := func(x, y int) {
		copy(out.Pix[y*out.Stride+x*ch:y*out.Stride+(x+1)*ch], paper[:ch])
	}
	for y := range h {
		for x, r := range rule[y*w : (y+1)*w] {
			if !r {
				continue
			}
			paint(x, y)
			for dy := -ruleFringe; dy <= ruleFringe; dy++ {
				for dx := -ruleFringe; dx <= ruleFringe; dx++ {
					nx, ny := x+dx, y+dy
					if nx >= 0 && ny >= 0 && nx < w && ny < h && !mask[ny*w+nx] {
						paint(nx, ny)
					}
				}
			}
		}
	}
	return out
}

// ruleMap returns img's ink (inkMask), the part of it on rules (above),
// both w*h row-major, and its paper's colour; dpi is img's pixels per
// inch (0: 200).
func ruleMap(img Image, dpi float64) (mask, rule []bool, paper [4]uint8) {
	mask, paper = inkMask(img)
	return mask, rules(mask, img.W, img.H, dpi), paper
}

// rulePx is pt points in pixels at dpi (0: 200).
func rulePx(pt, dpi float64) int {
	if dpi <= 0 {
		dpi = 200
	}
	return int(math.Round(pt * dpi / 72))
}

// rules marks the pixels of ink mask (w*h) that lie on rules, at dpi.
func rules(mask []bool, w, h int, dpi float64) []bool {
	spec := kernels.RuleSpec{MinH: rulePx(ruleHPt, dpi), MinV: rulePx(ruleVPt, dpi), MinWall: rulePx(ruleWallPt, dpi),
		Thick: max(2, rulePx(ruleThickPt, dpi)), Crossings: true}
	rule := make([]bool, w*h)
	kernels.ThinRuns(rule, mask, w, h, spec, nil)
	return rule
}

// inkMask returns img's pixels more than ruleInk darker than its paper
// (w*h, row-major), and the paper's colour.
func inkMask(img Image) (mask []bool, paper [4]uint8) {
	w, h, ch := img.W, img.H, img.Channels
	paper = imagePaper(img)
	pg := int(paper[0])
	if ch == 3 {
		pg = (int(paper[0]) + int(paper[1]) + int(paper[2])) / 3
	}
	mask = make([]bool, w*h)
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+w*ch]
		m := mask[y*w : (y+1)*w]
		if ch == 1 {
			for x, v := range row {
				m[x] = pg-int(v) > ruleInk
			}
		} else {
			for x := range w {
				v := (int(row[3*x]) + int(row[3*x+1]) + int(row[3*x+2])) / 3
				m[x] = pg-v > ruleInk
			}
		}
	}
	return mask, paper
}

// imagePaper is the most common value of each channel on a 96 x 96 grid
// of img's pixels: its paper's colour.
func imagePaper(img Image) [4]uint8 {
	return kernels.PaperLevel(img.Pix, img.W, img.H, img.Stride, img.Channels, 96, 0)
}
