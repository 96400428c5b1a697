package kernels

import (
	"math/rand/v2"
	"testing"
)

func randomImage(r *rand.Rand, w, h, ch, stride int) []byte {
	b := make([]byte, stride*h)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return b
}

func TestResizeBilinearMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []struct{ sw, sh, dw, dh, ch int }{
		{100, 80, 70, 56, 3}, // typical OCR downscale
		{37, 23, 96, 64, 3},  // upscale
		{64, 64, 64, 64, 1},  // identity
		{200, 10, 33, 7, 1},
		{5, 5, 1, 1, 3},
		{1, 1, 4, 3, 4},
	}
	for _, c := range cases {
		stride := c.sw*c.ch + 5
		src := randomImage(r, c.sw, c.sh, c.ch, stride)
		want := make([]byte, c.dw*c.ch*c.dh)
		got := make([]byte, c.dw*c.ch*c.dh)
		ResizeBilinearRef(want, c.dw, c.dh, c.dw*c.ch, src, c.sw, c.sh, stride, c.ch)
		ResizeBilinear(got, c.dw, c.dh, c.dw*c.ch, src, c.sw, c.sh, stride, c.ch)
		for i := range want {
			if d := int(want[i]) - int(got[i]); d < -1 || d > 1 {
				t.Fatalf("%+v: sample %d: fast %d, reference %d", c, i, got[i], want[i])
			}
		}
		if c.sw == c.dw && c.sh == c.dh {
			for y := 0; y < c.sh; y++ {
				for x := 0; x < c.sw*c.ch; x++ {
					if got[y*c.dw*c.ch+x] != src[y*stride+x] {
						t.Fatalf("identity resize changed pixel (%d,%d)", x, y)
					}
				}
			}
		}
	}
}

func TestResizeBilinearConstantAndGradient(t *testing.T) {
	src := make([]byte, 50*40)
	for i := range src {
		src[i] = 77
	}
	dst := make([]byte, 23*17)
	ResizeBilinear(dst, 23, 17, 23, src, 50, 40, 50, 1)
	for i, v := range dst {
		if v != 77 {
			t.Fatalf("constant image: pixel %d = %d", i, v)
		}
	}
	// A horizontal ramp stays monotonic.
	for y := 0; y < 40; y++ {
		for x := 0; x < 50; x++ {
			src[y*50+x] = byte(x * 5)
		}
	}
	ResizeBilinear(dst, 23, 17, 23, src, 50, 40, 50, 1)
	for x := 1; x < 23; x++ {
		if dst[x] < dst[x-1] {
			t.Fatalf("ramp not monotonic at %d: %v", x, dst[:23])
		}
	}
}

func BenchmarkResize(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const sw, sh, dw, dh = 1700, 2200, 1184, 1536 // 200 dpi page to the detector size
	src := randomImage(r, sw, sh, 3, sw*3)
	dst := make([]byte, dw*dh*3)
	b.Run("ref", func(b *testing.B) {
		b.SetBytes(dw * dh * 3)
		for b.Loop() {
			ResizeBilinearRef(dst, dw, dh, dw*3, src, sw, sh, sw*3, 3)
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(dw * dh * 3)
		for b.Loop() {
			ResizeBilinear(dst, dw, dh, dw*3, src, sw, sh, sw*3, 3)
		}
	})
}
