package pipeline

import (
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/kernels"
)

func TestUnexplainedInk(t *testing.T) {
	const w, h = 400, 400
	r := &page.Raster{W: w, H: h, Channels: 1, Stride: w, Pix: make([]byte, w*h)}
	for i := range r.Pix {
		r.Pix[i] = 255
	}
	fill := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				r.Pix[y*w+x] = 0
			}
		}
	}
	// Text-like ink (strokes with gaps) explained by a word, the same not
	// explained, a rule, a solid block, a grid and a check box: only the
	// unexplained strokes are to be read.
	for x := 20; x < 120; x += 5 {
		fill(x, 20, x+2, 40)
		fill(x, 100, x+2, 120)
	}
	fill(20, 200, 380, 202)
	fill(250, 20, 350, 80)
	// A form's grid (rules crossing) and a check box.
	for y := 240; y <= 380; y += 35 {
		fill(20, y, 380, y+1)
	}
	for x := 20; x <= 380; x += 90 {
		fill(x, 240, x+1, 381)
	}
	fill(300, 100, 324, 101)
	fill(300, 123, 324, 124)
	fill(300, 100, 301, 124)
	fill(323, 100, 324, 124)
	pg := &page.Page{Width: w, Height: h, DPI: 72, Raster: r,
		Words: []page.Word{{Text: "explained", Quad: page.QuadFromRect(page.Rect{X0: 20, Y0: 20, X1: 120, Y1: 40})}}}
	got, _ := unexplainedInk(pg)
	if len(got) != 1 {
		t.Fatalf("regions %+v, want one around the unexplained strokes", got)
	}
	if g := got[0]; g.X0 > 20 || g.X1 < 120 || g.Y0 > 100 || g.Y1 < 120 || g.Y0 < 60 {
		t.Errorf("region %+v does not hold (20,100)-(120,120) alone", g)
	}
}

func TestFontCheckAgrees(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"Confidential quarterly", "Confidential quarterly", true},
		{"Confidential quarterly", "confidentia1 quarterIy", true}, // 2 of 21
		{"xxxxxxxx xxxxxxxxxx", "Ottilie Marchbanks", false},
		{"Cr3ss1da Dunw00dy", "Cressida Dunwoody", false},
		{"hidden words", "", false},
	} {
		if got := agrees(c.want, c.got); got != c.ok {
			t.Errorf("agrees(%q, %q) = %v, want %v", c.want, c.got, got, c.ok)
		}
	}
}

