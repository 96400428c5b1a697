package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
)

// Previews is the pipeline's contract.Previewer: the review editor's
// pages as PNG images, rendered by MuPDF for PDFs (originals and outputs)
// and by the pipeline's own decoders for image inputs, in the same
// display space as the masks, so a mask drawn at (x, y) points sits over
// the pixels at (x, y)·dpi/72. The original's bytes never leave the
// server. It holds nothing: the zero value is ready, and cmd/redactd/wire
// hands it to the job service and the HTTP layer, which link no MuPDF.
type Previews struct{}

var _ contract.Previewer = Previews{}

// maxPreviewPixels bounds one preview raster whatever the page size.
const maxPreviewPixels = 40_000_000

// RenderPNG implements contract.Previewer.
func (Previews) RenderPNG(ctx context.Context, path string, pageNo int, dpi float64) ([]byte, error) {
	r, err := renderPreview(ctx, path, pageNo, dpi)
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

// PageSizes implements contract.Previewer.
func (Previews) PageSizes(ctx context.Context, path string) ([]contract.PageSize, error) {
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
		out := make([]contract.PageSize, doc.NumPages())
		for i := range out {
			p, err := doc.LoadPage(ctx, i)
			if err != nil {
				return nil, err
			}
			out[i] = contract.PageSize{Page: i + 1, Width: round2(p.Width()), Height: round2(p.Height())}
			p.Close()
		}
		return out, nil
	}
	doc, err := openPreviewImage(path)
	if err != nil {
		return nil, err
	}
	out := make([]contract.PageSize, doc.NumPages())
	for i := range out {
		info, err := doc.Page(i)
		if err != nil {
			return nil, err
		}
		out[i] = contract.PageSize{Page: i + 1, Width: round2(info.WidthPt), Height: round2(info.HeightPt)}
	}
	return out, nil
}

func renderPreview(ctx context.Context, path string, pageNo int, dpi float64) (*page.Raster, error) {
	if !(dpi > 0 && dpi <= contract.MaxPreviewDPI) {
		return nil, fmt.Errorf("review: dpi %v outside (0, %d]", dpi, contract.MaxPreviewDPI)
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
			return nil, contract.ErrNoPage
		}
		p, err := doc.LoadPage(ctx, pageNo-1)
		if err != nil {
			return nil, err
		}
		defer p.Close()
		return p.Render(ctx, dpi, maxPreviewPixels)
	}
	doc, err := openPreviewImage(path)
	if err != nil {
		return nil, err
	}
	if pageNo < 1 || pageNo > doc.NumPages() {
		return nil, contract.ErrNoPage
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

func openPreviewImage(path string) (*imagein.Doc, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return imagein.Open(b, 2*maxPreviewPixels, 10000)
}

// round2 keeps two decimals, as the review state does (engine/review).
func round2(v float64) float64 { return math.Round(v*100) / 100 }

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
