package ocr

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// inkProfileRef is inkProfile as it was written first, a pixel at a time
// through a closure: the reference the faster one must equal.
func (c crop) inkProfileRef() ink {
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
		for x := range row {
			row[x] = (thr-gray(x, y))*sign > 0
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

// randomCrop is a w-wide crop of ch channels: paper with noise, glyph
// blocks, and sometimes a rule across it, each drawn in a colour of its
// own (channels independent, so how they are mixed to gray matters),
// dark on light, light on dark, or with too little contrast.
func randomCrop(r *rand.Rand, w, ch int) crop {
	bg, fg := 200+r.IntN(56), r.IntN(120)
	if r.IntN(4) == 0 {
		bg, fg = fg, bg // light text on a dark ground
	}
	if r.IntN(8) == 0 {
		fg = bg - 30 // too little contrast
	}
	tint := func(v int) []int {
		c := make([]int, ch)
		for i := range c {
			c[i] = v + r.IntN(161) - 80
		}
		return c
	}
	colour := make([][]int, w*recH)
	paper := tint(bg)
	for i := range colour {
		colour[i] = paper
	}
	for x := r.IntN(8); x < w; x += 6 + r.IntN(14) {
		gw, y0, y1 := 2+r.IntN(9), 8+r.IntN(8), 30+r.IntN(12)
		ink := tint(fg)
		for y := y0; y < y1; y++ {
			for i := x; i < min(x+gw, w); i++ {
				colour[y*w+i] = ink
			}
		}
	}
	if r.IntN(3) == 0 {
		y, rule := 40+r.IntN(6), tint(fg)
		for x := 0; x < w*9/10; x++ {
			colour[y*w+x] = rule
		}
	}
	pix := make([]byte, w*recH*ch)
	for i, c := range colour {
		for k := range ch {
			pix[i*ch+k] = byte(min(max(c[k]+r.IntN(21)-10, 0), 255))
		}
	}
	return crop{pix: pix, w: w, ch: ch}
}

// TestInkProfileMatchesReference: inkProfile reads every crop exactly as
// the reference does, for one, three and four channels.
func TestInkProfileMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 29))
	for i := range 600 {
		ch := []int{1, 3, 4}[i%3]
		c := randomCrop(r, 16+r.IntN(900), ch)
		if got, want := c.inkProfile(), c.inkProfileRef(); !reflect.DeepEqual(got, want) {
			t.Fatalf("crop %d (w %d, %d channels): inkProfile %+v, reference %+v", i, c.w, ch, got, want)
		}
	}
}

func BenchmarkInkProfile(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	crops := make([]crop, 64)
	for i := range crops {
		crops[i] = randomCrop(r, 320+r.IntN(640), 1)
	}
	b.Run("ref", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			crops[i%len(crops)].inkProfileRef()
		}
	})
	b.Run("fast", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			crops[i%len(crops)].inkProfile()
		}
	})
}
