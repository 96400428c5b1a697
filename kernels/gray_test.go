package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestIsGrayMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, g := range randomGeometries(rng, 3, 300) {
		for _, tol := range []int{0, 1, 4, 10} {
			for _, spread := range []int{0, 1, 3, 6} {
				img := grayish(rng, g, spread)
				want := IsGrayRef(img, g.w, g.h, g.stride, tol)
				if got := IsGray(img, g.w, g.h, g.stride, tol); got != want {
					t.Fatalf("%+v tol %d spread %d: IsGray = %v, want %v", g, tol, spread, got, want)
				}
				if g.w == 0 || g.h == 0 {
					continue
				}
				// One coloured pixel anywhere must be found.
				x, y := rng.IntN(g.w), rng.IntN(g.h)
				i := y*g.stride + 3*x
				img[i+rng.IntN(3)] ^= 0x80
				want = IsGrayRef(img, g.w, g.h, g.stride, tol)
				if want {
					t.Fatalf("test setup: pixel %d,%d still gray", x, y)
				}
				if got := IsGray(img, g.w, g.h, g.stride, tol); got != want {
					t.Fatalf("%+v tol %d: coloured pixel at %d,%d not found", g, tol, x, y)
				}
			}
		}
	}
}

func TestRGBToGrayMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range randomGeometries(rng, 3, 200) {
		src := randomBytes(rng, bufLen(g, 3))
		dstStride := g.w + rng.IntN(5)
		n := bufLen(geometry{g.w, g.h, dstStride}, 1)
		want, got := randomBytes(rng, n), make([]byte, n)
		copy(got, want) // padding must be left alone by both
		RGBToGrayRef(want, dstStride, src, g.stride, g.w, g.h)
		RGBToGray(got, dstStride, src, g.stride, g.w, g.h)
		checkEqual(t, fmt.Sprintf("%+v", g), got, want)
	}
}

func TestRGBToGrayKeepsGray(t *testing.T) {
	src := make([]byte, 3*256)
	for v := range 256 {
		src[3*v], src[3*v+1], src[3*v+2] = byte(v), byte(v), byte(v)
	}
	dst := make([]byte, 256)
	RGBToGray(dst, 256, src, 3*256, 256, 1)
	for v := range 256 {
		if dst[v] != byte(v) {
			t.Fatalf("gray %d became %d", v, dst[v])
		}
	}
}

// A 1275 x 1650 page, 150 dpi Letter.
const benchW, benchH = 1275, 1650

func benchPage(channels int) []byte {
	rng := rand.New(rand.NewPCG(5, 6))
	b := make([]byte, benchW*benchH*channels)
	for i := range b {
		b[i] = 255
	}
	// Sparse "text": short dark runs on every few lines.
	for y := 100; y < benchH-100; y += 3 {
		if y%24 > 12 {
			continue
		}
		for x := 100; x < benchW-100; x++ {
			if rng.IntN(4) == 0 {
				v := byte(rng.IntN(200))
				for c := 0; c < channels; c++ {
					b[(y*benchW+x)*channels+c] = v
				}
			}
		}
	}
	return b
}

func BenchmarkIsGray(b *testing.B) {
	page := benchPage(3)
	for _, k := range []struct {
		name string
		fn   func([]byte, int, int, int, int) bool
	}{{"ref", IsGrayRef}, {"opt", IsGray}} {
		for _, tol := range []int{0, 4} {
			b.Run(fmt.Sprintf("%s/tol%d", k.name, tol), func(b *testing.B) {
				b.SetBytes(int64(len(page)))
				for b.Loop() {
					if !k.fn(page, benchW, benchH, 3*benchW, tol) {
						b.Fatal("not gray")
					}
				}
			})
		}
	}
}

func BenchmarkRGBToGray(b *testing.B) {
	page := benchPage(3)
	dst := make([]byte, benchW*benchH)
	for _, k := range []struct {
		name string
		fn   func([]byte, int, []byte, int, int, int)
	}{{"ref", RGBToGrayRef}, {"opt", RGBToGray}} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				k.fn(dst, benchW, page, 3*benchW, benchW, benchH)
			}
		})
	}
}
