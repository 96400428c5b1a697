// Package imagein opens uploaded images as documents: PNG, JPEG, TIFF
// (every page of a multi-page file), BMP, GIF (first frame) and WebP.
//
// Every image becomes a page whose size in points comes from the
// resolution the file declares (PNG pHYs, JPEG JFIF or EXIF, TIFF
// XResolution, BMP pixels per metre). Files that declare none, or a value
// below 100 dpi (72 and 96 are what cameras and screenshot tools write
// without measuring anything) or above 1200 dpi, are taken to be
// DefaultDPI, the service's default output resolution, so that rendering
// them at that resolution neither enlarges nor shrinks a pixel.
//
// Image dimensions are read from the header and checked against the
// caller's pixel limit before anything is decoded, so a file that claims
// 100000 x 100000 pixels, or a PNG whose tiny IDAT would inflate to
// gigabytes, is refused without allocating its pixels.
package imagein

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/kernels"
)

// DefaultDPI is the resolution assumed for images that declare none (or an
// implausible one).
const DefaultDPI = 150

// Declared resolutions outside [minDPI, maxDPI] are not believed.
const (
	minDPI = 100
	maxDPI = 1200
)

var (
	// ErrTooLarge is wrapped when an image has more pixels than allowed.
	ErrTooLarge = errors.New("image too large")
	// ErrPDF is returned by Open for a PDF: PDFs go to MuPDF.
	ErrPDF = errors.New("file is a PDF, not an image")
	// ErrTooManyPages is wrapped when a TIFF has more pages than allowed.
	ErrTooManyPages = errors.New("too many pages")
)

var errEOF = io.EOF

// PageInfo describes one page of an image document.
type PageInfo struct {
	// WidthPx and HeightPx are the image's size as displayed, EXIF
	// orientation applied.
	WidthPx, HeightPx int
	// DPIX and DPIY are the resolution the page size is computed from:
	// the file's own, or DefaultDPI.
	DPIX, DPIY float64
	// WidthPt and HeightPt are the page size in points.
	WidthPt, HeightPt float64
}

// Doc is an opened image document. It keeps the file's bytes (not
// decoded pixels); each Render decodes its page afresh. Methods are safe
// for concurrent use.
type Doc struct {
	kind  Kind
	data  []byte
	bo    binary.ByteOrder // TIFF only
	pages []pageMeta
}

type pageMeta struct {
	w, h        int // stored size, before orientation
	dpiX, dpiY  float64
	orientation int
	ifd         ifd // TIFF only
}

// Open checks b and reads the size of every page, without decoding
// pixels. Images with more than maxPixels pixels wrap ErrTooLarge, TIFFs
// with more than maxPages pages wrap ErrTooManyPages; a PDF gives ErrPDF,
// anything else unrecognised ErrUnsupported. b must not be modified while
// the Doc is in use.
func Open(b []byte, maxPixels int64, maxPages int) (*Doc, error) {
	kind, err := Sniff(b)
	if err != nil {
		return nil, err
	}
	if kind == KindPDF {
		return nil, ErrPDF
	}
	if maxPages < 1 {
		return nil, errors.New("imagein: page limit below 1")
	}
	d := &Doc{kind: kind, data: b}
	if kind == KindTIFF {
		ifds, bo, err := walkTIFF(b, maxPages, true)
		if errors.Is(err, errTooManyPages) {
			return nil, fmt.Errorf("imagein: TIFF with more than %d pages: %w", maxPages, ErrTooManyPages)
		}
		if err != nil {
			return nil, fmt.Errorf("imagein: corrupt TIFF: %w", err)
		}
		d.bo = bo
		for i, f := range ifds {
			cfg, err := safeConfig(func() (image.Config, error) { return tiff.DecodeConfig(newTIFFPage(b, bo, f)) })
			if err != nil {
				return nil, fmt.Errorf("imagein: corrupt TIFF, page %d: %w", i+1, err)
			}
			if err := checkPixels(cfg.Width, cfg.Height, maxPixels); err != nil {
				return nil, fmt.Errorf("imagein: TIFF page %d: %w", i+1, err)
			}
			d.pages = append(d.pages, newPageMeta(cfg.Width, cfg.Height, f.meta, f))
		}
		return d, nil
	}
	var decodeConfig func(io.Reader) (image.Config, error)
	var m meta
	switch kind {
	case KindPNG:
		decodeConfig, m = png.DecodeConfig, pngMeta(b)
	case KindJPEG:
		decodeConfig, m = jpeg.DecodeConfig, jpegMeta(b)
	case KindBMP:
		decodeConfig, m = bmp.DecodeConfig, bmpMeta(b)
	case KindGIF:
		decodeConfig = gif.DecodeConfig
	case KindWebP:
		decodeConfig = webp.DecodeConfig
	}
	cfg, err := safeConfig(func() (image.Config, error) { return decodeConfig(bytes.NewReader(b)) })
	if err != nil {
		return nil, fmt.Errorf("imagein: corrupt %s: %w", kind, err)
	}
	if err := checkPixels(cfg.Width, cfg.Height, maxPixels); err != nil {
		return nil, fmt.Errorf("imagein: %w", err)
	}
	d.pages = []pageMeta{newPageMeta(cfg.Width, cfg.Height, m, ifd{})}
	return d, nil
}

