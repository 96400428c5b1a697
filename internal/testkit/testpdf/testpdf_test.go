package testpdf

import (
	"bytes"
	"image"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

func TestWinAnsi(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		b    byte
		ok   bool
		wdth int
	}{
		{'A', 'A', true, 667},
		{' ', ' ', true, 278},
		{'i', 'i', true, 222},
		{'€', 0x80, true, 556},
		{'—', 0x97, true, 1000},
		{'é', 0xE9, true, 556},
		{'ß', 0xDF, true, 611},
		{'中', 0, false, 0},
		{'\n', 0, false, 0},
	} {
		b, ok := WinAnsi(tc.r)
		if b != tc.b || ok != tc.ok {
			t.Errorf("WinAnsi(%q) = %#x, %v; want %#x, %v", tc.r, b, ok, tc.b, tc.ok)
		}
		if w := RuneWidth(tc.r); w != tc.wdth {
			t.Errorf("RuneWidth(%q) = %d, want %d", tc.r, w, tc.wdth)
		}
	}
	// "Hello" = H 722 + e 556 + l 222 + l 222 + o 556 = 2278/1000 em.
	if w := StringWidth("Hello", 10); math.Abs(w-22.78) > 1e-9 {
		t.Errorf("StringWidth(Hello, 10) = %v, want 22.78", w)
	}
}

func TestEncodePanicsOnUnsupportedRune(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a rune outside WinAnsi")
		}
	}()
	New().AddPage(100, 100, 0).Text(0, 0, 10, "日本")
}

func TestToDisplay(t *testing.T) {
	// The MediaBox corner at user-space origin (bottom-left) and the
	// opposite one, per rotation, as a viewer shows the page turned
	// clockwise.
	for _, tc := range []struct {
		rot          int
		origin, far  page.Point
		dispW, dispH float64
	}{
		{0, page.Point{X: 0, Y: 200}, page.Point{X: 300, Y: 0}, 300, 200},
		{90, page.Point{X: 0, Y: 0}, page.Point{X: 200, Y: 300}, 200, 300},
		{180, page.Point{X: 300, Y: 0}, page.Point{X: 0, Y: 200}, 300, 200},
		{270, page.Point{X: 200, Y: 300}, page.Point{X: 0, Y: 0}, 200, 300},
	} {
		p := New().AddPage(300, 200, tc.rot)
		if got := p.ToDisplay(0, 0); got != tc.origin {
			t.Errorf("rotate %d: origin -> %v, want %v", tc.rot, got, tc.origin)
		}
		if got := p.ToDisplay(300, 200); got != tc.far {
			t.Errorf("rotate %d: far corner -> %v, want %v", tc.rot, got, tc.far)
		}
		if w, h := p.DisplaySize(); w != tc.dispW || h != tc.dispH {
			t.Errorf("rotate %d: display size %vx%v, want %vx%v", tc.rot, w, h, tc.dispW, tc.dispH)
		}
	}
}

func TestWordBoxes(t *testing.T) {
	p := New().AddPage(300, 200, 0)
	p.Text(10, 100, 10, "ab  cd")
	ws := p.Words()
	if len(ws) != 2 || ws[0].Text != "ab" || ws[1].Text != "cd" {
		t.Fatalf("words %+v", ws)
	}
	// "cd" starts after "ab" and two spaces: (556+556+2*278)/100 = 16.68.
	want := page.Rect{X0: 10 + 16.68, Y0: 100 - 7.18, X1: 10 + 16.68 + 10.56, Y1: 100 + 2.07}
	got := ws[1].Quad.Bounds()
	for _, d := range []float64{got.X0 - want.X0, got.Y0 - want.Y0, got.X1 - want.X1, got.Y1 - want.Y1} {
		if math.Abs(d) > 1e-9 {
			t.Fatalf("box of cd %v, want %v", got, want)
		}
	}
	if ws[0].Source != page.SourceTextLayer {
		t.Errorf("source %v", ws[0].Source)
	}

	// Rotated 90° counter-clockwise: the word runs up the page, so in
	// display space (y down) from bottom to top.
	p.TextRotated(50, 20, 10, 90, "up")
	q := p.Words()[2].Quad
	if !(q.UR.Y < q.UL.Y) || math.Abs(q.UR.X-q.UL.X) > 1e-9 {
		t.Errorf("rotated quad %+v does not run upwards", q)
	}
}

// TestFileStructure checks the cross-reference table: every offset points
// at its object, startxref at the table.
func TestFileStructure(t *testing.T) {
	d := New()
	p := d.AddPage(300, 200, 90)
	p.Text(10, 10, 12, "Hello")
	p.TextField("f", [4]float64{10, 50, 100, 70}, "value")
	p.FreeTextAnnot([4]float64{10, 80, 100, 100}, "note")
	p.Image(100, 100, 50, 50, image.NewRGBA(image.Rect(0, 0, 4, 4)))
	d.AddPage(100, 100, 0)
	for _, enc := range []bool{false, true} {
		if enc {
			d.Encrypt("u", "o")
		}
		b := d.Bytes()
		if !bytes.HasPrefix(b, []byte("%PDF-1.7\n")) || !bytes.HasSuffix(b, []byte("%%EOF\n")) {
			t.Fatal("bad header or trailer")
		}
		m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(b)
		if m == nil {
			t.Fatal("no startxref")
		}
		xref, _ := strconv.Atoi(string(m[1]))
		if !bytes.HasPrefix(b[xref:], []byte("xref\n0 ")) {
			t.Fatalf("startxref %d does not point at the xref table", xref)
		}
		entries := regexp.MustCompile(`(\d{10}) 00000 n\r\n`).FindAllSubmatch(b[xref:], -1)
		if len(entries) < 10 {
			t.Fatalf("only %d xref entries", len(entries))
		}
		for i, e := range entries {
			off, _ := strconv.Atoi(string(e[1]))
			if want := strconv.Itoa(i+1) + " 0 obj\n"; !bytes.HasPrefix(b[off:], []byte(want)) {
				t.Errorf("xref entry %d points at %q", i+1, b[off:off+10])
			}
		}
		if got := bytes.Contains(b, []byte("/Encrypt")); got != enc {
			t.Errorf("encrypted=%v but /Encrypt present=%v", enc, got)
		}
		// Encryption hides the content stream's text.
		if got := bytes.Contains(b, []byte("BT /F1")); got == enc {
			t.Errorf("encrypted=%v but content in the clear=%v", enc, got)
		}
	}
}

func TestEncryptionKey(t *testing.T) {
	e := newEncryption("user", "owner", docID)
	// Algorithm 6: the user password checks out when RC4 of the padding
	// under the key derived from it equals U.
	if got := rc4Crypt(e.key, passwordPad); !bytes.Equal(got, e.u) {
		t.Error("U does not authenticate the user password")
	}
	// Algorithm 7: the owner password decrypts O to the padded user password.
	ok := md5Sum(pad("owner"))
	if got := rc4Crypt(ok[:5], e.o); !bytes.Equal(got, pad("user")) {
		t.Error("O does not yield the user password")
	}
	data := []byte("stream data")
	if enc := e.crypt(7, data); bytes.Equal(enc, data) || !bytes.Equal(e.crypt(7, enc), data) || bytes.Equal(e.crypt(8, data), enc) {
		t.Error("per-object RC4 is not a keyed involution")
	}
}
