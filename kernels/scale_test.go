package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestBoxReduceMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, ch := range []int{1, 3, 4} {
		for _, g := range randomGeometries(rng, ch, 100)[1:] {
			for _, k := range []int{1, 2, 3, 5} {
				src := randomBytes(rng, bufLen(g, ch))
				dw, dh := BoxReduceSize(g.w, g.h, k)
				ds := dw*ch + rng.IntN(3)
				n := bufLen(geometry{dw, dh, ds}, ch)
				want := randomBytes(rng, n)
				got := append([]byte(nil), want...)
				BoxReduceRef(want, ds, src, g.w, g.h, g.stride, ch, k)
				BoxReduce(got, ds, src, g.w, g.h, g.stride, ch, k)
				checkEqual(t, fmt.Sprintf("%+v ch %d k %d", g, ch, k), got, want)
			}
		}
	}
}

func TestScaleBilinearNearRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, ch := range []int{1, 3, 4} {
		for _, g := range randomGeometries(rng, ch, 80)[1:] {
			for range 3 {
				dw, dh := 1+rng.IntN(2*g.w+2), 1+rng.IntN(2*g.h+2)
				src := photoLike(rng, g.w, g.h, ch)
				if rng.IntN(2) == 0 {
					src = randomBytes(rng, g.w*g.h*ch)
				}
				ds := dw*ch + rng.IntN(3)
				n := bufLen(geometry{dw, dh, ds}, ch)
				want := randomBytes(rng, n)
				got := append([]byte(nil), want...)
				ScaleBilinearRef(want, dw, dh, ds, src, g.w, g.h, g.w*ch, ch)
				ScaleBilinear(got, dw, dh, ds, src, g.w, g.h, g.w*ch, ch)
				for i := range got {
					if d := absInt(int(got[i]) - int(want[i])); d > 1 {
						t.Fatalf("%dx%d -> %dx%d ch %d: byte %d = %d, want %d", g.w, g.h, dw, dh, ch, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestScaleBilinearIdentity(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	src := randomBytes(rng, 33*21*3)
	dst := make([]byte, len(src))
	ScaleBilinear(dst, 33, 21, 33*3, src, 33, 21, 33*3, 3)
	checkEqual(t, "identity", dst, src)
}

func BenchmarkScaleBilinear(b *testing.B) {
	// A 300 dpi scan brought to 150 dpi (after a 2x box reduce this would
	// be an identity; here the bilinear step alone, 0.7x).
	const sw, sh = 2550, 3300
	rng := rand.New(rand.NewPCG(1, 2))
	src := photoLike(rng, sw, sh, 3)
	dw, dh := sw*7/10, sh*7/10
	dst := make([]byte, dw*dh*3)
	for _, k := range []struct {
		name string
		fn   func(dst []byte, dw, dh, ds int, src []byte, sw, sh, ss, ch int)
	}{{"ref", ScaleBilinearRef}, {"opt", ScaleBilinear}} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			for b.Loop() {
				k.fn(dst, dw, dh, dw*3, src, sw, sh, sw*3, 3)
			}
		})
	}
}

func BenchmarkBoxReduce(b *testing.B) {
	const sw, sh = 2550, 3300
	rng := rand.New(rand.NewPCG(1, 2))
	src := photoLike(rng, sw, sh, 3)
	dw, dh := BoxReduceSize(sw, sh, 2)
	dst := make([]byte, dw*dh*3)
	for _, k := range []struct {
		name string
		fn   func(dst []byte, ds int, src []byte, sw, sh, ss, ch, k int)
	}{{"ref", BoxReduceRef}, {"opt", BoxReduce}} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				k.fn(dst, dw*3, src, sw, sh, sw*3, 3, 2)
			}
		})
	}
}
