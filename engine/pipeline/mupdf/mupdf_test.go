package mupdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/hostile"
	"github.com/redactd/redactd/internal/testkit/testpdf"

	"github.com/redactd/redactd/internal/shareddata"
)

const maxPix = 100_000_000

func openDoc(t testing.TB, b []byte, opts Options) *Document {
	t.Helper()
	d, err := Open(b, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func loadPage(t testing.TB, d *Document, i int) *Page {
	t.Helper()
	p, err := d.LoadPage(context.Background(), i)
	if err != nil {
		t.Fatalf("LoadPage(%d): %v", i, err)
	}
	t.Cleanup(p.Close)
	return p
}

func render(t testing.TB, p *Page, dpi float64) *page.Raster {
	t.Helper()
	r, err := p.Render(context.Background(), dpi, maxPix)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	t.Cleanup(r.Release)
	return r
}

// drawAndClose loads page i, renders it at dpi and releases both at once
// (loadPage and render release theirs when the test ends).
func drawAndClose(t testing.TB, d *Document, i int, dpi float64) {
	t.Helper()
	p, err := d.LoadPage(context.Background(), i)
	if err != nil {
		t.Fatalf("LoadPage(%d): %v", i, err)
	}
	r, err := p.Render(context.Background(), dpi, maxPix)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	r.Release()
	p.Close()
}

// frame projects a quad's corners onto the text direction u and the
// downward normal n of ref, returning the extents along each.
func frame(ref, q page.Quad) (u0, u1, n0, n1 float64) {
	ux, uy := ref.UR.X-ref.UL.X, ref.UR.Y-ref.UL.Y
	l := math.Hypot(ux, uy)
	ux, uy = ux/l, uy/l
	nx, ny := -uy, ux // rotate u by +90° (y down): points from top to bottom of the text
	if (ref.LL.X-ref.UL.X)*nx+(ref.LL.Y-ref.UL.Y)*ny < 0 {
		nx, ny = -nx, -ny
	}
	u0, n0 = math.Inf(1), math.Inf(1)
	u1, n1 = math.Inf(-1), math.Inf(-1)
	for _, p := range [...]page.Point{q.UL, q.UR, q.LL, q.LR} {
		u := p.X*ux + p.Y*uy
		n := p.X*nx + p.Y*ny
		u0, u1, n0, n1 = min(u0, u), max(u1, u), min(n0, n), max(n1, n)
	}
	return
}

// checkQuad asserts got matches want: along the text the edges agree
// within 1pt (both come from Helvetica's advance widths); across it MuPDF
// uses its font's own ascender and descender, so got must cover want
// (AFM ascender to descender) and be at most 1.7 times as tall.
func checkQuad(t *testing.T, what string, want, got page.Quad) {
	t.Helper()
	wu0, wu1, wn0, wn1 := frame(want, want)
	gu0, gu1, gn0, gn1 := frame(want, got)
	if math.Abs(gu0-wu0) > 1 || math.Abs(gu1-wu1) > 1 {
		t.Errorf("%s: along text got [%.2f %.2f], want [%.2f %.2f] (got %v, want %v)", what, gu0, gu1, wu0, wu1, got, want)
	}
	if gn0 > wn0+1 || gn1 < wn1-1 || gn1-gn0 > 1.7*(wn1-wn0) {
		t.Errorf("%s: across text got [%.2f %.2f], want cover of [%.2f %.2f] (got %v, want %v)", what, gn0, gn1, wn0, wn1, got, want)
	}
}

// matchWords pairs each wanted word with the first unused extracted word
// of the same text and source and checks its geometry.
func matchWords(t *testing.T, want []testpdf.Word, got []page.Word) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, g := range got {
			if used[i] || g.Text != w.Text || g.Source != w.Source {
				continue
			}
			used[i], found = true, true
			checkQuad(t, fmt.Sprintf("word %q", w.Text), w.Quad, g.Quad)
			if n := len([]rune(g.Text)); len(g.Chars) != n {
				t.Errorf("word %q: %d char quads for %d runes", g.Text, len(g.Chars), n)
			} else {
				checkQuad(t, fmt.Sprintf("word %q chars", w.Text), w.Quad,
					page.Quad{UL: g.Chars[0].UL, LL: g.Chars[0].LL, UR: g.Chars[n-1].UR, LR: g.Chars[n-1].LR})
			}
			if g.Conf != 1 {
				t.Errorf("word %q: Conf %v, want 1", g.Text, g.Conf)
			}
			break
		}
		if !found {
			t.Errorf("word %q (%v) not extracted; got %v", w.Text, w.Source, texts(got))
		}
	}
	for i, g := range got {
		if !used[i] {
			t.Errorf("unexpected word %q (%v)", g.Text, g.Source)
		}
	}
}

