package ocr

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// TestDetectorInputRecycled: the detector finds the same boxes whether
// its input tensor is new or a recycled one full of another page's
// values (here NaNs, which would spread through every convolution they
// reached): runDet writes every float it reads.
func TestDetectorInputRecycled(t *testing.T) {
	e := testEngine(t)
	img, _ := renderPage(t, pageSpec{lines: testLines[:8], dpi: 200, pt: 11, skew: 0.5, noise: 8, margin: 0.6, seed: 3})
	detect := func() []detBox {
		t.Helper()
		boxes, err := e.detect(context.Background(), img)
		if err != nil {
			t.Fatal(err)
		}
		return boxes
	}
	for detInputs.Get() != nil { // start with an empty pool: a fresh input
	}
	fresh := detect()
	if len(fresh) < 8 {
		t.Fatalf("%d boxes on a page of 8 lines", len(fresh))
	}
	for range 4 {
		dirty := make([]float32, 4<<20+len(img.Pix)*3)
		for i := range dirty {
			dirty[i] = float32(math.NaN())
		}
		detInputs.Put(&dirty)
		if got := detect(); !reflect.DeepEqual(got, fresh) {
			t.Fatalf("with a recycled input: %d boxes %v, fresh: %d boxes %v", len(got), got, len(fresh), fresh)
		}
	}
}
