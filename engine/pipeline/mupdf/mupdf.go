// Package mupdf opens PDFs with MuPDF (1.24.9, linked statically through
// go-fitz's bundled libraries) and turns each page into what the pipeline
// needs: its size, its words with per-character quads tagged by source
// (page contents, form fields, annotations), the boxes of its images, and
// an RGB raster.
//
// All coordinates are MuPDF's display space, as package page defines it.
//
// Hostile input: everything MuPDF allocates for a document counts against
// Options.MaxMemBytes, the bytes its decompression filters produce per
// call against Options.MaxDecodedBytes, and those filters check the
// call's context (MuPDF itself does not while inflating); text that
// annotations and form fields would lay out is cut to what a widget can
// show before MuPDF synthesises their appearances; and the colour test
// reads a bounded number of image pixels per page. See rd.c.
//
// Concurrency: a Document serialises LoadPage (MuPDF documents are
// single-threaded), but Render may run on any number of pages, from any
// goroutines, at once: each render uses its own MuPDF context cloned from
// the document's, sharing its resource store under locks.
package mupdf

/*
#cgo CFLAGS: -I${SRCDIR}/include
#cgo LDFLAGS: -Wl,--wrap=fz_open_flated -Wl,--wrap=fz_open_lzwd -Wl,--wrap=fz_open_rld
#cgo LDFLAGS: -Wl,--wrap=fz_open_faxd -Wl,--wrap=fz_open_dctd -Wl,--wrap=pdf_open_contents_stream
#cgo LDFLAGS: -Wl,--wrap=hypotf
#include <stdlib.h>
#include "rd.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"sync"
	"unsafe"

	// go-fitz carries MuPDF's static libraries; importing it puts its cgo
	// LDFLAGS (-lmupdf_* -lmupdfthird_*) on the final link.
	_ "github.com/gen2brain/go-fitz"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/page/layout"
)

// Errors a caller may test with errors.Is. Their messages are safe to show
// to whoever uploaded the document.
var (
	ErrEncrypted = errors.New("mupdf: document is encrypted (password required)")
	ErrCorrupt   = errors.New("mupdf: document is damaged or not a PDF")
	ErrNoPages   = errors.New("mupdf: document has no pages")
	// ErrTooLarge: a render would exceed the caller's pixel limit.
	ErrTooLarge = errors.New("mupdf: page too large to render")
	// ErrOutOfMemory: MuPDF hit Options.MaxMemBytes (or the system's).
	ErrOutOfMemory = errors.New("mupdf: out of memory")
	ErrClosed      = errors.New("mupdf: document closed")
)

// Options tune a Document.
type Options struct {
	// StoreBytes caps MuPDF's resource store (decoded fonts, images),
	// which is shared by all renders of the document; 0 means 256 MiB.
	StoreBytes int64
	// MaxMemBytes caps everything MuPDF allocates for the document,
	// store included, so a hostile file fails instead of exhausting
	// memory; 0 means no cap. Rasters are Go memory and not counted.
	MaxMemBytes int64
	// MaxDecodedBytes caps the bytes MuPDF's decompression filters may
	// produce in one call (Open, LoadPage or Render), so a decompression
	// bomb (a few KB inflating to gigabytes of content stream or image)
	// fails or is cut short instead of keeping a worker busy for hours;
	// 0 means 2 GiB, negative means no cap. Those filters also check
	// the call's context, which MuPDF alone does not do while inflating.
	MaxDecodedBytes int64
}

const defaultMaxDecoded = 2 << 30

const defaultStore = 256 << 20

// Document is an open PDF.
type Document struct {
	mu     sync.Mutex // serialises the base MuPDF context: LoadPage, Close
	closed bool       // guarded by mu
	c      *C.rd_doc
	npages int

	refMu sync.Mutex
	refs  int // the document itself until Close, plus each open Page
}

// Open opens a PDF held in memory. It copies data (MuPDF reads the file
// lazily, and C may not keep pointers into Go memory), so the caller may
// reuse data as soon as Open returns. Encrypted documents that need a
// user password fail with ErrEncrypted; those with only an owner password
// open normally. Bytes that are not a PDF fail with ErrCorrupt, even when
// MuPDF could read them as another format.
func Open(data []byte, opts Options) (*Document, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty file", ErrCorrupt)
	}
	return open((*C.uchar)(unsafe.Pointer(&data[0])), len(data), nil, opts)
}

// OpenFile opens the PDF at path like Open, but reads it through a file
// stream instead of copying it into memory, so a large document costs
// only what MuPDF loads of it. The file must stay readable (an unlinked
// but open file is fine) until Close.
func OpenFile(path string, opts Options) (*Document, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("mupdf: %w", err)
	} else if st.Size() == 0 {
		return nil, fmt.Errorf("%w: empty file", ErrCorrupt)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return open(nil, 0, cpath, opts)
}

// open calls rd_open on size bytes at data, or on the file at path when
// path is not nil, with opts' limits and their defaults.
func open(data *C.uchar, size int, path *C.char, opts Options) (*Document, error) {
	store := opts.StoreBytes
	if store <= 0 {
		store = defaultStore
	}
	decoded := opts.MaxDecodedBytes
	switch {
	case decoded == 0:
		decoded = defaultMaxDecoded
	case decoded < 0:
		decoded = 0
	}
	var (
		errbuf [C.RD_ERRLEN]C.char
		cd     *C.rd_doc
		n      C.int
	)
	code := C.rd_open(data, C.size_t(size), path, C.size_t(store), C.size_t(max(opts.MaxMemBytes, 0)),
		C.int64_t(decoded), &cd, &n, &errbuf[0])
	if code != C.RD_OK {
		return nil, codeError(code, &errbuf, -1)
	}
	return &Document{c: cd, npages: int(n), refs: 1}, nil
}

// NumPages is the number of pages, at least 1.
func (d *Document) NumPages() int { return d.npages }

// MemUsed is the number of bytes MuPDF currently holds for the document
// (the copy of the file not included).
func (d *Document) MemUsed() int64 {
	d.refMu.Lock()
	defer d.refMu.Unlock()
	if d.refs == 0 {
		return 0
	}
	return int64(C.rd_mem_used(d.c))
}

// HeldBytes is the number of bytes MuPDF currently holds for every
// document of the process together, closed documents whose pages are
// still open included (what redactd_mupdf_bytes reports).
func HeldBytes() int64 { return int64(C.rd_mem_used_all()) }

// Close releases the document. Pages already loaded stay usable; MuPDF's
// memory is freed when the last of them is closed too. Every Document and
// Page must be closed: their memory is C memory the GC does not see.
func (d *Document) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	d.release()
	return nil
}

func (d *Document) acquire() {
	d.refMu.Lock()
	d.refs++
	d.refMu.Unlock()
}

func (d *Document) release() {
	d.refMu.Lock()
	defer d.refMu.Unlock()
	d.refs--
	if d.refs == 0 {
		C.rd_close(d.c)
		d.c = nil
	}
}

// Page is a loaded page: its display lists (kept for rendering), size,
// words and image regions.
type Page struct {
	doc           *Document
	mu            sync.RWMutex // renders share it; Close takes it alone
	c             *C.rd_page
	index         int
	width, height float64
	words         []page.Word
	images        []page.Rect
	hidden        []page.Rect
	color         bool
}

// LoadPage loads page i (0-based): it interprets the page once into
// display lists for its contents, annotations and form widgets
// (synthesising missing appearance streams first, so filled form values
// show), and extracts their text and image boxes. Calls are serialised per
// document. A cancelled ctx aborts interpretation.
func (d *Document) LoadPage(ctx context.Context, i int) (*Page, error) {
	if i < 0 || i >= d.npages {
		return nil, fmt.Errorf("mupdf: page %d out of range [0,%d)", i, d.npages)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, ErrClosed
	}
	var (
		errbuf [C.RD_ERRLEN]C.char
		cp     *C.rd_page
		code   C.int
	)
	err := withCookie(ctx, func(ck *C.fz_cookie) {
		code = C.rd_load_page(d.c, C.int(i), ck, &cp, &errbuf[0])
	})
	if err != nil {
		return nil, fmt.Errorf("mupdf: page %d: %w", i, err)
	}
	if code != C.RD_OK {
		return nil, codeError(code, &errbuf, i)
	}
	p := &Page{doc: d, c: cp, index: i, width: float64(cp.w), height: float64(cp.h), color: cp.color != 0}
	if cp.nchars > 0 {
		p.words = buildWords(unsafe.Slice(cp.chars, cp.nchars))
	}
	if cp.nimages > 0 {
		bounds := page.Rect{X1: p.width, Y1: p.height}
		for _, r := range unsafe.Slice(cp.images, cp.nimages) {
			ir := page.Rect{X0: float64(r.x0), Y0: float64(r.y0), X1: float64(r.x1), Y1: float64(r.y1)}.Intersect(bounds)
			if !ir.Empty() {
				p.images = append(p.images, ir)
			}
		}
	}
	if cp.nhidden > 0 {
		bounds := page.Rect{X1: p.width, Y1: p.height}
		for _, r := range unsafe.Slice(cp.hidden, cp.nhidden) {
			hr := page.Rect{X0: float64(r.x0), Y0: float64(r.y0), X1: float64(r.x1), Y1: float64(r.y1)}.Intersect(bounds)
			if !hr.Empty() {
				p.hidden = append(p.hidden, hr)
			}
		}
	}
	C.rd_free_text(cp)
	d.acquire()
	return p, nil
}

// Index is the page's 0-based number.
func (p *Page) Index() int { return p.index }

// Width is the page width in points, rotation applied.
func (p *Page) Width() float64 { return p.width }

// Height is the page height in points, rotation applied.
func (p *Page) Height() float64 { return p.height }

// Words returns the page's words in reading order: the page contents'
// text first, then annotations', then form fields', each laid out from
// its glyphs' boxes by package layout (lines in the order their first
// glyph was drawn). Words of a line are contiguous and share Line.
// Every call returns the same slice, which the Page never modifies; it
// stays valid after Close.
func (p *Page) Words() []page.Word { return p.words }

// ImageRegions returns the boxes of the images drawn on the page (contents,
// annotations and widgets), clipped to it, whatever their size; the
// caller decides which are worth OCR.
func (p *Page) ImageRegions() []page.Rect { return p.images }

// HiddenTextRegions returns the boxes of the page's invisible text
// (render mode 3), clipped to the page. Its words are among Words (an OCR
// layer over a scan is such text) but draw nothing, so they vouch for no
// ink under them.
func (p *Page) HiddenTextRegions() []page.Rect { return p.hidden }

// PixelSize is the raster size Render produces at dpi, so a caller can
// reserve memory before rendering.
func (p *Page) PixelSize(dpi float64) (w, h int) {
	s := dpi / 72
	return pixels(p.width * s), pixels(p.height * s)
}

// pixels rounds a length in pixels up the way MuPDF rounds boxes (a
// thousandth of slack against float noise), at least 1.
func pixels(v float64) int {
	if !(v < math.MaxInt32) { // also catches NaN
		return math.MaxInt32
	}
	return max(1, int(math.Ceil(v-0.001)))
}

// Color reports whether anything drawn on the page has colour. Render
// draws gray pages into one channel: a third of the memory, and no colour
// conversion later.
func (p *Page) Color() bool { return p.color }

// Render draws the page (contents, then annotations, then widgets) at dpi
// into an 8-bit raster from page.NewRaster on a white background: RGB
// when the page has colour, one gray channel otherwise (see Color).
// It refuses with ErrTooLarge, before allocating, when the raster would
// exceed maxPixels pixels (which must be positive). Render may be called
// from any goroutine, concurrently with LoadPage and other renders of the
// same document. A cancelled ctx aborts drawing.
func (p *Page) Render(ctx context.Context, dpi float64, maxPixels int64) (*page.Raster, error) {
	if !(dpi > 0 && dpi <= 10000) {
		return nil, fmt.Errorf("mupdf: page %d: bad dpi %v", p.index, dpi)
	}
	if maxPixels <= 0 {
		return nil, fmt.Errorf("mupdf: page %d: pixel limit must be positive", p.index)
	}
	w, h := p.PixelSize(dpi)
	if int64(w)*int64(h) > maxPixels || int64(w)*3 > math.MaxInt32 {
		return nil, fmt.Errorf("%w: page %d: %dx%d pixels at %v dpi, limit %d", ErrTooLarge, p.index, w, h, dpi, maxPixels)
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.c == nil {
		return nil, ErrClosed
	}
	channels := 3
	if !p.color {
		channels = 1
	}
	r := page.NewRaster(w, h, channels)
	var (
		errbuf [C.RD_ERRLEN]C.char
		code   C.int
	)
	err := withCookie(ctx, func(ck *C.fz_cookie) {
		code = C.rd_render(p.doc.c, p.c, C.float(dpi/72), C.int(w), C.int(h), C.int(r.Stride), C.int(boolInt(!p.color)),
			(*C.uchar)(unsafe.Pointer(&r.Pix[0])), ck, &errbuf[0])
	})
	if err != nil {
		err = fmt.Errorf("mupdf: page %d: %w", p.index, err)
	} else if code != C.RD_OK {
		err = codeError(code, &errbuf, p.index)
	}
	if err != nil {
		r.Release()
		return nil, err
	}
	return r, nil
}

// Close frees the page's display lists, after any renders in progress.
func (p *Page) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c == nil {
		return
	}
	C.rd_drop_page(p.doc.c, p.c)
	p.c = nil
	p.doc.release()
}

// withCookie runs fn with a MuPDF cookie that is aborted when ctx is
// cancelled, and reports ctx's error if it was.
func withCookie(ctx context.Context, fn func(*C.fz_cookie)) error {
	if ctx.Done() == nil {
		fn(nil)
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ck := C.rd_new_cookie()
	if ck == nil {
		return ErrOutOfMemory
	}
	defer C.free(unsafe.Pointer(ck))
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		C.rd_abort_cookie(ck)
		close(done)
	})
	fn(ck)
	if !stop() {
		<-done // the abort ran (or is running); ck must outlive it
		return ctx.Err()
	}
	return nil
}

// codeError turns an RD_* code and MuPDF's message into an error; page
// is the page concerned, or -1 for the document.
func codeError(code C.int, errbuf *[C.RD_ERRLEN]C.char, page int) error {
	msg := C.GoString(&errbuf[0])
	at := ""
	if page >= 0 {
		at = fmt.Sprintf("page %d: ", page)
	}
	switch code {
	case C.RD_CORRUPT:
		return fmt.Errorf("%w: %s%s", ErrCorrupt, at, msg)
	case C.RD_ENCRYPTED:
		return ErrEncrypted
	case C.RD_NOPAGES:
		return ErrNoPages
	case C.RD_NOMEM:
		return fmt.Errorf("%w: %s%s", ErrOutOfMemory, at, msg)
	case C.RD_ABORTED:
		return fmt.Errorf("mupdf: %saborted: %w", at, context.Canceled)
	}
	return fmt.Errorf("mupdf: %s%s", at, msg)
}

// sources maps rd.h's RD_SRC_* to page sources.
var sources = [C.RD_NSRC]page.Source{
	C.RD_SRC_CONTENTS: page.SourceTextLayer,
	C.RD_SRC_ANNOTS:   page.SourceAnnotation,
	C.RD_SRC_WIDGETS:  page.SourceFormField,
}

// builders hold the word builders' scratch memory between pages.
var builders = sync.Pool{New: func() any { return new(layout.Builder) }}

// glyphPool holds buildWords' glyph arrays (*[]layout.Glyph, no pointers
// inside) between pages: a page's glyphs were an eighth of the bytes a
// text page allocated. A page of more than maxPooledGlyphs characters
// does not keep its array.
var glyphPool sync.Pool

const maxPooledGlyphs = 1 << 18

// buildWords lays MuPDF's characters out into words by their geometry
// (package layout), each source apart: the page contents', then the
// annotations', then the form fields'. MuPDF's lines only hint at column
// gutters; drawing order does not decide what a word is.
func buildWords(chars []C.rd_char) []page.Word {
	gp, _ := glyphPool.Get().(*[]layout.Glyph)
	if gp == nil {
		gp = new([]layout.Glyph)
	}
	if cap(*gp) < len(chars) {
		*gp = make([]layout.Glyph, len(chars))
	}
	gs := (*gp)[:len(chars)] // every glyph is written below
	if len(chars) <= maxPooledGlyphs {
		defer glyphPool.Put(gp)
	}
	for i := range chars {
		c := &chars[i]
		gs[i] = layout.Glyph{
			R: rune(c.c),
			Q: page.Quad{
				UL: page.Point{X: float64(c.q[0]), Y: float64(c.q[1])},
				UR: page.Point{X: float64(c.q[2]), Y: float64(c.q[3])},
				LL: page.Point{X: float64(c.q[4]), Y: float64(c.q[5])},
				LR: page.Point{X: float64(c.q[6]), Y: float64(c.q[7])},
			},
			Font:  uint64(c.font),
			Plain: c.plain != 0,
			Line:  int32(c.line),
		}
	}
	b := builders.Get().(*layout.Builder)
	defer builders.Put(b)
	var words []page.Word
	line := 0
	for s := 0; s < len(chars); {
		e := s + 1
		for e < len(chars) && chars[e].src == chars[s].src {
			e++
		}
		words, line = b.Build(words, gs[s:e], sources[chars[s].src], line)
		s = e
	}
	return words
}

// rdLog receives MuPDF's warnings (level 0) and errors (level 1). They may
// quote document content, so they are logged at debug level only.
//
//export rdLog
func rdLog(level C.int, msg *C.char) {
	if !slog.Default().Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	kind := "warning"
	if level == 1 {
		kind = "error"
	}
	slog.Debug("mupdf "+kind, "msg", C.GoString(msg))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setStextICC makes LoadPage extract text with ICC colour management on
// (true) or off (false, the default; see rd_load_page): the words must be
// the same either way (TestTextWithoutICC).
func setStextICC(on bool) { C.rd_stext_icc = C.int(boolInt(on)) }
