package imagein

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/image/bmp"

	"github.com/redactd/redactd/engine/page"
)

const bigLimit = 1 << 26

func TestSniff(t *testing.T) {
	img := testImage(8, 8, 1)
	var g bytes.Buffer
	if err := gif.Encode(&g, img, nil); err != nil {
		t.Fatal(err)
	}
	var bm bytes.Buffer
	if err := bmp.Encode(&bm, img); err != nil {
		t.Fatal(err)
	}
	webpFile, err := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		b    []byte
		want Kind
	}{
		{"png", encodePNG(t, img), KindPNG},
		{"jpeg", encodeJPEG(t, img, 90), KindJPEG},
		{"tiff le", buildTIFF(binary.LittleEndian, []tiffPageSpec{{img: img}}, nil), KindTIFF},
		{"tiff be", buildTIFF(binary.BigEndian, []tiffPageSpec{{img: img}}, nil), KindTIFF},
		{"gif", g.Bytes(), KindGIF},
		{"bmp", bm.Bytes(), KindBMP},
		{"webp", webpFile, KindWebP},
		{"pdf", []byte("%PDF-1.4\n..."), KindPDF},
		{"pdf after junk", append(bytes.Repeat([]byte{' '}, 1000), "%PDF-1.7"...), KindPDF},
		{"pdf too late", append(bytes.Repeat([]byte{' '}, 1020), "%PDF-1.7"...), KindUnknown},
		{"text", []byte("hello, world"), KindUnknown},
		{"empty", nil, KindUnknown},
		{"riff not webp", []byte("RIFF\x00\x00\x00\x00WAVEfmt "), KindUnknown},
	} {
		got, err := Sniff(c.b)
		if got != c.want || (c.want == KindUnknown) != errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: Sniff = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// rasterOf converts an image to the RGB raster expected from Render.
func rasterOf(img *image.NRGBA) *page.Raster {
	b := img.Bounds()
	r := &page.Raster{W: b.Dx(), H: b.Dy(), Channels: 3, Stride: 3 * b.Dx(), Pix: make([]byte, 3*b.Dx()*b.Dy())}
	for y := range r.H {
		for x := range r.W {
			c := img.NRGBAAt(x, y)
			a := uint32(c.A)
			r.Pix[y*r.Stride+3*x] = byte((uint32(c.R)*a + 255*(255-a) + 127) / 255)
			r.Pix[y*r.Stride+3*x+1] = byte((uint32(c.G)*a + 255*(255-a) + 127) / 255)
			r.Pix[y*r.Stride+3*x+2] = byte((uint32(c.B)*a + 255*(255-a) + 127) / 255)
		}
	}
	return r
}

// maxDiff is the largest sample difference between two rasters.
func maxDiff(t *testing.T, got, want *page.Raster) int {
	t.Helper()
	if got.W != want.W || got.H != want.H || got.Channels != 3 {
		t.Fatalf("raster %dx%dx%d, want %dx%dx3", got.W, got.H, got.Channels, want.W, want.H)
	}
	d := 0
	for y := range got.H {
		for i := range 3 * got.W {
			d = max(d, abs(int(got.Pix[y*got.Stride+i])-int(want.Pix[y*want.Stride+i])))
		}
	}
	return d
}

// meanDiff is the mean absolute sample difference.
func meanDiff(got, want *page.Raster) float64 {
	s := 0
	for y := range got.H {
		for i := range 3 * got.W {
			s += abs(int(got.Pix[y*got.Stride+i]) - int(want.Pix[y*want.Stride+i]))
		}
	}
	return float64(s) / float64(3*got.W*got.H)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func openOne(t *testing.T, b []byte) (*Doc, PageInfo) {
	t.Helper()
	d, err := Open(b, bigLimit, 10)
	if err != nil {
		t.Fatal(err)
	}
	if d.NumPages() != 1 {
		t.Fatalf("%d pages", d.NumPages())
	}
	info, err := d.Page(0)
	if err != nil {
		t.Fatal(err)
	}
	return d, info
}

func TestLosslessFormatsExact(t *testing.T) {
	img := testImage(37, 23, 2)
	var bm bytes.Buffer
	if err := bmp.Encode(&bm, img); err != nil {
		t.Fatal(err)
	}
	alpha := testImage(37, 23, 2)
	for i := 3; i < len(alpha.Pix); i += 4 * 5 {
		alpha.Pix[i] = uint8(i * 7) // assorted transparency
	}
	gray := image.NewGray(img.Rect)
	for i := range gray.Pix {
		gray.Pix[i] = img.Pix[4*i+1]
	}
	grayWant := testImage(37, 23, 2)
	for i := 0; i < len(grayWant.Pix); i += 4 {
		grayWant.Pix[i], grayWant.Pix[i+2] = grayWant.Pix[i+1], grayWant.Pix[i+1]
	}
	for _, c := range []struct {
		name string
		b    []byte
		want *image.NRGBA
	}{
		{"png", encodePNG(t, img), img},
		{"png alpha over white", encodePNG(t, alpha), alpha},
		{"png gray", encodePNG(t, gray), grayWant},
		{"bmp", bm.Bytes(), img},
		{"tiff", buildTIFF(binary.BigEndian, []tiffPageSpec{{img: img}}, nil), img},
	} {
		d, info := openOne(t, c.b)
		if info.DPIX != DefaultDPI || info.WidthPx != 37 || info.HeightPx != 23 {
			t.Errorf("%s: info %+v", c.name, info)
		}
		r, err := d.Render(0, DefaultDPI, bigLimit)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if md := maxDiff(t, r, rasterOf(c.want)); md != 0 {
			t.Errorf("%s: pixels differ by up to %d", c.name, md)
		}
		r.Release()
	}
}

func TestJPEGAndGIFAndWebP(t *testing.T) {
	img := testImage(64, 48, 3)
	// A GIF of an image that fits its palette exactly.
	pal := color.Palette{color.NRGBA{0, 0, 0, 255}, color.NRGBA{250, 10, 10, 255}, color.NRGBA{10, 10, 250, 255}, color.NRGBA{0, 0, 0, 0}}
	pi := image.NewPaletted(image.Rect(0, 0, 64, 48), pal)
	pimg := image.NewNRGBA(pi.Rect)
	for i := range pi.Pix {
		pi.Pix[i] = uint8(i*i/7) % 4
		c := pal[pi.Pix[i]].(color.NRGBA)
		pimg.SetNRGBA(i%64, i/64, c)
	}
	var g bytes.Buffer
	if err := gif.Encode(&g, pi, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		b       []byte
		want    *image.NRGBA
		maxMean float64
	}{
		{"jpeg", encodeJPEG(t, img, 95), img, 4},
		{"gif", g.Bytes(), pimg, 0},
	} {
		d, _ := openOne(t, c.b)
		r, err := d.Render(0, DefaultDPI, bigLimit)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m := meanDiff(r, rasterOf(c.want)); m > c.maxMean {
			t.Errorf("%s: mean difference %.2f", c.name, m)
		}
		r.Release()
	}
	for _, f := range []string{"testdata/gopher-doc.1bpp.lossless.webp", "testdata/blue-purple-pink.lossy.webp"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, info := openOne(t, b)
		r, err := d.Render(0, DefaultDPI, bigLimit)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if r.W != info.WidthPx || r.H != info.HeightPx || d.Kind() != KindWebP {
			t.Errorf("%s: %dx%d, info %+v", f, r.W, r.H, info)
		}
		r.Release()
	}
}

func TestResolution(t *testing.T) {
	img := testImage(300, 200, 4)
	for _, c := range []struct {
		name string
		b    []byte
		dpi  float64
	}{
		{"png 300 dpi", withPHYs(encodePNG(t, img), 300), 300},
		{"png 72 dpi ignored", withPHYs(encodePNG(t, img), 72), DefaultDPI},
		{"png 5000 dpi ignored", withPHYs(encodePNG(t, img), 5000), DefaultDPI},
		{"jpeg jfif 200", withSegment(encodeJPEG(t, img, 90), 0xE0, jfif(200)), 200},
		{"tiff 600", buildTIFF(binary.LittleEndian, []tiffPageSpec{{img: img, dpi: 600}}, nil), 600},
		{"png none", encodePNG(t, img), DefaultDPI},
	} {
		d, info := openOne(t, c.b)
		if math.Abs(info.DPIX-c.dpi) > 0.1 || math.Abs(info.DPIY-c.dpi) > 0.1 {
			t.Errorf("%s: dpi %v x %v, want %v", c.name, info.DPIX, info.DPIY, c.dpi)
		}
		if want := 300 * 72 / info.DPIX; math.Abs(info.WidthPt-want) > 1e-9 {
			t.Errorf("%s: width %v pt, want %v", c.name, info.WidthPt, want)
		}
		// Rendered at 150 dpi the raster is 300*150/dpi wide.
		r, err := d.Render(0, 150, bigLimit)
		if err != nil {
			t.Fatal(err)
		}
		ww, wh := info.RenderSize(150)
		if r.W != ww || r.H != wh || math.Abs(float64(r.W)-300*150/c.dpi) > 1 {
			t.Errorf("%s: rendered %dx%d, want %dx%d", c.name, r.W, r.H, ww, wh)
		}
		r.Release()
	}
}

func TestScaledRenderKeepsContent(t *testing.T) {
	img := testImage(400, 300, 5)
	d, _ := openOne(t, withPHYs(encodePNG(t, img), 300))
	for _, dpi := range []float64{150, 100, 75, 37.5, 600} {
		r, err := d.Render(0, dpi, bigLimit)
		if err != nil {
			t.Fatal(err)
		}
		// The centre of each quadrant keeps its colour.
		for qy := range 2 {
			for qx := range 2 {
				x, y := r.W*(2*qx+1)/4, r.H*(2*qy+1)/4
				sx, sy := 400*(2*qx+1)/4, 300*(2*qy+1)/4
				want := img.NRGBAAt(sx, sy)
				p := r.Pix[y*r.Stride+3*x:]
				if abs(int(p[0])-int(want.R)) > 8 || abs(int(p[1])-int(want.G)) > 8 || abs(int(p[2])-int(want.B)) > 8 {
					t.Errorf("dpi %v quadrant %d,%d: %v, want %v", dpi, qx, qy, p[:3], want)
				}
			}
		}
		r.Release()
	}
}

// orientedWant applies EXIF orientation o to img by the definition:
// where the stored pixel (sx, sy) is displayed.
func orientedWant(img *image.NRGBA, o int) *image.NRGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	out := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for sy := range h {
		for sx := range w {
			// The stored row 0 is displayed as: 1 top, 2 top mirrored,
			// 3 bottom, 4 bottom mirrored, 5 left column, 6 right column,
			// 7 right column upwards, 8 left column upwards.
			var dx, dy int
			switch o {
			case 1:
				dx, dy = sx, sy
			case 2:
				dx, dy = w-1-sx, sy
			case 3:
				dx, dy = w-1-sx, h-1-sy
			case 4:
				dx, dy = sx, h-1-sy
			case 5:
				dx, dy = sy, sx
			case 6:
				dx, dy = h-1-sy, sx
			case 7:
				dx, dy = h-1-sy, w-1-sx
			case 8:
				dx, dy = sy, w-1-sx
			}
			out.SetNRGBA(dx, dy, img.NRGBAAt(sx, sy))
		}
	}
	return out
}

func TestOrientationTIFF(t *testing.T) {
	img := testImage(6, 4, 6)
	for o := 1; o <= 8; o++ {
		b := buildTIFF(binary.LittleEndian, []tiffPageSpec{{img: img, orientation: uint16(o)}}, nil)
		d, info := openOne(t, b)
		want := orientedWant(img, o)
		if info.WidthPx != want.Rect.Dx() || info.HeightPx != want.Rect.Dy() {
			t.Errorf("orientation %d: info %dx%d", o, info.WidthPx, info.HeightPx)
		}
		r, err := d.Render(0, DefaultDPI, bigLimit)
		if err != nil {
			t.Fatal(err)
		}
		if md := maxDiff(t, r, rasterOf(want)); md != 0 {
			t.Errorf("orientation %d: pixels differ by %d", o, md)
		}
	}
}

func TestOrientationJPEG(t *testing.T) {
	// A landscape photo stored sideways: orientation 6 turns it upright.
	img := testImage(64, 32, 7)
	for _, bo := range []order{binary.LittleEndian, binary.BigEndian} {
		b := withSegment(encodeJPEG(t, img, 95), 0xE1, exifOrientation(6, bo))
		d, info := openOne(t, b)
		if info.WidthPx != 32 || info.HeightPx != 64 {
			t.Fatalf("info %+v", info)
		}
		r, err := d.Render(0, DefaultDPI, bigLimit)
		if err != nil {
			t.Fatal(err)
		}
		if m := meanDiff(r, rasterOf(orientedWant(img, 6))); m > 4 {
			t.Errorf("mean difference %.2f after rotation", m)
		}
	}
}

func TestMultiPageTIFF(t *testing.T) {
	pages := []tiffPageSpec{{img: testImage(20, 10, 1), dpi: 300}, {img: testImage(7, 9, 2)}, {img: testImage(33, 5, 3), dpi: 200}}
	b := buildTIFF(binary.BigEndian, pages, nil)
	d, err := Open(b, bigLimit, 10)
	if err != nil {
		t.Fatal(err)
	}
	if d.NumPages() != 3 {
		t.Fatalf("%d pages", d.NumPages())
	}
	for i, p := range pages {
		info, _ := d.Page(i)
		r, err := d.Render(i, info.DPIX, bigLimit) // native size
		if err != nil {
			t.Fatal(err)
		}
		if md := maxDiff(t, r, rasterOf(p.img)); md != 0 {
			t.Errorf("page %d: pixels differ by %d", i, md)
		}
	}
	if _, err := d.Render(3, 150, bigLimit); err == nil {
		t.Error("page 4 of 3 rendered")
	}
	if _, err := Open(b, bigLimit, 2); !errors.Is(err, ErrTooManyPages) {
		t.Errorf("3 pages with a limit of 2: %v", err)
	}
	loop := buildTIFF(binary.LittleEndian, pages, func(i int, offs []uint32) uint32 { return offs[0] })
	if _, err := Open(loop, bigLimit, 100); err == nil || !strings.Contains(err.Error(), "loops") {
		t.Errorf("looping directory chain: %v", err)
	}
	outside := buildTIFF(binary.LittleEndian, pages[:1], func(int, []uint32) uint32 { return 1 << 30 })
	if _, err := Open(outside, bigLimit, 100); err == nil {
		t.Error("directory offset outside the file accepted")
	}
}

// hugePNG is a valid PNG header claiming w x h gray pixels, followed by a
// small IDAT (a few rows of zeros) and IEND.
func hugePNG(w, h uint32) []byte {
	b := []byte("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0)
	b = append(b, pngChunk("IHDR", ihdr)...)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 1<<16))
	zw.Close()
	b = append(b, pngChunk("IDAT", z.Bytes())...)
	return append(b, pngChunk("IEND", nil)...)
}

