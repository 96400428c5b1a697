package kernels

import (
	"math/rand/v2"
	"testing"
)

func TestPaperLevel(t *testing.T) {
	const w, h = 300, 200
	r := rand.New(rand.NewPCG(1, 2))
	gray := make([]byte, w*h)
	for i := range gray {
		gray[i] = 231 + byte(r.IntN(3)) // paper grain 231..233
		if r.IntN(10) == 0 {
			gray[i] = 20 // ink
		}
	}
	// Without smoothing the busiest single level wins; with a radius the
	// grain's middle level collects its neighbours.
	if got := PaperLevel(gray, w, h, w, 1, 256, 1)[0]; got != 232 {
		t.Errorf("gray paper with radius 1 = %d, want 232", got)
	}
	if got := PaperLevel(gray, w, h, w, 1, 256, 0)[0]; got < 231 || got > 233 {
		t.Errorf("gray paper = %d, want 231..233", got)
	}

	rgb := make([]byte, w*h*3)
	for i := 0; i < len(rgb); i += 3 {
		rgb[i], rgb[i+1], rgb[i+2] = 250, 240, 200 // cream
	}
	for i := 0; i < len(rgb)/3; i += 7 {
		rgb[3*i], rgb[3*i+1], rgb[3*i+2] = 0, 0, 90 // blue ink
	}
	if got := PaperLevel(rgb, w, h, w*3, 3, 96, 0); got != [4]uint8{250, 240, 200, 0} {
		t.Errorf("cream paper = %v", got)
	}

	// The grid: with side 96 on a 192-pixel-high image every second pixel
	// is read, so ink in odd columns and rows only is never seen.
	const s = 192
	grid := make([]byte, s*s)
	for y := range s {
		for x := range s {
			grid[y*s+x] = 255
			if x%2 == 1 || y%2 == 1 {
				grid[y*s+x] = 0
			}
		}
	}
	if got := PaperLevel(grid, s, s, s, 1, 96, 0)[0]; got != 255 {
		t.Errorf("sampled every 2nd pixel: %d, want 255", got)
	}
	if got := PaperLevel(grid, s, s, s, 1, 192, 0)[0]; got != 0 {
		t.Errorf("sampled every pixel: %d, want 0 (ink is 3 of 4 pixels)", got)
	}
	if got := PaperLevel(nil, 0, 0, 0, 1, 96, 0); got != ([4]uint8{}) {
		t.Errorf("empty image: %v", got)
	}
}
