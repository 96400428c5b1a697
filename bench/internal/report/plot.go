package report

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"sort"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// palette colours series and stages, in order.
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 255}, {0xff, 0x7f, 0x0e, 255}, {0x2c, 0xa0, 0x2c, 255}, {0xd6, 0x27, 0x28, 255},
	{0x94, 0x67, 0xbd, 255}, {0x8c, 0x56, 0x4b, 255}, {0xe3, 0x77, 0xc2, 255}, {0x7f, 0x7f, 0x7f, 255},
}

var (
	black = color.RGBA{0, 0, 0, 255}
	grid  = color.RGBA{0xdd, 0xdd, 0xdd, 255}
)

// canvas is a white image with the few drawing operations the charts
// need; text is basicfont's 7x13 face.
type canvas struct{ img *image.RGBA }

func newCanvas(w, h int) *canvas {
	c := &canvas{image.NewRGBA(image.Rect(0, 0, w, h))}
	draw.Draw(c.img, c.img.Bounds(), image.White, image.Point{}, draw.Src)
	return c
}

func (c *canvas) rect(x0, y0, x1, y1 int, col color.Color) {
	draw.Draw(c.img, image.Rect(x0, y0, x1, y1), image.NewUniform(col), image.Point{}, draw.Src)
}

// line draws a segment w pixels thick, dashed when dash is set.
func (c *canvas) line(x0, y0, x1, y1 float64, col color.Color, w int, dash bool) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for i := 0; i <= n; i++ {
		if dash && (i/6)%2 == 1 {
			continue
		}
		t := float64(i) / float64(n)
		x, y := int(x0+(x1-x0)*t), int(y0+(y1-y0)*t)
		c.rect(x-w/2, y-w/2, x-w/2+w, y-w/2+w, col)
	}
}

// text draws s with its baseline's left end at (x, y).
func (c *canvas) text(x, y int, s string, col color.Color) {
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func textWidth(s string) int { return 7 * len([]rune(s)) }

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// throughputChart plots pages/s against concurrency for each swept
// corpus, with the peers that ran on those corpora as dashed levels.
func throughputChart(r *Report) image.Image {
	const W, H, left, right, top, bottom = 820, 460, 70, 200, 40, 50
	c := newCanvas(W, H)
	c.text(left, 22, "redactd throughput against concurrency (pages/s)", black)

	var concs []int
	seen := map[int]bool{}
	series := map[string][]Point{}
	var names []string
	ymax := 1.0
	for _, p := range r.Sweep {
		if !seen[p.Concurrency] {
			seen[p.Concurrency] = true
			concs = append(concs, p.Concurrency)
		}
		if _, ok := series[p.Corpus]; !ok {
			names = append(names, p.Corpus)
		}
		series[p.Corpus] = append(series[p.Corpus], p)
		ymax = max(ymax, p.PagesPerSec)
	}
	sort.Ints(concs)
	var refs []Peer
	for _, p := range r.Peers {
		if _, ok := series[p.Corpus]; ok && p.Result.PagesPerSecond() > 0 {
			refs = append(refs, p)
			ymax = max(ymax, p.Result.PagesPerSecond())
		}
	}
	if len(concs) == 0 {
		c.text(left, H/2, "no concurrency sweep in this run", black)
		return c.img
	}
	ymax = niceCeil(ymax * 1.1)
	pw, ph := float64(W-left-right), float64(H-top-bottom)
	xAt := func(conc int) float64 {
		i := sort.SearchInts(concs, conc)
		if len(concs) == 1 {
			return float64(left) + pw/2
		}
		return float64(left) + pw*float64(i)/float64(len(concs)-1)
	}
	yAt := func(v float64) float64 { return float64(top) + ph*(1-v/ymax) }

	for i := 0; i <= 5; i++ {
		v := ymax * float64(i) / 5
		y := yAt(v)
		c.line(float64(left), y, float64(W-right), y, grid, 1, false)
		lbl := fmt.Sprintf("%.0f", v)
		c.text(left-8-textWidth(lbl), int(y)+4, lbl, black)
	}
	for _, conc := range concs {
		lbl := fmt.Sprint(conc)
		c.text(int(xAt(conc))-textWidth(lbl)/2, H-bottom+18, lbl, black)
	}
	c.text(left+int(pw)/2-textWidth("concurrent jobs")/2, H-12, "concurrent jobs", black)
	c.line(float64(left), float64(top), float64(left), float64(H-bottom), black, 1, false)
	c.line(float64(left), float64(H-bottom), float64(W-right), float64(H-bottom), black, 1, false)

	ly := top + 10
	for i, name := range names {
		col := palette[i%len(palette)]
		pts := series[name]
		sort.Slice(pts, func(a, b int) bool { return pts[a].Concurrency < pts[b].Concurrency })
		for j, p := range pts {
			x, y := xAt(p.Concurrency), yAt(p.PagesPerSec)
			c.rect(int(x)-3, int(y)-3, int(x)+4, int(y)+4, col)
			if j > 0 {
				c.line(xAt(pts[j-1].Concurrency), yAt(pts[j-1].PagesPerSec), x, y, col, 2, false)
			}
		}
		c.rect(W-right+12, ly-8, W-right+24, ly+2, col)
		c.text(W-right+30, ly, "redactd "+name, black)
		ly += 18
	}
	for i, p := range refs {
		col := palette[(len(names)+i)%len(palette)]
		y := yAt(p.Result.PagesPerSecond())
		c.line(float64(left), y, float64(W-right), y, col, 2, true)
		c.rect(W-right+12, ly-4, W-right+24, ly-2, col)
		c.text(W-right+30, ly, fmt.Sprintf("%s (%s)", p.Result.Name, p.Corpus), black)
		ly += 18
	}
	return c.img
}

// stagesChart draws one bar per corpus split into each stage's share of
// the time its pages spent in the pipeline, with the total milliseconds
// per page at the end (shares, so a corpus dominated by OCR does not
// flatten the others).
func stagesChart(r *Report) image.Image {
	names := stageNames(r)
	const W, left, right, top, barH, gap = 820, 90, 130, 70, 24, 14
	H := top + len(r.Corpora)*(barH+gap) + 30
	c := newCanvas(W, H)
	c.text(10, 22, "share of pipeline time per stage; total ms per page (summed over stages) on the right", black)
	if len(names) == 0 {
		c.text(10, 50, "no stage timings recorded", black)
		return c.img
	}
	x := 10
	for i, s := range names {
		c.rect(x, 34, x+12, 46, palette[i%len(palette)])
		c.text(x+16, 45, s, black)
		x += 16 + textWidth(s) + 18
	}
	width := float64(W - left - right)
	for i, cp := range r.Corpora {
		y := top + i*(barH+gap)
		c.text(10, y+barH/2+4, cp.Name, black)
		total := 0.0
		for _, st := range cp.Stages {
			total += st.Seconds
		}
		if total <= 0 {
			c.text(left, y+barH/2+4, "no timings", black)
			continue
		}
		x := float64(left)
		for j, s := range names {
			for _, st := range cp.Stages {
				if st.Name == s {
					w := width * st.Seconds / total
					c.rect(int(x), y, int(x+w), y+barH, palette[j%len(palette)])
					x += w
				}
			}
		}
		c.text(left+int(width)+8, y+barH/2+4, perPage(total, cp.OutPages)+"/page", black)
	}
	return c.img
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
