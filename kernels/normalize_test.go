package kernels

import (
	"math/rand/v2"
	"testing"
)

var (
	imagenetMean = [3]float32{0.485, 0.456, 0.406}
	imagenetStd  = [3]float32{0.229, 0.224, 0.225}
	recMean      = [3]float32{0.5, 0.5, 0.5}
	recStd       = [3]float32{0.5, 0.5, 0.5}
)

func TestNormalizeCHWMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		w, h, dw, dh, ch int
		bgr              bool
		mean, std        [3]float32
	}{
		{31, 17, 32, 32, 3, true, imagenetMean, imagenetStd},
		{31, 17, 40, 17, 3, false, imagenetMean, imagenetStd},
		{8, 9, 8, 9, 1, true, imagenetMean, imagenetStd},
		// Equal planes (the recogniser's table): the gray path copies
		// one plane's row to the others.
		{8, 9, 8, 9, 1, true, recMean, recStd},
		{13, 5, 21, 7, 1, false, recMean, recStd},
		{13, 5, 21, 7, 3, true, recMean, recStd},
	} {
		lut := NewNormLUT(c.mean, c.std)
		stride := c.w*c.ch + 3
		src := randomImage(r, c.w, c.h, c.ch, stride)
		want := make([]float32, 3*c.dw*c.dh)
		got := make([]float32, 3*c.dw*c.dh)
		for i := range want {
			want[i], got[i] = -7, -7 // padding must stay untouched
		}
		NormalizeCHWRef(want, c.dw, c.dh, src, c.w, c.h, stride, c.ch, c.mean, c.std, c.bgr)
		NormalizeCHW(got, c.dw, c.dh, src, c.w, c.h, stride, c.ch, lut, c.bgr)
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("%+v: value %d: fast %v, reference %v", c, i, got[i], want[i])
			}
		}
	}
}

func TestNormalizeCHWChannelOrder(t *testing.T) {
	src := []byte{10, 20, 30} // one RGB pixel
	mean := [3]float32{0, 0, 0}
	std := [3]float32{1, 1, 1}
	lut := NewNormLUT(mean, std)
	dst := make([]float32, 3)
	NormalizeCHW(dst, 1, 1, src, 1, 1, 3, 3, lut, true)
	if dst[0] != float32(30)/255 || dst[2] != float32(10)/255 {
		t.Fatalf("bgr planes = %v, want blue first", dst)
	}
	NormalizeCHW(dst, 1, 1, src, 1, 1, 3, 3, lut, false)
	if dst[0] != float32(10)/255 || dst[2] != float32(30)/255 {
		t.Fatalf("rgb planes = %v, want red first", dst)
	}
}

func BenchmarkNormalize(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const w, h = 1184, 1536
	src := randomImage(r, w, h, 3, w*3)
	dst := make([]float32, 3*w*h)
	b.Run("ref", func(b *testing.B) {
		b.SetBytes(w * h * 3)
		for b.Loop() {
			NormalizeCHWRef(dst, w, h, src, w, h, w*3, 3, imagenetMean, imagenetStd, true)
		}
	})
	b.Run("fast", func(b *testing.B) {
		lut := NewNormLUT(imagenetMean, imagenetStd)
		b.SetBytes(w * h * 3)
		for b.Loop() {
			NormalizeCHW(dst, w, h, src, w, h, w*3, 3, lut, true)
		}
	})
}

// BenchmarkNormalizeGray is a gray line crop of the recogniser's height
// (one of a scan's 54 a page) through the recogniser's table, whose three
// planes are equal.
func BenchmarkNormalizeGray(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const w, h = 1280, 48
	src := randomImage(r, w, h, 1, w)
	dst := make([]float32, 3*w*h)
	b.Run("ref", func(b *testing.B) {
		b.SetBytes(w * h)
		for b.Loop() {
			NormalizeCHWRef(dst, w, h, src, w, h, w, 1, recMean, recStd, true)
		}
	})
	b.Run("fast", func(b *testing.B) {
		lut := NewNormLUT(recMean, recStd)
		b.SetBytes(w * h)
		for b.Loop() {
			NormalizeCHW(dst, w, h, src, w, h, w, 1, lut, true)
		}
	})
}
