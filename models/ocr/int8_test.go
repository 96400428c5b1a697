package ocr

import (
	"context"
	"image"
	"os"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/gomono"
)

// int8MaxCER is how far the int8 recogniser's reading of a page may drift
// from the float one's, as a character error rate against it.
const int8MaxCER = 0.005

// TestInt8ReadsAsFloat reads pages with the embedded redactd-latin (int8,
// train/quantize.py) and with the float model it was quantised from
// (latin/rec.float.onnx), and holds their readings within int8MaxCER of
// each other: quantisation may cost speed's worth of nothing else. With
// 7-bit weights the readings are the same with VNNI and without it.
func TestInt8ReadsAsFloat(t *testing.T) {
	if testing.Short() {
		t.Skip("reads four pages with two recognisers")
	}
	q := testEngineWith(t, Options{Model: ModelLatin})
	float, err := os.ReadFile("latin/rec.float.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if len(float) == len(latinRec) {
		t.Fatalf("latin/rec.onnx is as large as rec.float.onnx (%d bytes): not the int8 copy?", len(float))
	}
	embedded := latinRec
	latinRec = float
	f, err := New("", Options{Model: ModelLatin})
	latinRec = embedded
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		name string
		spec pageSpec
	}{
		{"invoice", pageSpec{lines: testLines, dpi: 200, pt: 11, noise: 10, margin: 0.5, seed: 90}},
		{"invoice mono small", pageSpec{lines: testLines, dpi: 150, pt: 9, skew: 1, noise: 10, margin: 0.5, seed: 91, ttf: gomono.TTF}},
		{"names", pageSpec{lines: gateNames, dpi: 200, pt: 11, noise: 10, margin: 0.7, seed: 92}},
		{"escaped", pageSpec{lines: escapedLinesText(), dpi: 200, pt: 11, noise: 10, margin: 0.7, seed: 93}},
	} {
		img, _ := renderPage(t, c.spec)
		lq, err := q.Recognize(context.Background(), img, image.Rectangle{})
		if err != nil {
			t.Fatal(err)
		}
		lf, err := f.Recognize(context.Background(), img, image.Rectangle{})
		if err != nil {
			t.Fatal(err)
		}
		got, want := pageText(lq), pageText(lf)
		d := cer(got, want)
		t.Logf("%s: int8 against float %.2f%% (%d characters)", c.name, 100*d, len([]rune(want)))
		if d > int8MaxCER {
			t.Errorf("%s: int8 reads %.2f%% differently from float:\nint8:  %s\nfloat: %s", c.name, 100*d,
				strings.ReplaceAll(got, "\n", " | "), strings.ReplaceAll(want, "\n", " | "))
		}
	}
}