func texts(ws []page.Word) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Text+"/"+w.Source.String())
	}
	return out
}

// ink is the fraction of pixels of box (points) that are clearly not
// white in r.
func ink(r *page.Raster, box page.Rect, dpi float64) float64 {
	x0, y0, x1, y1 := page.PixelRect(box, dpi, r.W, r.H)
	n, dark := 0, 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			o := y*r.Stride + r.Channels*x
			if min(r.Pix[o], r.Pix[o+r.Channels/2], r.Pix[o+r.Channels-1]) < 160 {
				dark++
			}
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(dark) / float64(n)
}

func TestWordsAndRotation(t *testing.T) {
	for _, rot := range []int{0, 90, 180, 270} {
		t.Run(fmt.Sprint("rotate", rot), func(t *testing.T) {
			d := testpdf.New()
			tp := d.AddPage(400, 300, rot)
			tp.Text(40, 250, 12, "Jane Doe lives here")
			tp.Text(40, 220, 9, "Phone +44 20 7946 0958")
			tp.TextRotated(200, 60, 11, 30, "Tilted line text")
			tp.TextRotated(360, 40, 10, 90, "Vertical")
			tp.TextRotated(60, 150, 10, -45, "Down slope")
			doc := openDoc(t, d.Bytes(), Options{})
			if doc.NumPages() != 1 {
				t.Fatalf("NumPages = %d, want 1", doc.NumPages())
			}
			p := loadPage(t, doc, 0)
			ww, wh := tp.DisplaySize()
			if math.Abs(p.Width()-ww) > 0.01 || math.Abs(p.Height()-wh) > 0.01 {
				t.Fatalf("size %vx%v, want %vx%v", p.Width(), p.Height(), ww, wh)
			}
			matchWords(t, tp.Words(), p.Words())

			// Words of one Text call form one line, contiguous.
			got := p.Words()
			for i := 1; i < len(got); i++ {
				if got[i].Text == "Doe" && got[i-1].Text == "Jane" && got[i].Line != got[i-1].Line {
					t.Errorf("Jane and Doe on lines %d and %d", got[i-1].Line, got[i].Line)
				}
			}
			// The raster shows the words where the quads say.
			r := render(t, p, 100)
			// Black text only: the page is gray and renders to one channel.
			if w, h := p.PixelSize(100); p.Color() || r.W != w || r.H != h || r.Channels != 1 || r.Stride != w {
				t.Fatalf("raster %dx%dx%d stride %d (color %v), want %dx%dx1", r.W, r.H, r.Channels, r.Stride, p.Color(), w, h)
			}
			for _, w := range got {
				if f := ink(r, w.Quad.Bounds(), 100); f < 0.05 {
					t.Errorf("word %q: ink %.3f in its box", w.Text, f)
				}
			}
			if f := ink(r, page.Rect{X0: 0, Y0: 0, X1: 8, Y1: 8}, 100); f != 0 {
				t.Errorf("blank corner has ink %.3f", f)
			}
		})
	}
}

func TestMediaBoxOffset(t *testing.T) {
	for _, rot := range []int{0, 90, 270} {
		d := testpdf.New()
		tp := d.AddPageBox([4]float64{100, 200, 400, 600}, rot)
		tp.Text(150, 550, 12, "Offset box")
		tp.Image(300, 250, 50, 40, solid(4, 4, color.RGBA{0, 0, 0, 255}))
		doc := openDoc(t, d.Bytes(), Options{})
		p := loadPage(t, doc, 0)
		if w, h := tp.DisplaySize(); math.Abs(p.Width()-w) > 0.01 || math.Abs(p.Height()-h) > 0.01 {
			t.Errorf("rotate %d: size %vx%v, want %vx%v", rot, p.Width(), p.Height(), w, h)
		}
		matchWords(t, tp.Words(), p.Words())
		if got, want := p.ImageRegions(), tp.ImageRects(); len(got) != 1 || math.Abs(got[0].X0-want[0].X0) > 1 || math.Abs(got[0].Y1-want[0].Y1) > 1 {
			t.Errorf("rotate %d: image regions %v, want %v", rot, got, want)
		}
	}
}

