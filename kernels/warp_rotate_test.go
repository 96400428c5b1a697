package kernels

import (
	"math/rand/v2"
	"testing"
)

func TestRotateAgreesWithWarp(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const w, h = 7, 4
	for _, ch := range []int{1, 3} {
		src := randomImage(r, w, h, ch, w*ch)
		for _, deg := range []int{0, 90, 180, 270} {
			dw, dh := w, h
			if deg == 90 || deg == 270 {
				dw, dh = h, w
			}
			got := make([]byte, dw*dh*ch)
			Rotate(got, dw*ch, src, w, h, w*ch, ch, deg)
			// The same turn as an exact homography from dst to src.
			var m Homography
			switch deg {
			case 0:
				m = Homography{1, 0, 0, 0, 1, 0, 0, 0, 1}
			case 90: // dst(x, y) = src(y, h-x)
				m = Homography{0, 1, 0, -1, 0, h, 0, 0, 1}
			case 180:
				m = Homography{-1, 0, w, 0, -1, h, 0, 0, 1}
			case 270: // dst(x, y) = src(w-y, x)
				m = Homography{0, -1, w, 1, 0, 0, 0, 0, 1}
			}
			want := make([]byte, dw*dh*ch)
			WarpPerspectiveRef(want, dw, dh, dw*ch, src, w, h, w*ch, ch, m, 1)
			for i := range want {
				if want[i] != got[i] {
					t.Fatalf("ch %d deg %d: byte %d = %d, want %d", ch, deg, i, got[i], want[i])
				}
			}
		}
	}
}

func TestRotateFourTimesIsIdentity(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	const w, h = 13, 5
	src := randomImage(r, w, h, 3, w*3)
	a := make([]byte, len(src))
	b := make([]byte, len(src))
	Rotate(a, h*3, src, w, h, w*3, 3, 90)
	Rotate(b, w*3, a, h, w, h*3, 3, 90)
	Rotate(a, h*3, b, w, h, w*3, 3, 90)
	Rotate(b, w*3, a, h, w, h*3, 3, 90)
	for i := range src {
		if src[i] != b[i] {
			t.Fatalf("byte %d changed", i)
		}
	}
}

func BenchmarkRotate90(b *testing.B) {
	r := rand.New(rand.NewPCG(15, 16))
	const w, h = 1700, 2200
	src := randomImage(r, w, h, 3, w*3)
	dst := make([]byte, len(src))
	b.SetBytes(w * h * 3)
	for b.Loop() {
		Rotate(dst, h*3, src, w, h, w*3, 3, 90)
	}
}
