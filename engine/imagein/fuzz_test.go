package imagein

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image/gif"
	"os"
	"testing"

	"golang.org/x/image/bmp"
)

// FuzzOpen: no input panics, and memory stays within the pixel limits
// (the fuzzer's own memory watchdog catches blow-ups).
func FuzzOpen(f *testing.F) {
	img := testImage(16, 12, 1)
	f.Add(encodePNG(f, img))
	f.Add(withPHYs(encodePNG(f, img), 300))
	f.Add(withSegment(withSegment(encodeJPEG(f, img, 80), 0xE1, exifOrientation(6, binary.BigEndian)), 0xE0, jfif(300)))
	f.Add(buildTIFF(binary.LittleEndian, []tiffPageSpec{{img: img, dpi: 200, orientation: 8}, {img: testImage(3, 5, 2)}}, nil))
	f.Add(hugePNG(4000, 4000))
	var g, bm bytes.Buffer
	if err := gif.Encode(&g, img, nil); err == nil {
		f.Add(g.Bytes())
	}
	if err := bmp.Encode(&bm, img); err == nil {
		f.Add(bm.Bytes())
	}
	if b, err := os.ReadFile("testdata/gopher-doc.1bpp.lossless.webp"); err == nil {
		f.Add(b)
	}
	const limit = 1 << 20
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Open(b, limit, 8)
		if err != nil {
			return
		}
		if n := d.NumPages(); n < 1 || n > 8 {
			t.Fatalf("%d pages", n)
		}
		for i := range d.NumPages() {
			info, err := d.Page(i)
			if err != nil {
				t.Fatal(err)
			}
			if int64(info.WidthPx)*int64(info.HeightPx) > limit {
				t.Fatalf("page %d: %dx%d passed the limit", i, info.WidthPx, info.HeightPx)
			}
			r, err := d.Render(i, 72, limit)
			if err != nil {
				if w, h := info.RenderSize(72); int64(w)*int64(h) > limit && !errors.Is(err, ErrTooLarge) {
					t.Fatalf("page %d: %v", i, err)
				}
				continue
			}
			if w, h := info.RenderSize(72); r.W != w || r.H != h || len(r.Pix) < r.H*r.Stride {
				t.Fatalf("page %d: raster %dx%d, want %dx%d", i, r.W, r.H, w, h)
			}
			r.Release()
		}
	})
}
