package ocr

import (
	"image"
	"math/rand/v2"
	"testing"
)

// inkPage is a w x h page of paper colour with noise, with strokes (2
// pixels wide, 20 tall, every 8 pixels) drawn in ink colour inside each
// of blocks.
func inkPage(w, h, ch int, paper, ink [3]uint8, noise int, blocks ...image.Rectangle) Image {
	rng := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	img := Image{W: w, H: h, Channels: ch, Stride: w * ch, Pix: make([]byte, w*h*ch)}
	for i := range img.Pix {
		v := int(paper[i%ch])
		if noise > 0 {
			v += rng.IntN(2*noise+1) - noise
		}
		img.Pix[i] = uint8(min(255, max(0, v)))
	}
	for _, b := range blocks {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if (y-b.Min.Y)%30 >= 20 {
				continue // line spacing
			}
			for x := b.Min.X; x < b.Max.X; x++ {
				if (x-b.Min.X)%8 < 2 {
					copy(img.Pix[y*img.Stride+x*ch:], ink[:ch])
				}
			}
		}
	}
	return img
}

func TestInkBounds(t *testing.T) {
	white, black := [3]uint8{235, 235, 235}, [3]uint8{20, 20, 20}
	text := image.Rect(300, 400, 1100, 900)
	cases := []struct {
		name string
		img  Image
		want image.Rectangle // what the bounds must contain
		crop bool            // whether they must leave out part of the page
	}{
		{"text block on a noisy page", inkPage(1400, 1800, 1, white, black, 12, text), text, true},
		{"text block and a page number far below", inkPage(1400, 1800, 1, white, black, 12, text, image.Rect(690, 1700, 700, 1720)),
			image.Rect(300, 400, 1100, 1720), true},
		{"white text on a dark page", inkPage(1400, 1800, 1, black, white, 8, text), text, true},
		{"yellow text on white (colour)", inkPage(1400, 1800, 3, [3]uint8{255, 255, 255}, [3]uint8{250, 230, 0}, 0, text), text, true},
		{"blank noisy page: read whole", inkPage(1400, 1800, 1, white, black, 14), image.Rect(0, 0, 1400, 1800), false},
		{"text nearly everywhere: read whole", inkPage(1400, 1800, 1, white, black, 0, image.Rect(40, 40, 1360, 1760)), image.Rect(0, 0, 1400, 1800), false},
	}
	for _, c := range cases {
		got := inkBounds(c.img)
		full := image.Rect(0, 0, c.img.W, c.img.H)
		if !c.want.In(got) {
			t.Errorf("%s: bounds %v leave out %v", c.name, got, c.want)
		}
		if c.crop && got == full {
			t.Errorf("%s: bounds are the whole page", c.name)
		}
		if !c.crop && got != full {
			t.Errorf("%s: bounds %v, want the whole page", c.name, got)
		}
	}
}
