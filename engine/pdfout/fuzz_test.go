package pdfout

import (
	"bytes"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// FuzzWriter: any raster the writer accepts must come out as a file that
// Verify accepts and that decodes to the right number of pages.
func FuzzWriter(f *testing.F) {
	f.Add(uint16(1), uint16(1), uint8(3), uint8(0), uint8(0), []byte{1, 2, 3})
	f.Add(uint16(40), uint16(30), uint8(1), uint8(85), uint8(4), []byte("gradient"))
	f.Add(uint16(17), uint16(64), uint8(3), uint8(10), uint8(8), []byte{0, 255, 0, 255})
	f.Fuzz(func(t *testing.T, w, h uint16, channels, quality, bits uint8, seed []byte) {
		rw, rh := int(w%257)+1, int(h%257)+1
		ch := 1 + 2*int(channels%2)
		r := page.NewRaster(rw, rh, ch)
		defer r.Release()
		// Fill from the seed: repeated, so both flat and noisy pages occur.
		for i := range r.Pix {
			if len(seed) == 0 {
				r.Pix[i] = 255
			} else {
				r.Pix[i] = seed[i%len(seed)] + byte(i/len(seed)*int(quality%3))
			}
		}
		opts := Options{JPEGQuality: int(quality) % 101, TextBits: []int{0, 4, 8}[int(bits)%3]}
		var buf bytes.Buffer
		pw, err := NewWriter(&buf, opts)
		if err != nil {
			t.Fatal(err)
		}
		pages := 1 + int(bits)%2
		for range pages {
			if _, err := pw.AddPage(r, float64(rw)*0.75, float64(rh)*0.75); err != nil {
				t.Fatal(err)
			}
		}
		if err := pw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := Verify(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
			t.Fatalf("%dx%dx%d: %v", rw, rh, ch, err)
		}
		if n := bytes.Count(buf.Bytes(), []byte("/Type /Page ")); n != pages {
			t.Fatalf("%d pages, want %d", n, pages)
		}
	})
}

// FuzzVerify: arbitrary bytes never panic Verify, and whatever it accepts
// really is clean.
func FuzzVerify(f *testing.F) {
	f.Add(buildPDF(goodObjs(), ""))
	f.Add(buildPDF(goodObjs(), " /Info 1 0 R"))
	f.Add([]byte(Header + "1 0 obj\n<< /A [[[[[[[[[[1]]]]]]]]]] >>\nendobj\n"))
	f.Add([]byte("%PDF-1.7\n%\xE2\xE3\xCF\xD3\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 /Root 1 0 R >>\nstartxref\n15\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		err := Verify(bytes.NewReader(b), int64(len(b)))
		if err == nil {
			// Anything accepted must at least have no forbidden words
			// outside stream data; check the obvious ones on the whole
			// file, which over-approximates.
			for _, bad := range []string{"/Font", "/Info", "/JS", "/Annots", "BT", "(", "%%EOF\n%%EOF"} {
				if i := bytes.Index(b, []byte(bad)); i >= 0 && !inStream(b, i) {
					t.Fatalf("accepted a file with %q at %d", bad, i)
				}
			}
		}
	})
}

// inStream reports whether offset i lies between "stream" and "endstream".
func inStream(b []byte, i int) bool {
	s := bytes.LastIndex(b[:i], []byte("stream\n"))
	e := bytes.LastIndex(b[:i], []byte("endstream"))
	return s >= 0 && s > e
}
