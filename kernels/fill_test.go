package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestFillRectMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, channels := range []int{1, 3, 4} {
		for _, g := range randomGeometries(rng, channels, 200) {
			for range 5 {
				// Rectangles partly or wholly outside the buffer too.
				x0, x1 := rng.IntN(g.w+10)-5, rng.IntN(g.w+10)-5
				y0, y1 := rng.IntN(g.h+10)-5, rng.IntN(g.h+10)-5
				v := byte(rng.Uint32())
				want := randomBytes(rng, bufLen(g, channels))
				got := append([]byte(nil), want...)
				FillRectRef(want, g.stride, channels, x0, y0, x1, y1, v)
				FillRect(got, g.stride, channels, x0, y0, x1, y1, v)
				checkEqual(t, fmt.Sprintf("%+v ch %d rect %d,%d-%d,%d", g, channels, x0, y0, x1, y1), got, want)
			}
		}
	}
}

func TestFillRectExact(t *testing.T) {
	const w, h = 10, 8
	pix := make([]byte, w*h*3)
	for i := range pix {
		pix[i] = 200
	}
	FillRect(pix, w*3, 3, 2, 3, 5, 6, 0)
	for y := range h {
		for x := range w {
			inside := x >= 2 && x < 5 && y >= 3 && y < 6
			for c := range 3 {
				v := pix[(y*w+x)*3+c]
				if inside && v != 0 || !inside && v != 200 {
					t.Fatalf("pixel %d,%d channel %d = %d (inside=%v)", x, y, c, v, inside)
				}
			}
		}
	}
}

func BenchmarkFillRect(b *testing.B) {
	page := benchPage(3)
	for _, k := range []struct {
		name string
		fn   func([]byte, int, int, int, int, int, int, byte)
	}{{"ref", FillRectRef}, {"opt", FillRect}} {
		for _, v := range []byte{0, 7} {
			b.Run(fmt.Sprintf("%s/v%d", k.name, v), func(b *testing.B) {
				// A typical mask: one line of text, 400 x 24 px.
				b.SetBytes(400 * 24 * 3)
				for b.Loop() {
					k.fn(page, 3*benchW, 3, 300, 500, 700, 524, v)
				}
			})
		}
	}
}
