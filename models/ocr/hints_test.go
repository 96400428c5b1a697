package ocr

import (
	"context"
	"image"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingEngine is a fresh engine (the default recogniser) that counts
// the line crops its recogniser reads.
func countingEngine(t *testing.T) (*Engine, *atomic.Int64) {
	t.Helper()
	testEngine(t) // skips without the models
	var crops atomic.Int64
	e, err := New("", Options{Observe: func(name string, size int, _ time.Duration) {
		if name == "ocr_rec" {
			crops.Add(int64(size))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, &crops
}

// TestRecognizeWithHints: Known lines are neither read nor in the
// result; Upright spares the both-ways reading that judges orientation,
// reads an upright page as Recognize does, and still reads a page turned
// upside down (its low-confidence lines are read turned over).
func TestRecognizeWithHints(t *testing.T) {
	e, crops := countingEngine(t)
	ctx := context.Background()
	img, truth := renderPage(t, pageSpec{lines: testLines[:4], dpi: 200, pt: 11, noise: 8, margin: 0.5, seed: 5})
	read := func(img Image, h Hints) ([]Line, int64) {
		t.Helper()
		before := crops.Load()
		lines, err := e.RecognizeWith(ctx, img, image.Rectangle{}, h)
		if err != nil {
			t.Fatal(err)
		}
		return lines, crops.Load() - before
	}

	plain, plainCrops := read(img, Hints{})
	checkPage(t, "no hints", plain, truth, 0.03)
	up, upCrops := read(img, Hints{Upright: true})
	checkPage(t, "upright", up, truth, 0.03)
	if upCrops > plainCrops {
		t.Errorf("upright read %d crops, without the hint %d", upCrops, plainCrops)
	}
	t.Logf("crops read: %d without hints, %d upright", plainCrops, upCrops)

	// The second line is known: only the others are read.
	second := truth[1][0].quad
	known := func(q Quad) bool {
		_, y0, _, y1 := q.Bounds()
		my := (second.UL.Y + second.LL.Y) / 2
		return y0 <= my && my <= y1
	}
	lines, knownCrops := read(img, Hints{Known: known})
	if got := pageText(lines); strings.Contains(got, "Larkspur") || !strings.Contains(got, "Ellison") {
		t.Errorf("with the second line known, read %q", got)
	}
	if knownCrops >= plainCrops {
		t.Errorf("with a line known %d crops read, without %d", knownCrops, plainCrops)
	}

	// Last: rotatePage turns truth's quads in place.
	turned, turnedTruth := rotatePage(img, truth, 180)
	lines, _ = read(turned, Hints{Upright: true})
	checkPage(t, "upright hint on a page turned 180", lines, turnedTruth, 0.03)
}
