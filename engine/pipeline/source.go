package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/redactd/redactd/engine"
	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/mupdf"
	"github.com/redactd/redactd/engine/page"
)

// source is an opened input document of any kind.
type source interface {
	NumPages() int
	// Load prepares page i: its size, words and image regions, and what
	// Render needs. Sources serialise Load themselves.
	Load(i int) (loadedPage, error)
	Close() error
}

// loadedPage is a page ready to render. Render may run on any goroutine.
type loadedPage interface {
	Size() (w, h float64)
	Words() []page.Word
	ImageRegions() []page.Rect
	Render(dpi float64, maxPixels int64) (*page.Raster, error)
	Close()
}

// open sniffs data and opens it with the matching decoder. Failures are
// DocErrors: they become the document's error_message.
func (p *Pipeline) open(ctx context.Context, data []byte) (source, error) {
	kind, err := imagein.Sniff(data)
	if err != nil {
		return nil, engine.DocErrorf("unsupported file type: not a PDF, PNG, JPEG, TIFF, GIF, BMP or WebP file")
	}
	if kind == imagein.KindPDF {
		doc, err := mupdf.Open(data, mupdf.Options{StoreBytes: p.cfg.MuPDFStoreBytes, MaxMemBytes: 4 * p.cfg.MuPDFStoreBytes})
		if err != nil {
			return nil, pdfError(err)
		}
		return &pdfSource{ctx: ctx, doc: doc}, nil
	}
	doc, err := imagein.Open(data, 4*p.cfg.MaxPagePixels, p.cfg.MaxPagesPerDoc)
	if err != nil {
		return nil, engine.DocErrorf(fmt.Sprintf("image could not be decoded: %v", err))
	}
	return &imageSource{doc: doc}, nil
}

// pdfError turns MuPDF's failures into caller-facing messages.
func pdfError(err error) error {
	switch {
	case errors.Is(err, mupdf.ErrEncrypted):
		return engine.DocErrorf("the PDF is password-protected; remove the password and upload it again")
	case errors.Is(err, mupdf.ErrNoPages):
		return engine.DocErrorf("the PDF has no pages")
	case errors.Is(err, mupdf.ErrOutOfMemory):
		return engine.DocErrorf("the PDF needs more memory than allowed to open")
	case errors.Is(err, mupdf.ErrCorrupt):
		return engine.DocErrorf("the PDF is damaged and could not be read")
	}
	return engine.DocErrorf("the PDF could not be read")
}

type pdfSource struct {
	ctx context.Context
	doc *mupdf.Document
}

func (s *pdfSource) NumPages() int { return s.doc.NumPages() }
func (s *pdfSource) Close() error  { return s.doc.Close() }

func (s *pdfSource) Load(i int) (loadedPage, error) {
	pg, err := s.doc.LoadPage(s.ctx, i)
	if err != nil {
		if s.ctx.Err() != nil {
			return nil, s.ctx.Err()
		}
		return nil, engine.DocErrorf(fmt.Sprintf("page %d of the PDF could not be read", i+1))
	}
	return &pdfPage{ctx: s.ctx, p: pg}, nil
}

type pdfPage struct {
	ctx context.Context
	p   *mupdf.Page
}

func (p *pdfPage) Size() (float64, float64)  { return p.p.Width(), p.p.Height() }
func (p *pdfPage) Words() []page.Word        { return p.p.Words() }
func (p *pdfPage) ImageRegions() []page.Rect { return p.p.ImageRegions() }
func (p *pdfPage) Close()                    { p.p.Close() }
func (p *pdfPage) Render(dpi float64, maxPixels int64) (*page.Raster, error) {
	r, err := p.p.Render(p.ctx, dpi, maxPixels)
	if err != nil {
		if p.ctx.Err() != nil {
			return nil, p.ctx.Err()
		}
		return nil, engine.DocErrorf(fmt.Sprintf("page %d of the PDF could not be rendered", p.p.Index()+1))
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

func (s *imageSource) Load(i int) (loadedPage, error) {
	info, err := s.doc.Page(i)
	if err != nil {
		return nil, engine.DocErrorf(fmt.Sprintf("image page %d could not be read: %v", i+1, err))
	}
	return &imagePage{doc: s.doc, i: i, info: info}, nil
}

type imagePage struct {
	doc  *imagein.Doc
	i    int
	info imagein.PageInfo
}

func (p *imagePage) Size() (float64, float64)  { return p.info.WidthPt, p.info.HeightPt }
func (p *imagePage) Words() []page.Word        { return nil }
func (p *imagePage) ImageRegions() []page.Rect { return nil }
func (p *imagePage) Close()                    {}
func (p *imagePage) Render(dpi float64, maxPixels int64) (*page.Raster, error) {
	r, err := p.doc.Render(p.i, dpi, maxPixels)
	if err != nil {
		return nil, engine.DocErrorf(fmt.Sprintf("image page %d could not be decoded: %v", p.i+1, err))
	}
	return r, nil
}
