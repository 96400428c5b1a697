package kernels

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestInkBlocksMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, ch := range []int{1, 2, 3, 4} {
		for _, g := range randomGeometries(rng, ch, 60) {
			img := randomBytes(rng, bufLen(g, ch))
			paper := [4]uint8{uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32())}
			for _, b := range []int{1, 3, 4} {
				n := ((g.w + b - 1) / b) * ((g.h + b - 1) / b)
				want, got := make([]uint8, n), make([]uint8, n)
				InkBlocksRef(want, img, g.w, g.h, g.stride, ch, paper, b)
				InkBlocks(got, img, g.w, g.h, g.stride, ch, paper, b)
				if !slices.Equal(want, got) {
					t.Fatalf("%+v ch %d paper %v block %d: %v, want %v", g, ch, paper, b, got, want)
				}
			}
		}
	}
}

func TestInkBlocksSeesStrokesNotNoise(t *testing.T) {
	// Paper at 200 with noise of +-12 everywhere, one 2-pixel-wide
	// vertical stroke of 40 (a thin "1") and, on the right, a white stroke
	// on the paper's grey: the stroke blocks stand out, noise does not.
	rng := rand.New(rand.NewPCG(25, 26))
	w, h := 64, 32
	pix := make([]byte, w*h)
	for i := range pix {
		pix[i] = uint8(200 + rng.IntN(25) - 12)
	}
	for y := 8; y < 24; y++ {
		pix[y*w+9], pix[y*w+10] = 40, 40
		pix[y*w+50], pix[y*w+51] = 255, 255
	}
	const b = 4
	gw := w / b
	out := make([]uint8, gw*(h/b))
	InkBlocks(out, pix, w, h, w, 1, [4]uint8{200}, b)
	for i, d := range out {
		bx, by := i%gw, i/gw
		stroke := (bx == 2 || bx == 12) && by >= 2 && by < 6
		switch {
		case stroke && d < 25:
			t.Errorf("block (%d,%d) with a stroke: %d", bx, by, d)
		case !stroke && d > 8:
			t.Errorf("block (%d,%d) of noise: %d", bx, by, d)
		}
	}
}

func BenchmarkInkBlocks(b *testing.B) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, ch := range []int{1, 3} {
		w, h := 1700, 2200 // a letter page at 200 dpi
		img := randomBytes(rng, w*h*ch)
		out := make([]uint8, ((w+3)/4)*((h+3)/4))
		for _, k := range []struct {
			name string
			fn   func([]uint8, []byte, int, int, int, int, [4]uint8, int)
		}{{"ref", InkBlocksRef}, {"fast", InkBlocks}} {
			b.Run(fmt.Sprintf("%s/ch%d", k.name, ch), func(b *testing.B) {
				b.SetBytes(int64(len(img)))
				for b.Loop() {
					k.fn(out, img, w, h, w*ch, ch, [4]uint8{240, 240, 240}, 4)
				}
			})
		}
	}
}

func TestInkBlocks4OnWhiteMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 4))
	check := func(what string, pix []byte, w, h, stride int, skip []bool) {
		t.Helper()
		gw, gh := (w+3)/4, (h+3)/4
		want, got := make([]uint8, gw*gh), randomBytes(rng, gw*gh)
		InkBlocks4OnWhiteRef(want, pix, w, h, stride, skip)
		InkBlocks4OnWhite(got, pix, w, h, stride, skip)
		checkEqual(t, what, got, want)
	}
	for _, g := range randomGeometries(rng, 1, 40) {
		for _, sparse := range []bool{false, true} {
			pix := randomBytes(rng, bufLen(g, 1))
			if sparse { // paper with a little ink
				for i := range pix {
					if rng.IntN(20) != 0 {
						pix[i] = 255
					}
				}
			}
			gw, gh := (g.w+3)/4, (g.h+3)/4
			skip := make([]bool, gw*gh)
			for i := range skip {
				skip[i] = rng.IntN(3) == 0
			}
			check(fmt.Sprintf("%+v sparse=%v", g, sparse), pix, g.w, g.h, g.stride, nil)
			check(fmt.Sprintf("%+v sparse=%v skipping", g, sparse), pix, g.w, g.h, g.stride, skip)
		}
	}
	// Paper with one pixel of ink at each place of a 16-pixel run (the
	// white shortcut takes four blocks at once), and a black page (the
	// lanes' largest sums).
	w, h := 41, 9
	for _, ink := range []byte{0, 254} {
		for at := range w * h {
			pix := bytes.Repeat([]byte{255}, w*h)
			pix[at] = ink
			check(fmt.Sprintf("%d at %d", ink, at), pix, w, h, w, nil)
		}
	}
	check("black", make([]byte, 64*8), 64, 8, 64, nil)
	page := benchPage(1)
	check("bench page", page, benchW, benchH, benchW, nil)
}

func BenchmarkInkBlocks4OnWhite(b *testing.B) {
	page := benchPage(1)
	gw, gh := (benchW+3)/4, (benchH+3)/4
	dst := make([]uint8, gw*gh)
	// Explained: every inked block, as under a page's words.
	explained := make([]bool, gw*gh)
	InkBlocks4OnWhiteRef(dst, page, benchW, benchH, benchW, nil)
	for i, d := range dst {
		explained[i] = d > 0
	}
	for _, k := range []struct {
		name string
		fn   func([]uint8, []byte, int, int, int, []bool)
	}{{"ref", InkBlocks4OnWhiteRef}, {"opt", InkBlocks4OnWhite}} {
		for _, skip := range []bool{false, true} {
			var s []bool
			if skip {
				s = explained
			}
			b.Run(fmt.Sprintf("%s/explained=%v", k.name, skip), func(b *testing.B) {
				b.SetBytes(int64(len(page)))
				for b.Loop() {
					k.fn(dst, page, benchW, benchH, benchW, s)
				}
			})
		}
	}
}