func TestFormFieldAndAnnotation(t *testing.T) {
	d := testpdf.New()
	tp := d.AddPage(400, 300, 0)
	tp.Text(40, 250, 12, "Name:")
	tp.TextField("name", [4]float64{100, 240, 300, 262}, "John Smith")
	tp.FreeTextAnnot([4]float64{100, 100, 300, 120}, "Call Alice Brown")
	tp2 := d.AddPage(300, 400, 90)
	tp2.TextField("city", [4]float64{50, 300, 250, 320}, "Springfield")
	doc := openDoc(t, d.Bytes(), Options{})

	for i, tp := range []*testpdf.Page{tp, tp2} {
		p := loadPage(t, doc, i)
		matchWords(t, tp.Words(), p.Words())
		r := render(t, p, 110)
		for _, w := range tp.Words() {
			if f := ink(r, w.Quad.Bounds(), 110); f < 0.05 {
				t.Errorf("page %d word %q (%v): ink %.3f", i, w.Text, w.Source, f)
			}
		}
	}
}

func TestNeedAppearances(t *testing.T) {
	for _, tc := range []struct {
		name string
		add  func(p *testpdf.Page, name string, rect [4]float64, value string)
	}{
		{"no appearance", (*testpdf.Page).TextFieldNoAppearance},
		{"empty appearance", (*testpdf.Page).TextFieldEmptyAppearance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := testpdf.New()
			tp := d.AddPage(400, 300, 0)
			rect := [4]float64{100, 200, 300, 222}
			tc.add(tp, "email", rect, "jo@example.org now")
			doc := openDoc(t, d.Bytes(), Options{})
			p := loadPage(t, doc, 0)
			var got []string
			box := tp.RectToDisplay(rect)
			for _, w := range p.Words() {
				if w.Source != page.SourceFormField {
					t.Errorf("word %q has source %v", w.Text, w.Source)
				}
				if b := w.Quad.Bounds(); b.Intersect(box).Area() < 0.9*b.Area() {
					t.Errorf("word %q at %v outside the field %v", w.Text, b, box)
				}
				got = append(got, w.Text)
			}
			if !slices.Equal(got, []string{"jo@example.org", "now"}) {
				t.Fatalf("words %q, want the field value", got)
			}
			r := render(t, p, 100)
			if f := ink(r, p.Words()[0].Quad.Bounds(), 100); f < 0.05 {
				t.Errorf("synthesised value not drawn: ink %.3f", f)
			}
		})
	}
}

func solid(w, h int, c color.RGBA) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
	}
	return img
}

func TestImageRegion(t *testing.T) {
	red := color.RGBA{200, 30, 30, 255}
	for _, rot := range []int{0, 90} {
		t.Run(fmt.Sprint("rotate", rot), func(t *testing.T) {
			d := testpdf.New()
			tp := d.AddPage(400, 300, rot)
			tp.Image(50, 40, 120, 80, solid(60, 40, red))
			tp.Text(200, 200, 12, "Caption")
			doc := openDoc(t, d.Bytes(), Options{})
			p := loadPage(t, doc, 0)
			want := tp.ImageRects()[0]
			got := p.ImageRegions()
			if len(got) != 1 {
				t.Fatalf("image regions %v, want one near %v", got, want)
			}
			g := got[0]
			if math.Abs(g.X0-want.X0) > 1 || math.Abs(g.Y0-want.Y0) > 1 || math.Abs(g.X1-want.X1) > 1 || math.Abs(g.Y1-want.Y1) > 1 {
				t.Errorf("image region %v, want %v", g, want)
			}
			if !p.Color() {
				t.Error("page with a red image reports no colour")
			}
			r := render(t, p, 72)
			cx, cy := int((want.X0+want.X1)/2), int((want.Y0+want.Y1)/2)
			o := cy*r.Stride + 3*cx
			if px := r.Pix[o : o+3]; absd(px[0], red.R) > 10 || absd(px[1], red.G) > 10 || absd(px[2], red.B) > 10 {
				t.Errorf("image centre pixel %v, want about %v", px, red)
			}
		})
	}
}

