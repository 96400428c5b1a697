package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"

	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/mupdf"
	"github.com/redactd/redactd/engine/page"
)

// Previews: the editor shows pages as PNG images rendered here, by MuPDF
// for PDFs (originals and outputs) and by the pipeline's own decoders for
// image inputs, in the same display space as the masks, so a mask drawn
// at (x, y) points sits over the pixels at (x, y)·dpi/72. The original's
// bytes never leave the server.

// ErrNoPage is Render's answer for a page number outside the document.
var ErrNoPage = errors.New("review: no such page")

// MaxPreviewDPI bounds a preview's resolution (zoom is done by asking for
// a higher dpi, up to this).
const MaxPreviewDPI = 300

// maxPreviewPixels bounds one preview raster whatever the page size.
const maxPreviewPixels = 40_000_000

// RenderPNG renders page (1-based) of the file at path at dpi as PNG.
func RenderPNG(ctx context.Context, path string, pageNo int, dpi float64) ([]byte, error) {
	r, err := render(ctx, path, pageNo, dpi)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, rasterImage(r)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// PageSizes returns the size of every page of the file at path, in points
// as shown (rotation and crop applied).
func PageSizes(ctx context.Context, path string) ([]Page, error) {
	kind, err := sniffFile(path)
	if err != nil {
		return nil, err
	}
	if kind == imagein.KindPDF {
		doc, err := mupdf.OpenFile(path, mupdf.Options{})
		if err != nil {
			return nil, err
		}
		defer doc.Close()
		out := make([]Page, doc.NumPages())
		for i := range out {
			p, err := doc.LoadPage(ctx, i)
			if err != nil {
				return nil, err
			}
			out[i] = Page{Page: i + 1, Width: round2(p.Width()), Height: round2(p.Height())}
			p.Close()
		}
		return out, nil
	}
	doc, err := openImage(path)
	if err != nil {
		return nil, err
	}
	out := make([]Page, doc.NumPages())
	for i := range out {
		info, err := doc.Page(i)
		if err != nil {
			return nil, err
		}
		out[i] = Page{Page: i + 1, Width: round2(info.WidthPt), Height: round2(info.HeightPt)}
	}
	return out, nil
}

func render(ctx context.Context, path string, pageNo int, dpi float64) (*page.Raster, error) {
	if !(dpi > 0 && dpi <= MaxPreviewDPI) {
		return nil, fmt.Errorf("review: dpi %v outside (0, %d]", dpi, MaxPreviewDPI)
	}
	kind, err := sniffFile(path)
	if err != nil {
		return nil, err
	}
	if kind == imagein.KindPDF {
		doc, err := mupdf.OpenFile(path, mupdf.Options{})
		if err != nil {
			return nil, err
		}
		defer doc.Close()
		if pageNo < 1 || pageNo > doc.NumPages() {
			return nil, ErrNoPage
		}
		p, err := doc.LoadPage(ctx, pageNo-1)
		if err != nil {
			return nil, err
		}
		defer p.Close()
		return p.Render(ctx, dpi, maxPreviewPixels)
	}
	doc, err := openImage(path)
	if err != nil {
		return nil, err
	}
	if pageNo < 1 || pageNo > doc.NumPages() {
		return nil, ErrNoPage
	}
	return doc.Render(pageNo-1, dpi, maxPreviewPixels)
}

func sniffFile(path string) (imagein.Kind, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	head := make([]byte, imagein.SniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, err
	}
	return imagein.Sniff(head[:n])
}

func openImage(path string) (*imagein.Doc, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return imagein.Open(b, 2*maxPreviewPixels, 10000)
}

// rasterImage wraps a raster as an image without copying.
func rasterImage(r *page.Raster) image.Image {
	rect := image.Rect(0, 0, r.W, r.H)
	if r.Channels == 1 {
		return &image.Gray{Pix: r.Pix, Stride: r.Stride, Rect: rect}
	}
	rgba := image.NewRGBA(rect)
	for y := 0; y < r.H; y++ {
		src := r.Pix[y*r.Stride : y*r.Stride+r.W*3]
		dst := rgba.Pix[y*rgba.Stride : y*rgba.Stride+r.W*4]
		for x := 0; x < r.W; x++ {
			dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = src[3*x], src[3*x+1], src[3*x+2], 255
		}
	}
	return rgba
}