// TestInkBlocksOnWhite checks the white-paper fast path against
// kernels.InkBlocks on a rendered text page with odd sizes.
func TestInkBlocksOnWhite(t *testing.T) {
	for _, size := range [][2]int{{1275, 1650}, {37, 13}, {8, 4}, {5, 3}} {
		w, h := size[0], size[1]
		r := &page.Raster{W: w, H: h, Channels: 1, Stride: w + 3, Pix: make([]byte, (w+3)*h)}
		for i := range r.Pix {
			r.Pix[i] = 255
			if (i*7919)%97 < 5 {
				r.Pix[i] = byte(i % 200)
			}
		}
		gw, gh := (w+inkBlock-1)/inkBlock, (h+inkBlock-1)/inkBlock
		got, want := make([]uint8, gw*gh), make([]uint8, gw*gh)
		inkBlocksOnWhite(got, r, nil)
		kernels.InkBlocks(want, r.Pix, w, h, r.Stride, 1, [4]uint8{255}, inkBlock)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%dx%d: block %d: %d, want %d", w, h, i, got[i], want[i])
			}
		}
	}
	// Paper with one inked pixel at every place (white runs are skipped
	// two blocks at a time), light and dark; with and without blocks to
	// skip, which read 0.
	w, h := 75, 8
	r := &page.Raster{W: w, H: h, Channels: 1, Stride: w + 5, Pix: make([]byte, (w+5)*h)}
	gw, gh := (w+inkBlock-1)/inkBlock, (h+inkBlock-1)/inkBlock
	got, want := make([]uint8, gw*gh), make([]uint8, gw*gh)
	skip := make([]bool, gw*gh)
	for i := range skip {
		skip[i] = i%5 == 1
	}
	for _, v := range []byte{0, 254} {
		for y := range h {
			for x := range w {
				for i := range r.Pix {
					r.Pix[i] = 255
				}
				r.Pix[y*r.Stride+x] = v
				kernels.InkBlocks(want, r.Pix, w, h, r.Stride, 1, [4]uint8{255}, inkBlock)
				inkBlocksOnWhite(got, r, nil)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%d at (%d, %d): block %d: %d, want %d", v, x, y, i, got[i], want[i])
					}
				}
				inkBlocksOnWhite(got, r, skip)
				for i := range got {
					if skip[i] {
						want[i] = 0
					}
					if got[i] != want[i] {
						t.Fatalf("%d at (%d, %d), skipping: block %d: %d, want %d", v, x, y, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestInkMapExplains: a rectangle explains its ink when it holds no
// unexplained block, whatever part of it lies off the raster.
func TestInkMapExplains(t *testing.T) {
	m := &inkMap{gw: 4, gh: 3, ink: make([]bool, 12)}
	m.ink[1*4+2] = true // the block at pixels x 8-11, y 4-7
	for _, c := range []struct {
		r    PixelRect
		want bool
	}{
		{PixelRect{0, 0, 8, 4}, true},
		{PixelRect{0, 0, 9, 5}, false},
		{PixelRect{11, 7, 12, 8}, false},
		{PixelRect{12, 0, 40, 40}, true},
		{PixelRect{-20, -20, 0, 0}, true},
		{PixelRect{-20, -20, 100, 100}, false},
		{PixelRect{16, 12, 30, 30}, true},
		{PixelRect{20, 0, 40, 12}, true},
	} {
		if got := m.explains(c.r); got != c.want {
			t.Errorf("explains(%v) = %v, want %v", c.r, got, c.want)
		}
	}
}

// TestUnexplainedInkReadsImagesWhole: an image is read as one region
// when it holds any ink, even ink whose specks the size rules drop (a
// picture of small, light print); an image with none is not read.
func TestUnexplainedInkReadsImagesWhole(t *testing.T) {
	const w, h = 400, 200
	r := &page.Raster{W: w, H: h, Channels: 1, Stride: w, Pix: make([]byte, w*h)}
	for i := range r.Pix {
		r.Pix[i] = 255
	}
	// Specks in 80% gray, one pixel each, 6 pixels apart, inside the
	// first image; the second image is blank.
	for y := 30; y < 42; y += 6 {
		for x := 40; x < 300; x += 6 {
			r.Pix[y*w+x] = 204
		}
	}
	pg := &page.Page{Width: w, Height: h, DPI: 72, Raster: r,
		ImageRegions: []page.Rect{{X0: 30, Y0: 24, X1: 310, Y1: 48}, {X0: 30, Y0: 120, X1: 310, Y1: 160}},
		Words:        []page.Word{{Text: "caption", Quad: page.QuadFromRect(page.Rect{X0: 30, Y0: 60, X1: 90, Y1: 70})}}}
	got, _ := unexplainedInk(pg)
	if len(got) != 1 {
		t.Fatalf("regions %+v, want the first image's", got)
	}
	if g := got[0]; g.X0 > 30 || g.X1 < 310 || g.Y0 > 24 || g.Y1 < 48 || g.Y1 > 110 {
		t.Errorf("region %+v does not hold the first image (30,24)-(310,48) alone", g)
	}
}

// BenchmarkInkBlocksOnWhite measures the white-paper fast path against
// kernels.InkBlocks (the general kernel) on a 150-dpi text page, with
// the page's words explaining their blocks as unexplainedInk marks them
// and without.
func BenchmarkInkBlocksOnWhite(b *testing.B) {
	r := renderLetter(b, 150)
	if r.Channels != 1 {
		b.Fatalf("%d channels, want a gray render", r.Channels)
	}
	gw, gh := (r.W+inkBlock-1)/inkBlock, (r.H+inkBlock-1)/inkBlock
	dst := make([]uint8, gw*gh)
	// Explained: every block with ink (as if every mark were under a word).
	explained := make([]bool, gw*gh)
	kernels.InkBlocks(dst, r.Pix, r.W, r.H, r.Stride, 1, [4]uint8{255}, inkBlock)
	for i, d := range dst {
		explained[i] = d > 0
	}
	b.Run("ref", func(b *testing.B) {
		for b.Loop() {
			kernels.InkBlocks(dst, r.Pix, r.W, r.H, r.Stride, 1, [4]uint8{255}, inkBlock)
		}
	})
	b.Run("white", func(b *testing.B) {
		for b.Loop() {
			inkBlocksOnWhite(dst, r, nil)
		}
	})
	b.Run("white-explained", func(b *testing.B) {
		for b.Loop() {
			inkBlocksOnWhite(dst, r, explained)
		}
	})
}
