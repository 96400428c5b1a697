package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestRGBToYCbCrMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, g := range randomGeometries(rng, 3, 200) {
		src := randomBytes(rng, bufLen(g, 3))
		ds := g.w + rng.IntN(4)
		n := bufLen(geometry{g.w, g.h, ds}, 1)
		var want, got [3][]byte
		for i := range 3 {
			want[i] = randomBytes(rng, n)
			got[i] = append([]byte(nil), want[i]...)
		}
		RGBToYCbCrRef(want[0], want[1], want[2], ds, src, g.stride, g.w, g.h)
		RGBToYCbCr(got[0], got[1], got[2], ds, src, g.stride, g.w, g.h)
		for i := range 3 {
			checkEqual(t, fmt.Sprintf("%+v plane %d", g, i), got[i], want[i])
		}
	}
}

func BenchmarkRGBToYCbCr(b *testing.B) {
	page := benchPage(3)
	y, cb, cr := make([]byte, benchW*benchH), make([]byte, benchW*benchH), make([]byte, benchW*benchH)
	for _, k := range []struct {
		name string
		fn   func(a, b, c []byte, ds int, src []byte, ss, w, h int)
	}{{"ref", RGBToYCbCrRef}, {"opt", RGBToYCbCr}} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				k.fn(y, cb, cr, benchW, page, 3*benchW, benchW, benchH)
			}
		})
	}
}
