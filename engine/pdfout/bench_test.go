package pdfout

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// A Letter page at 150 dpi, the service's default output.
const benchW, benchH, benchDPI = 1275, 1650, 150

func benchAddPage(b *testing.B, r *page.Raster) {
	w, err := NewWriter(io.Discard, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(r.W * r.H * r.Channels))
	b.ReportAllocs()
	var bytes int64
	var st PageStats
	for b.Loop() {
		if st, err = w.AddPage(r, 612, 792); err != nil {
			b.Fatal(err)
		}
		bytes += st.Bytes
	}
	b.ReportMetric(float64(bytes)/float64(b.N), "bytes/page")
	b.Logf("%s gray=%v bits=%d", st.Encoding, st.Gray, st.Bits)
}

// benchReference encodes the same raster the way a writer without this
// package's choices would: the whole page as an 8-bit RGB image with the
// standard library's PNG (fastest level) or JPEG encoder. The ratio of
// ns/op against it is the package's speed-up.
func benchReference(b *testing.B, r *page.Raster, usePNG bool) {
	img := image.NewRGBA(image.Rect(0, 0, r.W, r.H))
	for y := range r.H {
		for x := range r.W {
			p := r.Pix[y*r.Stride+3*x:]
			img.Pix[y*img.Stride+4*x], img.Pix[y*img.Stride+4*x+1], img.Pix[y*img.Stride+4*x+2], img.Pix[y*img.Stride+4*x+3] = p[0], p[1], p[2], 255
		}
	}
	b.SetBytes(int64(r.W * r.H * r.Channels))
	var out bytes.Buffer
	var total int64
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	for b.Loop() {
		out.Reset()
		var err error
		if usePNG {
			err = enc.Encode(&out, img)
		} else {
			err = jpeg.Encode(&out, img, &jpeg.Options{Quality: DefaultJPEGQuality})
		}
		if err != nil {
			b.Fatal(err)
		}
		total += int64(out.Len())
	}
	b.ReportMetric(float64(total)/float64(b.N), "bytes/page")
}

func BenchmarkAddPage(b *testing.B) {
	gray := toRaster(textPage(b, benchW, benchH, benchDPI, false, 1), 3, 0)
	colour := toRaster(textPage(b, benchW, benchH, benchDPI, true, 1), 3, 0)
	photo := photoRaster(benchW, benchH, 1)
	b.Run("gray-text/pdfout", func(b *testing.B) { benchAddPage(b, gray) })
	b.Run("gray-text/ref-stdlib-png", func(b *testing.B) { benchReference(b, gray, true) })
	b.Run("colour-text/pdfout", func(b *testing.B) { benchAddPage(b, colour) })
	b.Run("colour-text/ref-stdlib-png", func(b *testing.B) { benchReference(b, colour, true) })
	b.Run("photo/pdfout", func(b *testing.B) { benchAddPage(b, photo) })
	b.Run("photo/ref-stdlib-jpeg", func(b *testing.B) { benchReference(b, photo, false) })
}

// BenchmarkVerify checks a 20-page text document (about 3 MB); SetBytes is
// the file size, so MB/s is verification throughput.
func BenchmarkVerify(b *testing.B) {
	r := toRaster(textPage(b, benchW, benchH, benchDPI, false, 1), 3, 0)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for range 20 {
		if _, err := w.AddPage(r, 612, 792); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	file := buf.Bytes()
	b.SetBytes(int64(len(file)))
	for b.Loop() {
		if err := Verify(bytes.NewReader(file), int64(len(file))); err != nil {
			b.Fatal(err)
		}
	}
}
