package kernels

import (
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