func TestTooLargeRefusedWithoutAllocating(t *testing.T) {
	for _, c := range []struct {
		name  string
		b     []byte
		limit int64
	}{
		{"100000 x 100000", hugePNG(100000, 100000), 240_000_000},
		{"above the limit", hugePNG(5000, 5000), 1_000_000},
		{"jpeg", encodeJPEG(t, testImage(300, 300, 1), 50), 80_000},
		{"tiff page 2", buildTIFF(binary.LittleEndian, []tiffPageSpec{{img: testImage(10, 10, 1)}, {img: testImage(300, 300, 1)}}, nil), 80_000},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Open(c.b, c.limit, 10)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", c.name, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%s: allocated %d bytes while refusing", c.name, grew)
		}
	}
	// Render's own limit refuses before decoding.
	d, info := openOne(t, encodePNG(t, testImage(100, 100, 1)))
	w, h := info.RenderSize(600)
	if _, err := d.Render(0, 600, int64(w*h-1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Render above its limit: %v", err)
	}
}

func TestBadFiles(t *testing.T) {
	good := encodePNG(t, testImage(20, 20, 1))
	truncated := good[:len(good)/2]
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"pdf", []byte("%PDF-1.7\n"), ErrPDF},
		{"unknown", []byte("just text"), ErrUnsupported},
		{"png header only", good[:8], nil},
		{"zero size", hugePNG(0, 10), nil},
		{"tiff header only", []byte("II*\x00\x08\x00\x00\x00"), nil},
		{"jpeg garbage", []byte("\xFF\xD8\xFF\xE0garbage"), nil},
	} {
		_, err := Open(c.b, bigLimit, 10)
		if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Header intact, data cut: Open succeeds, Render reports corruption.
	d, err := Open(truncated, bigLimit, 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Render(0, DefaultDPI, bigLimit); err == nil || !strings.Contains(err.Error(), "corrupt png") {
		t.Errorf("truncated png: %v", err)
	}
}

func TestAlphaOverWhite(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{0, 0, 0, 0})     // transparent: paper
	img.SetNRGBA(1, 0, color.NRGBA{0, 0, 255, 128}) // half blue
	d, _ := openOne(t, encodePNG(t, img))
	r, err := d.Render(0, DefaultDPI, bigLimit)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Pix[:6]; !bytes.Equal(got, []byte{255, 255, 255, 127, 127, 255}) {
		t.Fatalf("pixels %v", got)
	}
}

func TestSixteenBitPNG(t *testing.T) {
	g := image.NewGray16(image.Rect(0, 0, 5, 3))
	n := image.NewNRGBA64(image.Rect(0, 0, 5, 3))
	for i := range 15 {
		g.SetGray16(i%5, i/5, color.Gray16{Y: uint16(i * 4000)})
		n.SetNRGBA64(i%5, i/5, color.NRGBA64{R: uint16(i * 4000), G: 0xFFFF, B: 300, A: 0xFFFF})
	}
	for _, img := range []image.Image{g, n} {
		d, _ := openOne(t, encodePNG(t, img))
		r, err := d.Render(0, DefaultDPI, bigLimit)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 15 {
			c := rgbOverWhite(img.At(i%5, i/5))
			if got := r.Pix[(i/5)*r.Stride+3*(i%5):][:3]; !bytes.Equal(got, c[:]) {
				t.Errorf("%T pixel %d: %v, want %v", img, i, got, c)
			}
		}
	}
}
