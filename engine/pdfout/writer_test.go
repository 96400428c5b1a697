package pdfout

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/kernels"
)

type testPage struct {
	name       string
	r          *page.Raster
	wPt, hPt   float64
	wantGray   bool
	wantFilter string // "" accepts either
}

func testPages(t *testing.T) []testPage {
	text := textPage(t, 425, 550, 50, false, 1) // 8.5x11 in at 50 dpi
	colour := textPage(t, 425, 550, 50, true, 2)
	return []testPage{
		{"gray text rgb", toRaster(text, 3, 0), 612, 792, true, "FlateDecode"},
		{"gray text 1ch padded", toRaster(text, 1, 5), 612, 792, true, "FlateDecode"},
		{"colour text", toRaster(colour, 3, 7), 612, 792, false, "FlateDecode"},
		{"photo", photoRaster(300, 200, 3), 216, 144, false, "DCTDecode"},
		{"noise rgb", noiseRaster(64, 48, 3, 4), 100.5, 75.25, false, ""},
		{"noise gray", noiseRaster(33, 17, 1, 5), 10, 20.125, true, ""},
		{"one pixel", &page.Raster{W: 1, H: 1, Channels: 3, Stride: 3, Pix: []byte{10, 20, 30}}, 1, 1, false, "FlateDecode"},
	}
}

// wantPixels is what a Flate page must decode to: the raster's samples,
// reduced to one channel when the page was written as gray.
func wantPixels(r *page.Raster, gray bool) []byte {
	ch := r.Channels
	if gray {
		ch = 1
	}
	out := make([]byte, 0, r.W*r.H*ch)
	for y := range r.H {
		row := r.Pix[y*r.Stride : y*r.Stride+r.W*r.Channels]
		if gray && r.Channels == 3 {
			for x := range r.W {
				// Gray pages here are exactly gray, so any channel is the value.
				out = append(out, row[3*x+1])
			}
			continue
		}
		out = append(out, row...)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	pages := testPages(t)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Options{JPEGQuality: 90, TextBits: 8})
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, p := range pages {
		st, err := w.AddPage(p.r, p.wPt, p.hPt)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		t.Logf("%-22s %4dx%-4d %-5s gray=%-5v %7d bytes", p.name, p.r.W, p.r.H, st.Encoding, st.Gray, st.Bytes)
		if st.Gray != p.wantGray {
			t.Errorf("%s: gray %v, want %v", p.name, st.Gray, p.wantGray)
		}
		total += st.Bytes
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if int64(buf.Len()) <= total {
		t.Fatalf("file %d bytes, pages alone %d", buf.Len(), total)
	}
	if err := Verify(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
		t.Fatalf("Verify rejects our own output: %v", err)
	}
	got := decodePDF(t, buf.Bytes())
	if len(got) != len(pages) {
		t.Fatalf("%d pages, want %d", len(got), len(pages))
	}
	for i, p := range pages {
		g := got[i]
		if g.mediaBox != [4]float64{0, 0, p.wPt, p.hPt} {
			t.Errorf("%s: MediaBox %v, want %vx%v", p.name, g.mediaBox, p.wPt, p.hPt)
		}
		wantContent := fmt.Sprintf("q %s 0 0 %s 0 0 cm /Im0 Do Q", fmtNum(p.wPt), fmtNum(p.hPt))
		if g.content != wantContent {
			t.Errorf("%s: content %q, want %q", p.name, g.content, wantContent)
		}
		if g.w != p.r.W || g.h != p.r.H {
			t.Errorf("%s: image %dx%d, want %dx%d", p.name, g.w, g.h, p.r.W, p.r.H)
		}
		if (g.colors == 1) != p.wantGray {
			t.Errorf("%s: %d colours", p.name, g.colors)
		}
		if p.wantFilter != "" && g.filter != p.wantFilter {
			t.Errorf("%s: filter %s, want %s", p.name, g.filter, p.wantFilter)
		}
		switch g.filter {
		case "FlateDecode":
			if !bytes.Equal(g.pix, wantPixels(p.r, p.wantGray)) {
				t.Errorf("%s: decoded pixels differ from the raster", p.name)
			}
		case "DCTDecode":
			if psnr := jpegPSNR(g, p.r); psnr < 30 {
				t.Errorf("%s: JPEG PSNR %.1f dB", p.name, psnr)
			}
		}
	}
}

func fmtNum(v float64) string { return string(formatPt(nil, v)) }

// jpegPSNR compares a decoded JPEG page with the raster.
func jpegPSNR(g decodedPage, r *page.Raster) float64 {
	var se float64
	n := 0
	for y := range r.H {
		for x := range r.W {
			cr, cg, cb, _ := g.jpeg.At(x, y).RGBA()
			got := []uint32{cr >> 8, cg >> 8, cb >> 8}
			for c := range r.Channels {
				d := float64(got[c]) - float64(r.Pix[y*r.Stride+x*r.Channels+c])
				se += d * d
				n++
			}
		}
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(n)))
}