func newPageMeta(w, h int, m meta, f ifd) pageMeta {
	p := pageMeta{w: w, h: h, dpiX: m.dpiX, dpiY: m.dpiY, orientation: m.orientation, ifd: f}
	if !(p.dpiX >= minDPI && p.dpiX <= maxDPI && p.dpiY >= minDPI && p.dpiY <= maxDPI) {
		p.dpiX, p.dpiY = DefaultDPI, DefaultDPI
	}
	return p
}

func checkPixels(w, h int, maxPixels int64) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("image has no pixels (%dx%d)", w, h)
	}
	if int64(w)*int64(h) > maxPixels {
		return fmt.Errorf("image is %dx%d pixels, above the limit of %d pixels: %w", w, h, maxPixels, ErrTooLarge)
	}
	return nil
}

// safeConfig and safeDecode turn a decoder panic on hostile input into an
// error: third-party decoders are fuzzed, but a crash must never escape.
func safeConfig(f func() (image.Config, error)) (cfg image.Config, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoder failed: %v", p)
		}
	}()
	return f()
}

func safeDecode(f func() (image.Image, error)) (img image.Image, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoder failed: %v", p)
		}
	}()
	return f()
}

// Kind is the file's type.
func (d *Doc) Kind() Kind { return d.kind }

// NumPages is the number of pages: the directories of a TIFF, else 1.
func (d *Doc) NumPages() int { return len(d.pages) }

// Page describes page i (0-based).
func (d *Doc) Page(i int) (PageInfo, error) {
	if i < 0 || i >= len(d.pages) {
		return PageInfo{}, fmt.Errorf("imagein: page %d out of range 0..%d", i, len(d.pages)-1)
	}
	p := d.pages[i]
	w, h := orientedSize(p.w, p.h, p.orientation)
	dx, dy := p.dpiX, p.dpiY
	if w != p.w { // on its side: the resolutions swap too
		dx, dy = dy, dx
	}
	return PageInfo{WidthPx: w, HeightPx: h, DPIX: dx, DPIY: dy,
		WidthPt: float64(w) * 72 / dx, HeightPt: float64(h) * 72 / dy}, nil
}

// RenderSize is the raster size Render(i, dpi, ...) produces.
func (info PageInfo) RenderSize(dpi float64) (w, h int) {
	w = max(1, int(math.Round(info.WidthPt*dpi/72)))
	h = max(1, int(math.Round(info.HeightPt*dpi/72)))
	return w, h
}

// Render decodes page i and returns it as an RGB raster at dpi (the page's
// size in points times dpi/72), upright. A raster larger than maxPixels is
// refused (wrapping ErrTooLarge) before decoding; choose a lower dpi with
// Page and PageInfo.RenderSize. The raster comes from page.NewRaster; the
// caller releases it.
func (d *Doc) Render(i int, dpi float64, maxPixels int64) (*page.Raster, error) {
	info, err := d.Page(i)
	if err != nil {
		return nil, err
	}
	if !(dpi >= 1 && dpi <= 4800) {
		return nil, fmt.Errorf("imagein: resolution %v dpi outside 1..4800", dpi)
	}
	dw, dh := info.RenderSize(dpi)
	if int64(dw)*int64(dh) > maxPixels {
		return nil, fmt.Errorf("imagein: page %d at %v dpi is %dx%d pixels, above the limit of %d: %w", i+1, dpi, dw, dh, maxPixels, ErrTooLarge)
	}
	p := d.pages[i]
	img, err := safeDecode(func() (image.Image, error) { return d.decode(p) })
	if err != nil {
		return nil, fmt.Errorf("imagein: corrupt %s, page %d: %w", d.kind, i+1, err)
	}
	if b := img.Bounds(); b.Dx() != p.w || b.Dy() != p.h {
		return nil, fmt.Errorf("imagein: corrupt %s, page %d: decoded %dx%d, header says %dx%d", d.kind, i+1, b.Dx(), b.Dy(), p.w, p.h)
	}
	r := orient(toRGB(img), p.orientation)
	return scale(r, dw, dh), nil
}

func (d *Doc) decode(p pageMeta) (image.Image, error) {
	r := bytes.NewReader(d.data)
	switch d.kind {
	case KindPNG:
		return png.Decode(r)
	case KindJPEG:
		return jpeg.Decode(r)
	case KindBMP:
		return bmp.Decode(r)
	case KindGIF:
		return gif.Decode(r)
	case KindWebP:
		return webp.Decode(r)
	case KindTIFF:
		return tiff.Decode(newTIFFPage(d.data, d.bo, p.ifd))
	}
	return nil, ErrUnsupported
}

// scale resamples r to dw x dh: box averaging for whole factors of
// shrinking, bilinear for the rest. r is released when a new raster is
// made.
func scale(r *page.Raster, dw, dh int) *page.Raster {
	if r.W == dw && r.H == dh {
		return r
	}
	if k := min(r.W/dw, r.H/dh); k >= 2 {
		bw, bh := kernels.BoxReduceSize(r.W, r.H, k)
		box := page.NewRaster(bw, bh, r.Channels)
		kernels.BoxReduce(box.Pix, box.Stride, r.Pix, r.W, r.H, r.Stride, r.Channels, k)
		r.Release()
		r = box
		if r.W == dw && r.H == dh {
			return r
		}
	}
	out := page.NewRaster(dw, dh, r.Channels)
	kernels.ScaleBilinear(out.Pix, dw, dh, out.Stride, r.Pix, r.W, r.H, r.Stride, r.Channels)
	r.Release()
	return out
}
