package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
)

// source is an opened input document of any kind.
type source interface {
	NumPages() int
	// Load prepares page i: its size, words and image regions, and what
	// Render needs. Sources serialise Load themselves.
	Load(ctx context.Context, i int) (loadedPage, error)
	Close() error
}

// loadedPage is a page ready to render. Render may run on any goroutine.
type loadedPage interface {
	Size() (w, h float64)
	Words() []page.Word
	ImageRegions() []page.Rect
	// HiddenTextRegions are the boxes of invisible text (none for images).
	HiddenTextRegions() []page.Rect
	// DecodePixels is how many pixels rendering must decode beyond the
	// raster itself (the source image of an image file; 0 for PDFs, whose
	// images MuPDF bounds with its own memory cap).
	DecodePixels() int64
	Render(ctx context.Context, dpi float64, maxPixels int64) (*page.Raster, error)
	Close()
}

// open opens the file at path with the decoder of its kind, which the job
// service sniffed when it took the file (sniffed here only for records
// older than that): a PDF is read by MuPDF through a file stream (a
// 100 MB upload is not held in memory while it is processed), an image
// is read whole. Failures to read a file's content are DocErrors: they
// become the document's error_message.
func (p *Pipeline) open(path, kindName string) (source, error) {
	kind := imagein.ParseKind(kindName)
	if kind == imagein.KindUnknown {
		head, err := readHead(path, imagein.SniffLen)
		if err != nil {
			return nil, fmt.Errorf("pipeline: read original: %w", err)
		}
		if kind, err = imagein.Sniff(head); err != nil {
			return nil, contract.DocErrorf("unsupported file type: not a PDF, PNG, JPEG, TIFF, GIF, BMP or WebP file")
		}
	}
	if kind == imagein.KindPDF {
		doc, err := mupdf.OpenFile(path, mupdf.Options{StoreBytes: p.cfg.MuPDFStoreBytes, MaxMemBytes: max(mupdfMaxMem, 4*p.cfg.MuPDFStoreBytes)})
		if err != nil {
			return nil, pdfError(err)
		}
		return &pdfSource{doc: doc}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("pipeline: read original: %w", err)
	}
	// The page bound here only stops the decoder walking a TIFF of a
	// million pages; the page limit itself is the job service's.
	doc, err := imagein.Open(data, maxImagePixels(p.cfg), p.cfg.MaxPagesPerDoc)
	if err != nil {
		return nil, contract.DocErrorf(fmt.Sprintf("image could not be decoded: %v", err))
	}
	return &imageSource{doc: doc}, nil
}

// mupdfMaxMem is the most MuPDF may allocate for one document at once: a
// page needing more (a decompression bomb, an image of billions of
// pixels) ends its document in error instead of taking the machine's
// memory. It is independent of the resource cache (mupdf-store-bytes),
// which MuPDF empties before it fails an allocation.
const mupdfMaxMem = 1 << 30

// readHead returns the first n bytes of the file at path (fewer when it
// is shorter).
func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	k, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:k], nil
}

// pdfError turns MuPDF's failures into caller-facing messages.
func pdfError(err error) error {
	switch {
	case errors.Is(err, mupdf.ErrEncrypted):
		return contract.DocErrorf("the PDF is password-protected; remove the password and upload it again")
	case errors.Is(err, mupdf.ErrNoPages):
		return contract.DocErrorf("the PDF has no pages")
	case errors.Is(err, mupdf.ErrOutOfMemory):
		return contract.DocErrorf("the PDF needs more memory than allowed to open")
	case errors.Is(err, mupdf.ErrCorrupt):
		return contract.DocErrorf("the PDF is damaged and could not be read")
	}
	return contract.DocErrorf("the PDF could not be read")
}

type pdfSource struct {
	doc *mupdf.Document
}

func (s *pdfSource) NumPages() int { return s.doc.NumPages() }
func (s *pdfSource) Close() error  { return s.doc.Close() }

func (s *pdfSource) Load(ctx context.Context, i int) (loadedPage, error) {
	pg, err := s.doc.LoadPage(ctx, i)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, pageError(err, i, "read")
	}
	return &pdfPage{p: pg}, nil
}

type pdfPage struct {
	p *mupdf.Page
}

func (p *pdfPage) Size() (float64, float64)  { return p.p.Width(), p.p.Height() }
func (p *pdfPage) Words() []page.Word        { return p.p.Words() }
func (p *pdfPage) ImageRegions() []page.Rect { return p.p.ImageRegions() }

func (p *pdfPage) HiddenTextRegions() []page.Rect { return p.p.HiddenTextRegions() }
func (p *pdfPage) Close()                         { p.p.Close() }
func (p *pdfPage) DecodePixels() int64            { return 0 }
func (p *pdfPage) Render(ctx context.Context, dpi float64, maxPixels int64) (*page.Raster, error) {
	r, err := p.p.Render(ctx, dpi, maxPixels)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, pageError(err, p.p.Index(), "rendered")
	}
	return r, nil
}

// imageSource serves the pages of an image file. Images have no text
// layer: their words come from OCR.
type imageSource struct {
	doc *imagein.Doc
}

func (s *imageSource) NumPages() int { return s.doc.NumPages() }
func (s *imageSource) Close() error  { return nil }

func (s *imageSource) Load(_ context.Context, i int) (loadedPage, error) {
	info, err := s.doc.Page(i)
	if err != nil {
		return nil, contract.DocErrorf(fmt.Sprintf("image page %d could not be read: %v", i+1, err))
	}
	return &imagePage{doc: s.doc, i: i, info: info}, nil
}

type imagePage struct {
	doc  *imagein.Doc
	i    int
	info imagein.PageInfo
}

func (p *imagePage) Size() (float64, float64) { return p.info.WidthPt, p.info.HeightPt }
func (p *imagePage) Words() []page.Word       { return nil }

// ImageRegions: an image file's page is one image, whole.
func (p *imagePage) ImageRegions() []page.Rect {
	return []page.Rect{{X1: p.info.WidthPt, Y1: p.info.HeightPt}}
}

func (p *imagePage) HiddenTextRegions() []page.Rect { return nil }
func (p *imagePage) Close()                         {}
func (p *imagePage) DecodePixels() int64 {
	return int64(p.info.WidthPx) * int64(p.info.HeightPx)
}
func (p *imagePage) Render(_ context.Context, dpi float64, maxPixels int64) (*page.Raster, error) {
	r, err := p.doc.Render(p.i, dpi, maxPixels)
	if err != nil {
		return nil, contract.DocErrorf(fmt.Sprintf("image page %d could not be decoded: %v", p.i+1, err))
	}
	return r, nil
}

// pageError is the caller-facing message for a page MuPDF failed on.
func pageError(err error, i int, what string) error {
	switch {
	case errors.Is(err, mupdf.ErrOutOfMemory):
		return contract.DocErrorf(fmt.Sprintf("page %d of the PDF needs more memory than allowed", i+1))
	case errors.Is(err, mupdf.ErrTooLarge):
		return contract.DocErrorf(fmt.Sprintf("page %d of the PDF is too large", i+1))
	}
	return contract.DocErrorf(fmt.Sprintf("page %d of the PDF could not be %s", i+1, what))
}

// maxImagePixels is the largest image file page accepted: twice the page
// raster limit (a 600 dpi A3 scan fits). Decoding needs several bytes per
// pixel, which the pixel budget accounts for (DecodePixels).
func maxImagePixels(cfg Settings) int64 { return 2 * cfg.MaxPagePixels }
