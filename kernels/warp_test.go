package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestQuadToRectMapsCorners(t *testing.T) {
	ul, ur, lr, ll := [2]float64{10, 20}, [2]float64{110, 30}, [2]float64{105, 60}, [2]float64{8, 52}
	m, ok := QuadToRect(200, 48, ul, ur, lr, ll)
	if !ok {
		t.Fatal("degenerate")
	}
	for _, c := range []struct {
		x, y float64
		want [2]float64
	}{{0, 0, ul}, {200, 0, ur}, {200, 48, lr}, {0, 48, ll}} {
		gx, gy := m.Apply(c.x, c.y)
		if math.Hypot(gx-c.want[0], gy-c.want[1]) > 1e-9 {
			t.Errorf("(%v,%v) -> (%v,%v), want %v", c.x, c.y, gx, gy, c.want)
		}
	}
	if _, ok := QuadToRect(10, 10, ul, ul, ul, ul); ok {
		t.Error("point quad accepted")
	}
}

func TestWarpMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const sw, sh = 120, 90
	for _, ch := range []int{1, 3} {
		src := randomImage(r, sw, sh, ch, sw*ch)
		for _, quad := range [][4][2]float64{
			{{10, 10}, {100, 14}, {98, 40}, {8, 36}},  // slightly rotated line
			{{0, 0}, {120, 0}, {120, 90}, {0, 90}},    // whole image
			{{30, 80}, {30, 5}, {60, 5}, {60, 80}},    // rotated 90 degrees
			{{-5, -5}, {130, 3}, {125, 100}, {2, 95}}, // outside: replicate borders
			{{20, 20}, {90, 25}, {100, 70}, {15, 60}}, // true perspective
		} {
			for _, ss := range []int{1, 2} {
				const dw, dh = 150, 48
				m, ok := QuadToRect(dw, dh, quad[0], quad[1], quad[2], quad[3])
				if !ok {
					t.Fatal("degenerate")
				}
				want := make([]byte, dw*dh*ch)
				got := make([]byte, dw*dh*ch)
				WarpPerspectiveRef(want, dw, dh, dw*ch, src, sw, sh, sw*ch, ch, m, ss)
				WarpPerspective(got, dw, dh, dw*ch, src, sw, sh, sw*ch, ch, m, ss)
				for i := range want {
					if d := int(want[i]) - int(got[i]); d < -2 || d > 2 {
						t.Fatalf("ch %d quad %v ss %d: sample %d fast %d ref %d", ch, quad, ss, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestWarpAffineSameBytes checks that the affine path (no division a
// sample) and the shift that divides 1, 4 or 16 samples' sums write the
// bytes the general path writes, for the parallelograms line crops are.
func TestWarpAffineSameBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const sw, sh = 120, 90
	for _, ch := range []int{1, 3} {
		src := randomImage(r, sw, sh, ch, sw*ch)
		for _, quad := range [][4][2]float64{
			{{10, 10}, {100, 14}, {98, 40}, {8, 36}},
			{{30, 80}, {30, 5}, {60, 5}, {60, 80}},
			{{-5, -5}, {130, 3}, {127, 96}, {-8, 88}},
		} {
			for _, ss := range []int{1, 2, 3, 4} {
				const dw, dh = 150, 48
				m, ok := QuadToRect(dw, dh, quad[0], quad[1], quad[2], quad[3])
				if !ok || !m.affine() {
					t.Fatalf("quad %v: ok %v, affine %v", quad, ok, m.affine())
				}
				want := make([]byte, dw*dh*ch)
				got := make([]byte, dw*dh*ch)
				warpPerspective(want, dw, dh, dw*ch, src, sw, sh, sw*ch, ch, m, ss, false)
				WarpPerspective(got, dw, dh, dw*ch, src, sw, sh, sw*ch, ch, m, ss)
				for i := range want {
					if want[i] != got[i] {
						t.Fatalf("ch %d quad %v ss %d: byte %d affine path %d, general %d", ch, quad, ss, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestWarpIdentityCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	src := randomImage(r, 40, 30, 3, 120)
	dst := make([]byte, len(src))
	WarpPerspective(dst, 40, 30, 120, src, 40, 30, 120, 3, Homography{1, 0, 0, 0, 1, 0, 0, 0, 1}, 1)
	for i := range src {
		if src[i] != dst[i] {
			t.Fatalf("identity warp changed byte %d: %d -> %d", i, src[i], dst[i])
		}
	}
}

func BenchmarkWarp(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const sw, sh = 1700, 2200
	src := randomImage(r, sw, sh, 3, sw*3)
	const dw, dh = 1200, 48 // one text line at recogniser height
	m, _ := QuadToRect(dw, dh, [2]float64{100, 500}, [2]float64{1600, 520}, [2]float64{1599, 580}, [2]float64{99, 560})
	dst := make([]byte, dw*dh*3)
	b.Run("ref", func(b *testing.B) {
		b.SetBytes(dw * dh * 3)
		for b.Loop() {
			WarpPerspectiveRef(dst, dw, dh, dw*3, src, sw, sh, sw*3, 3, m, 1)
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(dw * dh * 3)
		for b.Loop() {
			WarpPerspective(dst, dw, dh, dw*3, src, sw, sh, sw*3, 3, m, 1)
		}
	})
	b.Run("fast-general", func(b *testing.B) {
		// The same affine line through the general path (two divisions
		// a sample), what WarpPerspective ran before its affine path.
		b.SetBytes(dw * dh * 3)
		for b.Loop() {
			warpPerspective(dst, dw, dh, dw*3, src, sw, sh, sw*3, 3, m, 1, false)
		}
	})
	b.Run("fast-gray", func(b *testing.B) {
		// A gray page's line, as the bench's scans are read.
		g := randomImage(r, sw, sh, 1, sw)
		b.SetBytes(dw * dh)
		for b.Loop() {
			WarpPerspective(dst, dw, dh, dw, g, sw, sh, sw, 1, m, 1)
		}
	})
}