func TestNearGrayBecomesGray(t *testing.T) {
	// Colour noise within grayTolerance (a scan of a black and white page)
	// is written as gray, converted with BT.601 weights.
	r := toRaster(textPage(t, 200, 100, 30, false, 9), 3, 0)
	for i := 0; i+2 < len(r.Pix); i += 3 {
		r.Pix[i] = byte(max(0, int(r.Pix[i])-grayTolerance))
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Options{TextBits: 8})
	st, err := w.AddPage(r, 200, 100)
	if err != nil || !st.Gray {
		t.Fatalf("stats %+v, err %v", st, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	g := decodePDF(t, buf.Bytes())[0]
	for i := range r.W * r.H {
		p := r.Pix[3*i : 3*i+3]
		want := byte((19595*int(p[0]) + 38470*int(p[1]) + 7471*int(p[2]) + 1<<15) >> 16)
		if g.pix[i] != want {
			t.Fatalf("pixel %d = %d, want %d", i, g.pix[i], want)
		}
	}
}

func TestBadInput(t *testing.T) {
	good := &page.Raster{W: 2, H: 2, Channels: 3, Stride: 6, Pix: make([]byte, 12)}
	for _, c := range []struct {
		name     string
		r        *page.Raster
		wPt, hPt float64
		want     string
	}{
		{"nil", nil, 1, 1, "nil raster"},
		{"channels", &page.Raster{W: 2, H: 2, Channels: 4, Stride: 8, Pix: make([]byte, 16)}, 1, 1, "channels"},
		{"empty", &page.Raster{W: 0, H: 2, Channels: 3}, 1, 1, "empty"},
		{"stride", &page.Raster{W: 2, H: 2, Channels: 3, Stride: 5, Pix: make([]byte, 16)}, 1, 1, "stride"},
		{"short", &page.Raster{W: 2, H: 2, Channels: 3, Stride: 6, Pix: make([]byte, 11)}, 1, 1, "too small"},
		{"zero size", good, 0, 1, "page size"},
		{"NaN", good, math.NaN(), 1, "page size"},
		{"inf", good, 1, math.Inf(1), "page size"},
	} {
		w, _ := NewWriter(new(bytes.Buffer), Options{})
		if _, err := w.AddPage(c.r, c.wPt, c.hPt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := NewWriter(new(bytes.Buffer), Options{JPEGQuality: 101}); err == nil {
		t.Error("quality 101 accepted")
	}
	if _, err := NewWriter(new(bytes.Buffer), Options{TextBits: 2}); err == nil {
		t.Error("2 text bits accepted")
	}
	w, _ := NewWriter(new(bytes.Buffer), Options{})
	if err := w.Close(); !errors.Is(err, ErrNoPages) {
		t.Errorf("Close without pages: %v", err)
	}
	if _, err := w.AddPage(good, 1, 1); err == nil {
		t.Error("AddPage after Close accepted")
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		n := f.n
		f.n = 0
		return n, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteErrorSticks(t *testing.T) {
	r := noiseRaster(300, 300, 3, 1) // larger than the write buffer
	w, err := NewWriter(&failWriter{n: 100}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddPage(r, 10, 10); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("AddPage: %v", err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Close: %v", err)
	}
}

func TestEncodeInParallel(t *testing.T) {
	// Encode on goroutines, write in order: same bytes as AddPage.
	pages := testPages(t)
	var serial, parallel bytes.Buffer
	ws, _ := NewWriter(&serial, Options{})
	for _, p := range pages {
		if _, err := ws.AddPage(p.r, p.wPt, p.hPt); err != nil {
			t.Fatal(err)
		}
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	encoded := make([]chan *EncodedPage, len(pages))
	for i, p := range pages {
		encoded[i] = make(chan *EncodedPage, 1)
		go func() {
			e, err := Encode(p.r, p.wPt, p.hPt, Options{})
			if err != nil {
				t.Error(err)
			}
			encoded[i] <- e
		}()
	}
	wp, _ := NewWriter(&parallel, Options{})
	for _, ch := range encoded {
		e := <-ch
		if e == nil {
			t.FailNow()
		}
		if _, err := wp.WriteEncoded(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := wp.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(serial.Bytes(), parallel.Bytes()) {
		t.Fatal("parallel encoding changed the output")
	}
}

// TestTextBits4 checks the default 4-bit text pages: each sample must come
// back as the nearest of 16 levels, and the page must shrink.
func TestTextBits4(t *testing.T) {
	for _, colored := range []bool{false, true} {
		r := toRaster(textPage(t, 425, 550, 50, colored, 3), 3, 2)
		var sizes [2]int64
		for i, bits := range []int{4, 8} {
			var buf bytes.Buffer
			w, _ := NewWriter(&buf, Options{TextBits: bits})
			st, err := w.AddPage(r, 612, 792)
			if err != nil {
				t.Fatal(err)
			}
			if st.Bits != bits || st.Encoding != EncodingFlate || st.Gray == colored {
				t.Fatalf("bits %d: stats %+v", bits, st)
			}
			sizes[i] = st.Bytes
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := Verify(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
				t.Fatal(err)
			}
			g := decodePDF(t, buf.Bytes())[0]
			if g.bits != bits {
				t.Fatalf("decoded %d bits, want %d", g.bits, bits)
			}
			want := wantPixels(r, !colored)
			for j, v := range want {
				if bits == 4 {
					v = byte((int(v)*15+127)/255) * 17
				}
				if g.pix[j] != v {
					t.Fatalf("colored=%v bits %d: sample %d = %d, want %d", colored, bits, j, g.pix[j], v)
				}
			}
		}
		t.Logf("colored=%v: 4 bits %d bytes, 8 bits %d bytes", colored, sizes[0], sizes[1])
		if sizes[0] >= sizes[1] {
			t.Errorf("colored=%v: 4-bit page %d bytes, 8-bit %d", colored, sizes[0], sizes[1])
		}
	}
}

// TestMidPageKeepsSmaller: a page between text-like and photographic is
// encoded both ways and the smaller stream kept.
func TestMidPageKeepsSmaller(t *testing.T) {
	text := toRaster(textPage(t, 400, 400, 50, true, 4), 3, 0)
	photo := photoRaster(400, 400, 5)
	// The top fifth of the page is a photo, the rest text.
	copy(text.Pix[:80*text.Stride], photo.Pix[:80*photo.Stride])
	score := kernels.PhotoScore(text.Pix, text.W, text.H, text.Stride, 3)
	if score < photoLow || score >= photoHigh {
		t.Fatalf("test page scores %.3f, want a middle score", score)
	}
	e, err := Encode(text, 100, 100, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Release()
	s := new(scratch)
	var fl, jp bytes.Buffer
	if err := encodeFlate(&fl, text, false, 8, false, s); err != nil {
		t.Fatal(err)
	}
	if err := encodeJPEG(&jp, text, false, DefaultJPEGQuality, s); err != nil {
		t.Fatal(err)
	}
	want, wantEnc := fl.Len(), EncodingFlate
	if jp.Len() < fl.Len() {
		want, wantEnc = jp.Len(), EncodingJPEG
	}
	t.Logf("score %.3f: flate %d, jpeg %d, chose %s", score, fl.Len(), jp.Len(), e.encoding)
	if e.Size() != want || e.encoding != wantEnc || e.bits != 8 {
		t.Fatalf("chose %s %d bytes (%d bits), want %s %d", e.encoding, e.Size(), e.bits, wantEnc, want)
	}
}
