package pdfout

import (
	"bytes"
	"compress/zlib"
	"image"
	"image/jpeg"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// An independent reader for the tests: regular expressions over the file
// and the standard library's zlib and JPEG decoders, sharing no code with
// the writer or Verify, so a bug in one is not mirrored in the other.

type decodedPage struct {
	mediaBox [4]float64
	content  string
	w, h     int
	colors   int
	bits     int
	filter   string
	pix      []byte      // unpredicted samples, Flate only
	jpeg     image.Image // DCT only
}

var (
	reStartxref = regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`)
	reXrefHead  = regexp.MustCompile(`^xref\n0 (\d+)\n`)
	reObjHead   = regexp.MustCompile(`^(\d+) 0 obj\n`)
	reRef       = regexp.MustCompile(`(\d+) 0 R`)
)

func mustMatch(t *testing.T, re string, s string) []string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no %s in %q", re, s)
	}
	return m
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type rawObj struct {
	dict   string
	stream []byte
}

func decodePDF(t *testing.T, data []byte) []decodedPage {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("%PDF-1.7\n%")) {
		t.Fatalf("header %q", data[:min(len(data), 16)])
	}
	if n := bytes.Count(data, []byte("%%EOF")); n != 1 {
		t.Fatalf("%d %%%%EOF markers", n)
	}
	m := reStartxref.FindSubmatch(data)
	if m == nil {
		t.Fatal("no startxref at the end")
	}
	xref := atoi(t, string(m[1]))
	xm := reXrefHead.FindSubmatch(data[xref:])
	if xm == nil {
		t.Fatalf("no xref table at %d", xref)
	}
	size := atoi(t, string(xm[1]))
	entries := data[xref+len(xm[0]):]
	offsets := make([]int, size)
	for i := range size {
		e := string(entries[20*i : 20*i+20])
		offsets[i] = atoi(t, e[:10])
		if i > 0 && e[10:] != " 00000 n \n" {
			t.Fatalf("xref entry %d: %q", i, e)
		}
	}
	obj := func(n int) rawObj {
		t.Helper()
		if n <= 0 || n >= size {
			t.Fatalf("object %d outside xref", n)
		}
		b := data[offsets[n]:]
		h := reObjHead.FindSubmatch(b)
		if h == nil || atoi(t, string(h[1])) != n {
			t.Fatalf("object %d: xref offset %d points at %q", n, offsets[n], b[:min(20, len(b))])
		}
		b = b[len(h[0]):]
		end := bytes.Index(b, []byte("\nendobj\n"))
		st := bytes.Index(b, []byte("\nstream\n"))
		if st < 0 || st > end {
			return rawObj{dict: string(b[:end])}
		}
		dict := string(b[:st])
		ln := atoi(t, mustMatch(t, `/Length (\d+)`, dict)[1])
		body := b[st+len("\nstream\n"):]
		if !bytes.HasPrefix(body[ln:], []byte("\nendstream\nendobj\n")) {
			t.Fatalf("object %d: stream not followed by endstream", n)
		}
		return rawObj{dict: dict, stream: body[:ln]}
	}
	trailer := string(data[bytes.LastIndex(data, []byte("trailer\n")):])
	if strings.Contains(trailer, "/Info") || strings.Contains(trailer, "/ID") {
		t.Fatalf("trailer leaks: %q", trailer)
	}
	root := atoi(t, mustMatch(t, `/Root (\d+) 0 R`, trailer)[1])
	cat := obj(root).dict
	if !strings.Contains(cat, "/Type /Catalog") {
		t.Fatalf("root %q", cat)
	}
	pages := obj(atoi(t, mustMatch(t, `/Pages (\d+) 0 R`, cat)[1])).dict
	kids := reRef.FindAllStringSubmatch(mustMatch(t, `/Kids \[([^\]]*)\]`, pages)[1], -1)
	if c := atoi(t, mustMatch(t, `/Count (\d+)`, pages)[1]); c != len(kids) {
		t.Fatalf("/Count %d, %d kids", c, len(kids))
	}
	var out []decodedPage
	for _, k := range kids {
		pg := obj(atoi(t, k[1])).dict
		var dp decodedPage
		for i, f := range strings.Fields(mustMatch(t, `/MediaBox \[([^\]]*)\]`, pg)[1]) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			dp.mediaBox[i] = v
		}
		dp.content = string(obj(atoi(t, mustMatch(t, `/Contents (\d+) 0 R`, pg)[1])).stream)
		im := obj(atoi(t, mustMatch(t, `/Im0 (\d+) 0 R`, pg)[1]))
		dp.w = atoi(t, mustMatch(t, `/Width (\d+)`, im.dict)[1])
		dp.h = atoi(t, mustMatch(t, `/Height (\d+)`, im.dict)[1])
		dp.colors = map[string]int{"DeviceGray": 1, "DeviceRGB": 3}[mustMatch(t, `/ColorSpace /(\w+)`, im.dict)[1]]
		dp.filter = mustMatch(t, `/Filter /(\w+)`, im.dict)[1]
		dp.bits = atoi(t, mustMatch(t, `/BitsPerComponent (\d+)`, im.dict)[1])
		switch dp.filter {
		case "FlateDecode":
			if mustMatch(t, `/Predictor (\d+)`, im.dict)[1] != "15" ||
				atoi(t, mustMatch(t, `/DecodeParms <<.*/BitsPerComponent (\d+)`, im.dict)[1]) != dp.bits ||
				atoi(t, mustMatch(t, `/Columns (\d+)`, im.dict)[1]) != dp.w ||
				atoi(t, mustMatch(t, `/Colors (\d+)`, im.dict)[1]) != dp.colors {
				t.Fatalf("decode parameters %q", im.dict)
			}
			zr, err := zlib.NewReader(bytes.NewReader(im.stream))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			dp.pix = unpredict(t, raw, dp.w, dp.h, dp.colors, dp.bits)
		case "DCTDecode":
			img, err := jpeg.Decode(bytes.NewReader(im.stream))
			if err != nil {
				t.Fatal(err)
			}
			dp.jpeg = img
		default:
			t.Fatalf("filter %s", dp.filter)
		}
		out = append(out, dp)
	}
	return out
}

// unpredict reverses PNG row filters (PNG specification, section 9) and
// returns 8-bit samples (4-bit samples v become v*17).
func unpredict(t *testing.T, raw []byte, w, h, colors, bits int) []byte {
	t.Helper()
	rowLen := (w*colors*bits + 7) / 8
	bpp := max(1, (colors*bits+7)/8)
	if len(raw) != h*(rowLen+1) {
		t.Fatalf("inflated %d bytes, want %d", len(raw), h*(rowLen+1))
	}
	out := make([]byte, h*rowLen)
	prev := make([]byte, rowLen)
	for y := range h {
		typ, f := raw[y*(rowLen+1)], raw[y*(rowLen+1)+1:(y+1)*(rowLen+1)]
		cur := out[y*rowLen : (y+1)*rowLen]
		for i := range f {
			var a, c int
			if i >= bpp {
				a, c = int(cur[i-bpp]), int(prev[i-bpp])
			}
			b := int(prev[i])
			var pred int
			switch typ {
			case 0:
			case 1:
				pred = a
			case 2:
				pred = b
			case 3:
				pred = (a + b) / 2
			case 4:
				p := a + b - c
				pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
				switch {
				case pa <= pb && pa <= pc:
					pred = a
				case pb <= pc:
					pred = b
				default:
					pred = c
				}
			default:
				t.Fatalf("row %d: filter type %d", y, typ)
			}
			cur[i] = f[i] + byte(pred)
		}
		prev = cur
	}
	if bits == 8 {
		return out
	}
	samples := make([]byte, 0, w*h*colors)
	for y := range h {
		row := out[y*rowLen : (y+1)*rowLen]
		for i := range w * colors {
			samples = append(samples, (row[i/2]>>(4*(1-i%2))&15)*17)
		}
	}
	return samples
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