func absd(a, b uint8) int { return int(math.Abs(float64(a) - float64(b))) }

func TestEncryption(t *testing.T) {
	mk := func(user string) []byte {
		d := testpdf.New()
		d.AddPage(300, 200, 0).Text(20, 150, 12, "Secret Payroll 2024")
		d.Encrypt(user, "owner-pw")
		return d.Bytes()
	}
	if _, err := Open(mk("user-pw"), Options{}); !errors.Is(err, ErrEncrypted) {
		t.Fatalf("user-password PDF: err %v, want ErrEncrypted", err)
	}
	// Owner password only: opens, and the RC4-encrypted content decrypts.
	doc := openDoc(t, mk(""), Options{})
	p := loadPage(t, doc, 0)
	var got []string
	for _, w := range p.Words() {
		got = append(got, w.Text)
	}
	if !slices.Equal(got, []string{"Secret", "Payroll", "2024"}) {
		t.Fatalf("owner-only PDF words %q", got)
	}
}

func TestBadInput(t *testing.T) {
	d := testpdf.New()
	tp := d.AddPage(300, 200, 0)
	tp.Text(20, 150, 12, "Some text on the page")
	tp.Image(20, 20, 50, 50, solid(10, 10, color.RGBA{0, 0, 255, 255}))
	good := d.Bytes()

	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrCorrupt},
		{"text", []byte("hello, this is not a pdf at all"), ErrCorrupt},
		{"png", png, ErrCorrupt},
		{"header only", []byte("%PDF-1.7\n"), ErrCorrupt},
		{"no pages", testpdf.New().Bytes(), ErrNoPages},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(tc.data, Options{})
			if err == nil {
				doc.Close()
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}

	// Truncated and mutated files: any outcome but a crash. MuPDF repairs
	// what it can; what it cannot must come back as errors.
	exercise := func(data []byte) (opened bool) {
		doc, err := Open(data, Options{MaxMemBytes: 64 << 20})
		if err != nil {
			return false
		}
		defer doc.Close()
		for i := range doc.NumPages() {
			p, err := doc.LoadPage(context.Background(), i)
			if err != nil {
				continue
			}
			if r, err := p.Render(context.Background(), 50, maxPix); err == nil {
				r.Release()
			}
			p.Close()
		}
		return true
	}
	for _, frac := range []float64{0.1, 0.3, 0.5, 0.7, 0.9, 0.99} {
		exercise(good[:int(frac*float64(len(good)))])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		m := bytes.Clone(good)
		for range 1 + rng.IntN(20) {
			m[rng.IntN(len(m))] = byte(rng.IntN(256))
		}
		exercise(m)
	}
	// The repair path works at all: a file without its xref table opens.
	if !exercise(good[:bytes.LastIndex(good, []byte("xref"))]) {
		t.Error("file without xref table did not open after repair")
	}
}

func TestRenderLimits(t *testing.T) {
	d := testpdf.New()
	d.AddPage(14400, 14400, 0).Text(100, 100, 12, "Huge")
	doc := openDoc(t, d.Bytes(), Options{})
	p := loadPage(t, doc, 0)
	if _, err := p.Render(context.Background(), 150, 60_000_000); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("huge page: err %v, want ErrTooLarge", err)
	}
	for _, tc := range []struct {
		dpi float64
		max int64
	}{{0, maxPix}, {-1, maxPix}, {math.NaN(), maxPix}, {math.Inf(1), maxPix}, {72, 0}} {
		if r, err := p.Render(context.Background(), tc.dpi, tc.max); err == nil {
			r.Release()
			t.Errorf("Render(%v, %v) succeeded", tc.dpi, tc.max)
		}
	}
	r := render(t, p, 1) // 200x200 pixels: fine
	if r.W != 200 || r.H != 200 {
		t.Errorf("raster %dx%d at 1 dpi, want 200x200", r.W, r.H)
	}
}

