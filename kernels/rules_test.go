package kernels

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestThinRunsMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	specs := []RuleSpec{{MinH: 5, MinV: 5, Thick: 1}, {MinH: 6, MinV: 9, MinWall: 4, Thick: 2, Crossings: true}, {MinH: 3, MinV: 2, MinWall: 1, Thick: 3}, {MinH: 1, MinV: 1, Thick: 0, Crossings: true}, {MinH: 4, MinV: 6, MinWall: 3, Thick: 1, Crossings: true}}
	for trial := range 400 {
		w, h := 1+rng.IntN(40), 1+rng.IntN(40)
		mask := make([]bool, w*h)
		p := rng.Float64()
		for i := range mask {
			mask[i] = rng.Float64() < p
		}
		// Some rules and walls on top of the noise.
		for range rng.IntN(4) {
			if y := rng.IntN(h); rng.IntN(2) == 0 {
				for x := rng.IntN(w); x < w; x++ {
					mask[y*w+x] = true
				}
			} else {
				x := rng.IntN(w)
				for y := rng.IntN(h); y < h; y++ {
					mask[y*w+x] = true
				}
			}
		}
		for _, s := range specs {
			want, got := make([]bool, w*h), make([]bool, w*h)
			ThinRunsRef(want, mask, w, h, s)
			ThinRuns(got, mask, w, h, s, nil)
			if !slices.Equal(want, got) {
				t.Fatalf("trial %d %dx%d %+v:\n got %v\nwant %v", trial, w, h, s, got, want)
			}
		}
	}
}

func BenchmarkThinRuns(b *testing.B) {
	// A 200-dpi letter page's worth of mask with a form's grid and
	// scattered text-like ink.
	w, h := 1700, 2200
	rng := rand.New(rand.NewPCG(43, 44))
	mask := make([]bool, w*h)
	for i := range mask {
		mask[i] = rng.IntN(12) == 0
	}
	for y := 100; y < h; y += 70 {
		for x := 50; x < w-50; x++ {
			mask[y*w+x], mask[(y+1)*w+x] = true, true
		}
	}
	s := RuleSpec{MinH: 100, MinV: 60, MinWall: 24, Thick: 4, Crossings: true}
	out := make([]bool, w*h)
	scratch := make([]uint16, w*h)
	for _, v := range []struct {
		name string
		f    func()
	}{
		{"ref", func() { ThinRunsRef(out, mask, w, h, s) }},
		{"runs", func() { ThinRuns(out, mask, w, h, s, scratch) }},
	} {
		b.Run(fmt.Sprint(v.name), func(b *testing.B) {
			for b.Loop() {
				v.f()
			}
		})
	}
}
