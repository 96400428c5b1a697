package pdfout

import (
	"bytes"
	stdzlib "compress/zlib"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zlib"
)

// zlibRef is what encodeFlate wrote before zlibWriter: klauspost's zlib
// writer at BestSpeed, hash/adler32 inside.
func zlibRef(t *testing.T, chunks [][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := zlib.NewWriterLevel(&b, zlib.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if _, err := zw.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zlibOurs(t *testing.T, zw *zlibWriter, chunks [][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := zw.reset(&b); err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if err := zw.write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestZlibWriterMatchesZlib: the page streams are the bytes klauspost's
// zlib writer wrote, so outputs did not change when zlibWriter (and
// kernels.Adler32) replaced it. Each page's stream is inflated to the
// rows encodeFlate wrote, which are compressed again by both writers, row
// by row; one zlibWriter is reused throughout, as the pool reuses it.
func TestZlibWriterMatchesZlib(t *testing.T) {
	var zw zlibWriter
	rng := rand.New(rand.NewPCG(45, 1))
	for _, n := range []int{0, 1, 31, 32, 33, 65535, 65536, 200000} {
		p := make([]byte, n)
		for i := range p {
			if rng.IntN(3) == 0 {
				p[i] = byte(rng.Uint32())
			} else {
				p[i] = 255
			}
		}
		chunks := [][]byte{p[:n/3], p[n/3 : n/2], p[n/2:]}
		if got, want := zlibOurs(t, &zw, chunks), zlibRef(t, chunks); !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: %d bytes of zlib, want %d (first difference at %s)", n, len(got), len(want), firstDiff(got, want))
		}
	}
	pages := append(testPages(t), testPage{name: "gray text 150 dpi",
		r: toRaster(textPage(t, 1275, 1650, 150, false, 3), 1, 0)})
	for _, tp := range pages {
		for _, bits := range []int{4, 8} {
			e, err := Encode(tp.r, 612, 792, Options{TextBits: bits})
			if err != nil {
				t.Fatal(err)
			}
			if e.encoding != EncodingFlate {
				e.Release()
				continue
			}
			got := bytes.Clone(e.data.Bytes())
			e.Release()
			zr, err := stdzlib.NewReader(bytes.NewReader(got))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := io.ReadAll(zr) // checks the Adler-32 too
			if err != nil {
				t.Fatalf("%s, %d bits: %v", tp.name, bits, err)
			}
			rowLen := len(raw) / tp.r.H
			var rows [][]byte
			for y := range tp.r.H {
				rows = append(rows, raw[y*rowLen:(y+1)*rowLen])
			}
			if want := zlibRef(t, rows); !bytes.Equal(got, want) {
				t.Fatalf("%s, %d bits: %d bytes of zlib, want %d (first difference at %s)", tp.name, bits, len(got), len(want), firstDiff(got, want))
			}
			t.Logf("%s, %d bits: %d bytes, same", tp.name, bits, len(got))
		}
	}
}

func firstDiff(a, b []byte) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprint(i)
		}
	}
	return fmt.Sprint(min(len(a), len(b)))
}
