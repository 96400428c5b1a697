package ocr

import (
	"context"
	"image"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gosmallcaps"
)

func TestVariety(t *testing.T) {
	e := testEngine(t)
	for _, c := range []struct {
		name string
		spec pageSpec
	}{
		{"mono", pageSpec{lines: testLines, dpi: 200, pt: 10, skew: -1, noise: 10, margin: 0.5, seed: 2, ttf: gomono.TTF}},
		{"bold", pageSpec{lines: testLines, dpi: 150, pt: 12, skew: 0.5, noise: 10, margin: 0.5, seed: 3, ttf: gobold.TTF}},
		{"italic", pageSpec{lines: testLines, dpi: 300, pt: 9, skew: 2, noise: 15, margin: 0.5, seed: 4, ttf: goitalic.TTF}},
		{"smallcaps", pageSpec{lines: testLines, dpi: 200, pt: 11, skew: 0, noise: 5, margin: 0.5, seed: 5, ttf: gosmallcaps.TTF}},
		{"small", pageSpec{lines: testLines, dpi: 150, pt: 8, skew: 1, noise: 8, margin: 0.5, seed: 6}},
		{"large", pageSpec{lines: testLines, dpi: 300, pt: 16, skew: -2, noise: 8, margin: 0.5, seed: 7}},
	} {
		t.Run(c.name, func(t *testing.T) {
			img, truth := renderPage(t, c.spec)
			lines, err := e.Recognize(context.Background(), img, image.Rectangle{})
			if err != nil {
				t.Fatal(err)
			}
			if c.spec.ttf != nil && &c.spec.ttf[0] == &gosmallcaps.TTF[0] {
				upper(truth)
			}
			checkPage(t, c.name, lines, truth, 0.05)
		})
	}
}

// upper turns the truth upper-case, for a small-caps font.
func upper(truth [][]truthWord) {
	for i := range truth {
		for j := range truth[i] {
			truth[i][j].text = strings.ToUpper(truth[i][j].text)
		}
	}
}
