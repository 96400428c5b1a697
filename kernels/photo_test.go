package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestPhotoScoreMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, ch := range []int{1, 3, 4} {
		gs := randomGeometries(rng, ch, 100)
		// Big enough to be sampled rather than read whole.
		gs = append(gs, geometry{300, 200, 300 * ch}, geometry{1275, 1650, 1275*ch + 3}, geometry{5000, 40, 5000 * ch})
		for _, g := range gs {
			img := grayish(rng, geometry{g.w * ch, g.h, g.stride}, 0)
			if rng.IntN(2) == 0 {
				img = randomBytes(rng, bufLen(g, ch))
			}
			want := PhotoScoreRef(img, g.w, g.h, g.stride, ch)
			if got := PhotoScore(img, g.w, g.h, g.stride, ch); got != want {
				t.Fatalf("%+v ch %d: %v, want %v", g, ch, got, want)
			}
		}
	}
}

// photoLike fills a w x h x ch image with smooth gradients plus noise.
func photoLike(rng *rand.Rand, w, h, ch int) []byte {
	b := make([]byte, w*h*ch)
	for y := range h {
		for x := range w {
			for c := range ch {
				v := (x*255/w+y*255/h)/2 + c*20 + rng.IntN(7) - 3
				b[(y*w+x)*ch+c] = byte(min(255, max(0, v)))
			}
		}
	}
	return b
}

func TestPhotoScoreSeparates(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, ch := range []int{1, 3} {
		text := PhotoScore(benchPage(ch), benchW, benchH, benchW*ch, ch)
		photo := PhotoScore(photoLike(rng, 640, 480, ch), 640, 480, 640*ch, ch)
		t.Logf("channels %d: text page %.3f, photo %.3f", ch, text, photo)
		if text > 0.1 || photo < 0.5 {
			t.Fatalf("channels %d: text page scored %.3f, photo %.3f", ch, text, photo)
		}
	}
}

func BenchmarkPhotoScore(b *testing.B) {
	for _, ch := range []int{1, 3} {
		page := benchPage(ch)
		for _, k := range []struct {
			name string
			fn   func([]byte, int, int, int, int) float64
		}{{"ref", PhotoScoreRef}, {"opt", PhotoScore}} {
			b.Run(fmt.Sprintf("%s/ch%d", k.name, ch), func(b *testing.B) {
				for b.Loop() {
					k.fn(page, benchW, benchH, benchW*ch, ch)
				}
			})
		}
	}
}