func TestCancel(t *testing.T) {
	d := testpdf.New()
	d.AddPage(300, 200, 0).Text(20, 150, 12, "Hello")
	doc := openDoc(t, d.Bytes(), Options{})
	p := loadPage(t, doc, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := doc.LoadPage(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("LoadPage with cancelled ctx: %v", err)
	}
	if _, err := p.Render(ctx, 72, maxPix); !errors.Is(err, context.Canceled) {
		t.Errorf("Render with cancelled ctx: %v", err)
	}
}

func TestMemoryLimit(t *testing.T) {
	// A 2000x2000 image: 12 MB decoded, little compressed.
	img := image.NewRGBA(image.Rect(0, 0, 2000, 2000))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	d := testpdf.New()
	d.AddPage(600, 600, 0).Image(0, 0, 600, 600, img)
	data := d.Bytes()

	doc := openDoc(t, data, Options{MaxMemBytes: 10 << 20})
	p := loadPage(t, doc, 0)
	if _, err := p.Render(context.Background(), 300, maxPix); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("render over the memory cap: err %v, want ErrOutOfMemory", err)
	}
	doc2 := openDoc(t, data, Options{})
	render(t, loadPage(t, doc2, 0), 300)
}

func TestCloseOrder(t *testing.T) {
	d := testpdf.New()
	d.AddPage(300, 200, 0).Text(20, 150, 12, "Hello")
	data := d.Bytes()
	doc, err := Open(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	clear(data) // Open copied the file
	p, err := doc.LoadPage(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Words()) != 1 || p.Words()[0].Text != "Hello" {
		t.Errorf("words %v after the caller reused its buffer", texts(p.Words()))
	}
	doc.Close()
	doc.Close()
	if _, err := doc.LoadPage(context.Background(), 0); !errors.Is(err, ErrClosed) {
		t.Errorf("LoadPage after Close: %v", err)
	}
	r, err := p.Render(context.Background(), 72, maxPix) // the page outlives the document handle
	if err != nil {
		t.Fatal(err)
	}
	r.Release()
	p.Close()
	p.Close()
	if _, err := p.Render(context.Background(), 72, maxPix); !errors.Is(err, ErrClosed) {
		t.Errorf("Render after Close: %v", err)
	}
}

// TestHeldBytes: what a document and its page hold shows in HeldBytes
// until the last of them is closed, and no byte is left counted after.
func TestHeldBytes(t *testing.T) {
	before := HeldBytes()
	d := testpdf.New()
	d.AddPage(300, 200, 0).Text(20, 150, 12, "Hello")
	doc, err := Open(d.Bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := doc.LoadPage(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, own := HeldBytes()-before, doc.MemUsed(); own <= 0 || got < own {
		t.Errorf("held %d bytes more with a document open holding %d", got, own)
	}
	doc.Close()
	if HeldBytes() <= before {
		t.Errorf("held %d bytes with a page still open, %d before", HeldBytes(), before)
	}
	p.Close()
	if after := HeldBytes(); after != before {
		t.Errorf("held %d bytes after closing all, %d before", after, before)
	}
}

// TestPicturePageImagesEvicted: once a scanned page (a picture covering
// it) is drawn and closed, the document no longer holds its decoded
// image, while the document stays open for its other pages; a page with
// a small picture keeps its image cached (a logo other pages may draw).
func TestPicturePageImagesEvicted(t *testing.T) {
	noise := func(w, h int) image.Image {
		img := image.NewGray(image.Rect(0, 0, w, h))
		r := rand.New(rand.NewPCG(1, 2))
		for i := range img.Pix {
			img.Pix[i] = uint8(r.IntN(256))
		}
		return img
	}
	d := testpdf.New()
	d.AddPage(612, 792, 0).Image(0, 0, 612, 792, noise(1200, 1550)) // a scan: 5.6 MB decoded as RGB
	logo := d.AddPage(612, 792, 0)
	logo.Image(20, 700, 200, 60, noise(600, 180))
	logo.Text(20, 600, 12, "Hello")
	d.AddPage(612, 792, 0).Text(20, 600, 12, "Third")
	doc := openDoc(t, d.Bytes(), Options{})
	drawn := func(i int) int64 {
		before := doc.MemUsed()
		drawAndClose(t, doc, i, 72)
		return doc.MemUsed() - before
	}
	if kept := drawn(0); kept > 1<<20 {
		t.Errorf("the document holds %d bytes more after its scanned page was drawn and closed", kept)
	}
	if kept := drawn(1); kept < 600*180 {
		t.Errorf("the document holds %d bytes more after a page with a logo was drawn: want its image cached", kept)
	}
	if got := loadPage(t, doc, 2).Words(); len(got) != 1 || got[0].Text != "Third" {
		t.Errorf("third page reads %v", texts(got))
	}
}

func TestConcurrentRender(t *testing.T) {
	const pages = 6
	d := testpdf.New()
	for i := range pages {
		p := d.AddPage(300, 400, 90*(i%4))
		for l := range 10 {
			p.Text(20, 380-float64(l)*30, 10+float64(i), fmt.Sprintf("Page %d line %d Lorem ipsum dolor", i, l))
		}
		p.Image(150, 20, 100, 60, solid(20, 12, color.RGBA{uint8(40 * i), 100, 50, 255}))
	}
	doc := openDoc(t, d.Bytes(), Options{StoreBytes: 8 << 20})
	loaded := make([]*Page, pages)
	ref := make([][]byte, pages)
	for i := range pages {
		loaded[i] = loadPage(t, doc, i)
		ref[i] = bytes.Clone(render(t, loaded[i], 96).Pix)
	}

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 4 {
		wg.Go(func() {
			for k := range 12 {
				i := (g + k) % pages
				r, err := loaded[i].Render(context.Background(), 96, maxPix)
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(r.Pix, ref[i]) {
					errs <- fmt.Errorf("goroutine %d: page %d rendered differently", g, i)
				}
				r.Release()
			}
		})
	}
	// Meanwhile pages are loaded, rendered and closed on other goroutines.
	for g := range 2 {
		wg.Go(func() {
			for k := range 6 {
				i := (g*3 + k) % pages
				p, err := doc.LoadPage(context.Background(), i)
				if err != nil {
					errs <- err
					return
				}
				r, err := p.Render(context.Background(), 96, maxPix)
				p.Close()
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(r.Pix, ref[i]) {
					errs <- fmt.Errorf("reloaded page %d rendered differently", i)
				}
				r.Release()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// documentsDir finds the shared sample documents next to the repository.
func documentsDir(t *testing.T) string {
	if dir := shareddata.Path("documents"); isDir(dir) {
		return dir
	}
	t.Skip("shared sample documents not found")
	return ""
}

func TestSampleDocuments(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(documentsDir(t), "*", "*.pdf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample PDFs: %v", err)
	}
	formWords := map[string][]string{} // file -> form-field words
	withWords := 0
	for _, f := range files {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Open(data, Options{MaxMemBytes: 512 << 20})
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrEncrypted) && !errors.Is(err, ErrNoPages) {
				t.Errorf("%s: unexpected error kind: %v", name, err)
			}
			t.Logf("%s: %v", name, err)
			continue
		}
		words := 0
		for i := range min(doc.NumPages(), 3) {
			p, err := doc.LoadPage(context.Background(), i)
			if err != nil {
				t.Logf("%s page %d: %v", name, i, err)
				continue
			}
			for _, w := range p.Words() {
				words++
				if w.Text == "" || len(w.Chars) != len([]rune(w.Text)) || strings.IndexFunc(w.Text, unicode.IsControl) >= 0 {
					t.Errorf("%s: malformed word %q with %d quads", name, w.Text, len(w.Chars))
				}
				if w.Source == page.SourceFormField {
					formWords[name] = append(formWords[name], w.Text)
				}
			}
			r, err := p.Render(context.Background(), 50, maxPix)
			if err != nil {
				t.Errorf("%s page %d: render: %v", name, i, err)
			} else {
				r.Release()
			}
			p.Close()
		}
		if words > 0 {
			withWords++
		}
		doc.Close()
	}
	if withWords < len(files)*9/10 {
		t.Errorf("only %d of %d sample PDFs gave words", withWords, len(files))
	}
	// Filled forms: the values are extracted as form-field words, both
	// with proper appearance streams (pdf-lib) and with NeedAppearances
	// and empty appearances (LibreOffice).
	for file, want := range map[string]string{"fill_form.pdf": "Mario", "libreoffice-form.pdf": "Alice", "fancy_fields.pdf": "Mars"} {
		if _, err := os.Stat(filepath.Join(documentsDir(t), "forms_pdf", file)); err != nil {
			continue
		}
		if !slices.Contains(formWords[file], want) {
			t.Errorf("%s: form words %q lack %q", file, formWords[file], want)
		}
	}
}

func textPage() []byte {
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	for l := range 50 {
		p.Text(50, 750-float64(l)*14, 10, fmt.Sprintf("Line %d: The quick brown fox jumps over the lazy dog, invoice 4711-%d.", l, l))
	}
	return d.Bytes()
}

func BenchmarkLoadPage(b *testing.B) {
	doc := openDoc(b, textPage(), Options{})
	for b.Loop() {
		p, err := doc.LoadPage(context.Background(), 0)
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

func BenchmarkLoadRender150(b *testing.B) {
	doc := openDoc(b, textPage(), Options{})
	for b.Loop() {
		drawAndClose(b, doc, 0, 150)
	}
}

func BenchmarkRender150Parallel(b *testing.B) {
	doc := openDoc(b, textPage(), Options{})
	p := loadPage(b, doc, 0)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, err := p.Render(context.Background(), 150, maxPix)
			if err != nil {
				b.Error(err)
				return
			}
			r.Release()
		}
	})
}

// hostileCase returns the bytes of a case of the hostile corpus.
func hostileCase(t *testing.T, name string) []byte {
	t.Helper()
	c := hostile.Find(hostile.Documents(), name)
	if c == nil {
		t.Fatalf("no hostile case %q", name)
	}
	return c.Bytes()
}

// finishes runs fn, failing t if it has not returned after limit: a call
// that ignores cancellation (or loops) would otherwise hang the test.
// The limit is generous; it detects hangs, it does not time anything.
func finishes(t *testing.T, limit time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("still running after %v", limit)
	}
}

// TestDecompressionBombCancel: a content stream of 40 KB that inflates
// to 16 GiB of blanks keeps MuPDF's lexer busy for over a minute, and
// MuPDF checks no cookie while inflating; the guarded filters do.
func TestDecompressionBombCancel(t *testing.T) {
	doc := openDoc(t, hostileCase(t, "pdf-filter-chain-double-flate"), Options{MaxDecodedBytes: -1})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var err error
	finishes(t, time.Minute, func() { _, err = doc.LoadPage(ctx, 0) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("LoadPage: %v, want context.DeadlineExceeded", err)
	}
}

// TestDecodedCap: past MaxDecodedBytes a stream ends, so the rest of a
// bombed content stream is lost while streams that are never read, and
// pages without bombs, are unaffected.
func TestDecodedCap(t *testing.T) {
	opts := Options{MaxDecodedBytes: 64 << 20}
	doc := openDoc(t, hostileCase(t, "pdf-filter-chain-double-flate"), opts)
	var p *Page
	finishes(t, time.Minute, func() { p = loadPage(t, doc, 0) })
	if len(p.Words()) != 0 {
		t.Errorf("text after the bomb was read: %v", texts(p.Words()))
	}
	render(t, p, 72)

	doc = openDoc(t, hostileCase(t, "pdf-flate-bomb-unused"), opts)
	if p := loadPage(t, doc, 0); !slices.ContainsFunc(p.Words(), func(w page.Word) bool { return w.Text == "jane.doe@example.com" }) {
		t.Errorf("page beside an unused bomb lost its text: %v", texts(p.Words()))
	}

	doc = openDoc(t, hostileCase(t, "pdf-flate-bomb-image"), opts)
	finishes(t, time.Minute, func() { render(t, loadPage(t, doc, 0), 72) })
}

// TestHugeFormValue: a 1 MB multi-line field value would take MuPDF
// minutes to lay out; it is cut to what a widget can show first.
func TestHugeFormValue(t *testing.T) {
	doc := openDoc(t, hostileCase(t, "pdf-form-field-1mb"), Options{})
	var p *Page
	finishes(t, time.Minute, func() { p = loadPage(t, doc, 0) })
	n, size := 0, 0
	for _, w := range p.Words() {
		if w.Source == page.SourceFormField {
			n++
			size += len(w.Text) + 1
			if !strings.Contains("078-05-1120", w.Text) { // lines break at hyphens
				t.Errorf("field word %q", w.Text)
			}
		}
	}
	if n == 0 || size > 16<<10 {
		t.Errorf("%d field words of %d bytes, want some, at most 16 KiB", n, size)
	}
}

// TestColourInspectionBudget: an image claiming 10^10 pixels from 1 KiB
// of data would have MuPDF's colour test read 1.4e9 pixels past the end
// of its data; beyond the page's inspection budget an image is judged by
// its colour space, so this black RGB image makes the page colour.
func TestColourInspectionBudget(t *testing.T) {
	doc := openDoc(t, hostileCase(t, "pdf-image-100000px"), Options{})
	var p *Page
	finishes(t, time.Minute, func() { p = loadPage(t, doc, 0) })
	if !p.Color() {
		t.Error("an RGB image beyond the inspection budget left the page gray")
	}
	// Within the budget, pixels decide: the sample's gray RGB image is gray.
	doc = openDoc(t, hostileCase(t, "pdf-filter-chain-mixed"), Options{})
	if p := loadPage(t, doc, 0); p.Color() {
		t.Error("a gray image made the page colour")
	}
}

// TestOpenFile: a PDF opened from its file reads as the same PDF opened
// from memory, keeps reading once the file is unlinked, and a missing,
// empty or damaged file fails as Open does.
func TestOpenFile(t *testing.T) {
	d := testpdf.New()
	tp := d.AddPage(400, 300, 0)
	tp.Text(40, 250, 12, "Jane Doe lives here")
	tp.Image(20, 20, 50, 50, solid(10, 10, color.RGBA{0, 0, 255, 255}))
	d.AddPage(400, 300, 90).Text(40, 250, 12, "Second page")
	data := d.Bytes()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	fromMem := openDoc(t, data, Options{})
	fromFile, err := OpenFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fromFile.Close()
	if err := os.Remove(path); err != nil { // the pipeline's job may be deleted meanwhile
		t.Fatal(err)
	}
	if fromFile.NumPages() != 2 {
		t.Fatalf("NumPages = %d, want 2", fromFile.NumPages())
	}
	for i := range 2 {
		want, got := loadPage(t, fromMem, i), loadPage(t, fromFile, i)
		if !slices.Equal(texts(got.Words()), texts(want.Words())) || got.Width() != want.Width() || len(got.ImageRegions()) != len(want.ImageRegions()) {
			t.Errorf("page %d from the file: %q %v, from memory: %q %v", i, texts(got.Words()), got.Width(), texts(want.Words()), want.Width())
		}
		if a, b := render(t, got, 50), render(t, want, 50); !bytes.Equal(a.Pix, b.Pix) {
			t.Errorf("page %d renders differently from the file", i)
		}
	}

	empty := filepath.Join(dir, "empty.pdf")
	os.WriteFile(empty, nil, 0o600)
	damaged := filepath.Join(dir, "damaged.pdf")
	os.WriteFile(damaged, []byte("%PDF-1.7\nnothing else"), 0o600)
	for _, tc := range []struct {
		path string
		want error
	}{{empty, ErrCorrupt}, {damaged, ErrCorrupt}, {filepath.Join(dir, "missing.pdf"), os.ErrNotExist}} {
		if doc, err := OpenFile(tc.path, Options{}); !errors.Is(err, tc.want) {
			if doc != nil {
				doc.Close()
			}
			t.Errorf("%s: error %v, want %v", filepath.Base(tc.path), err, tc.want)
		}
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// TestHiddenTextRegions: text in render mode 3 is extracted as words and
// its box reported as hidden; visible text is not.
func TestHiddenTextRegions(t *testing.T) {
	content := "BT /F1 12 Tf 72 700 Td (visible words) Tj ET\nBT 3 Tr /F1 12 Tf 72 600 Td (hidden words) Tj ET\n"
	objs := [][]byte{
		[]byte("<< /Type /Catalog /Pages 2 0 R >>"),
		[]byte("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
		[]byte("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"),
		[]byte(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content)),
		[]byte("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
	}
	pdf, _ := testpdf.Assemble(objs, "/Root 1 0 R")
	d := openDoc(t, pdf, Options{})
	p := loadPage(t, d, 0)
	if got := texts(p.Words()); len(got) != 4 {
		t.Fatalf("words %q, want the visible and the hidden ones", got)
	}
	h := p.HiddenTextRegions()
	if len(h) != 1 {
		t.Fatalf("hidden regions %v, want one", h)
	}
	// The hidden line's baseline is 600 pt up: 192 pt from the top.
	if r := h[0]; r.Y0 > 192 || r.Y1 < 185 || r.X0 > 73 || r.X1 < 130 {
		t.Fatalf("hidden region %v does not cover the hidden line", r)
	}
}
