package pipeline

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// TestPreviews: the review editor's previewer measures pages as shown
// (rotation applied), renders them at the asked dpi in the masks' space,
// and refuses pages outside the document and dpis outside its bounds,
// for PDFs and image files alike.
func TestPreviews(t *testing.T) {
	dir := t.TempDir()
	doc := testpdf.New()
	doc.AddPage(612, 792, 0).Text(72, 72, 12, "Hello")
	doc.AddPage(612, 792, 90)
	pdf := filepath.Join(dir, "a.pdf")
	if err := os.WriteFile(pdf, doc.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, 200, 100))
	img.SetGray(5, 5, color.Gray{0})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	pngPath := filepath.Join(dir, "b.png")
	if err := os.WriteFile(pngPath, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	var p contract.Previewer = Previews{}
	ctx := context.Background()
	sizes, err := p.PageSizes(ctx, pdf)
	if err != nil {
		t.Fatal(err)
	}
	want := []contract.PageSize{{Page: 1, Width: 612, Height: 792}, {Page: 2, Width: 792, Height: 612}}
	if len(sizes) != len(want) || sizes[0] != want[0] || sizes[1] != want[1] {
		t.Fatalf("PageSizes = %+v, want %+v", sizes, want)
	}
	for _, c := range []struct {
		page int
		dpi  float64
		w, h int
	}{{1, 72, 612, 792}, {2, 36, 396, 306}} {
		b, err := p.RenderPNG(ctx, pdf, c.page, c.dpi)
		if err != nil {
			t.Fatalf("page %d: %v", c.page, err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("page %d: not a PNG: %v", c.page, err)
		}
		if cfg.Width != c.w || cfg.Height != c.h {
			t.Errorf("page %d at %v dpi: %dx%d, want %dx%d", c.page, c.dpi, cfg.Width, cfg.Height, c.w, c.h)
		}
	}
	for _, path := range []string{pdf, pngPath} {
		n := 2
		if path == pngPath {
			n = 1
		}
		for _, pg := range []int{0, n + 1} {
			if _, err := p.RenderPNG(ctx, path, pg, 72); !errors.Is(err, contract.ErrNoPage) {
				t.Errorf("%s page %d: err %v, want ErrNoPage", filepath.Base(path), pg, err)
			}
		}
	}
	for _, dpi := range []float64{0, -1, contract.MaxPreviewDPI + 1} {
		if _, err := p.RenderPNG(ctx, pdf, 1, dpi); err == nil {
			t.Errorf("dpi %v accepted", dpi)
		}
	}
	isizes, err := p.PageSizes(ctx, pngPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(isizes) != 1 || isizes[0].Page != 1 || isizes[0].Width <= 0 || isizes[0].Height <= 0 {
		t.Fatalf("image PageSizes = %+v", isizes)
	}
	b, err := p.RenderPNG(ctx, pngPath, 1, 72)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(b)); err != nil || cfg.Width < 1 {
		t.Fatalf("image preview: %v %+v", err, cfg)
	}
}
