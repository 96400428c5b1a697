// Package pdfout writes redactd's output: an image-only PDF, one image per
// page drawn over the whole MediaBox, nothing else.
//
// The format is deliberately tiny so that it can be read in one sitting,
// fuzzed, and checked by Verify before a document is released:
//
//	%PDF-1.7 + binary comment
//	per page, written as soon as the page is added:
//	  n   image XObject (DeviceGray or DeviceRGB; FlateDecode with PNG
//	      predictors, or DCTDecode)
//	  n+1 content stream "q W 0 0 H 0 0 cm /Im0 Do Q"
//	  n+2 Page
//	at Close: 2 Pages, 1 Catalog, xref table, trailer (/Size, /Root only)
//
// There is no /Info, /ID, metadata, font, annotation, outline, action,
// form or attachment, and a single revision, so nothing of the original
// document can survive except the pixels.
package pdfout

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/redactd/redactd/engine/page"
)

// Options tune the encoder.
type Options struct {
	// JPEGQuality is used for photographic pages, 1..100; 0 means
	// DefaultJPEGQuality (85).
	JPEGQuality int
	// TextBits is the bits per sample of text-like pages (Flate): 8 keeps
	// every pixel exactly; 4 keeps 16 levels per channel, which
	// anti-aliased text does not visibly need, and about halves the file
	// (a dense 150 dpi text page: 260 KB at 8 bits, 146 KB at 4). 0 means
	// DefaultTextBits (4). Pages that are not text-like always keep 8 bits.
	TextBits int
}

// PageStats describes how a page was written.
type PageStats struct {
	Bytes    int64  // bytes the page added to the file (all three objects)
	Encoding string // EncodingFlate or EncodingJPEG
	Gray     bool   // written as DeviceGray
	Bits     int    // bits per sample, 4 (text-like pages) or 8
}

// ErrNoPages is returned by Close when no page was added: a PDF needs at
// least one page.
var ErrNoPages = errors.New("pdfout: document has no pages")

// Object numbers reserved up front, written at Close, so pages stream.
const (
	catalogObj = 1
	pagesObj   = 2
	firstFree  = 3
)

// Header is the first bytes of every file: the version and a comment of
// bytes above 127 that marks the file as binary for transfer programs.
const Header = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n"

// Writer streams an image-only PDF. It is not safe for concurrent use; to
// encode pages in parallel, call Encode on many goroutines and
// WriteEncoded in page order on one.
type Writer struct {
	bw      *bufio.Writer
	off     int64   // bytes written so far
	offsets []int64 // file offset of each object, by number; 0 unused
	pages   []int   // object numbers of the Page objects
	opts    Options
	err     error // sticky: after a failure every call returns it
	closed  bool
	scratch []byte
}

// NewWriter writes the header to w and returns a Writer. w is not closed by
// the Writer.
func NewWriter(w io.Writer, opts Options) (*Writer, error) {
	if _, _, err := opts.resolve(); err != nil {
		return nil, err
	}
	pw := &Writer{bw: bufio.NewWriterSize(w, 64<<10), offsets: make([]int64, firstFree), opts: opts}
	pw.writeString(Header)
	if pw.err != nil {
		return nil, pw.err
	}
	return pw, nil
}

// AddPage encodes r and appends it as a page of widthPt x heightPt points.
// The page's objects are written immediately; nothing of previous pages is
// held. r is only read.
func (w *Writer) AddPage(r *page.Raster, widthPt, heightPt float64) (PageStats, error) {
	if err := w.usable(); err != nil {
		return PageStats{}, err
	}
	e, err := Encode(r, widthPt, heightPt, w.opts)
	if err != nil {
		return PageStats{}, err
	}
	return w.WriteEncoded(e)
}

// WriteEncoded appends a page encoded by Encode and releases it.
func (w *Writer) WriteEncoded(e *EncodedPage) (PageStats, error) {
	defer e.Release()
	if err := w.usable(); err != nil {
		return PageStats{}, err
	}
	if e == nil || e.data == nil {
		return PageStats{}, errors.New("pdfout: page already released")
	}
	start := w.off
	img, content, pg := w.newObj(), w.newObj(), w.newObj()

	// Image XObject.
	b := w.beginObj(img)
	b = append(b, "<< /Type /XObject /Subtype /Image /Width "...)
	b = appendInt(b, int64(e.width))
	b = append(b, " /Height "...)
	b = appendInt(b, int64(e.height))
	colors := 3
	if e.gray {
		colors = 1
		b = append(b, " /ColorSpace /DeviceGray"...)
	} else {
		b = append(b, " /ColorSpace /DeviceRGB"...)
	}
	b = append(b, " /BitsPerComponent "...)
	b = appendInt(b, int64(e.bits))
	if e.encoding == EncodingJPEG {
		b = append(b, " /Filter /DCTDecode"...)
	} else {
		b = append(b, " /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors "...)
		b = appendInt(b, int64(colors))
		b = append(b, " /BitsPerComponent "...)
		b = appendInt(b, int64(e.bits))
		b = append(b, " /Columns "...)
		b = appendInt(b, int64(e.width))
		b = append(b, " >>"...)
	}
	w.writeStream(b, e.data.Bytes())

	// Content stream: scale the unit square to the page, draw the image.
	var cbuf [96]byte
	c := append(cbuf[:0], "q "...)
	c = formatPt(c, e.widthPt)
	c = append(c, " 0 0 "...)
	c = formatPt(c, e.heightPt)
	c = append(c, " 0 0 cm /Im0 Do Q"...)
	b = w.beginObj(content)
	b = append(b, "<<"...)
	w.writeStream(b, c)

	// Page.
	b = w.beginObj(pg)
	b = append(b, "<< /Type /Page /Parent "...)
	b = appendRef(b, pagesObj)
	b = append(b, " /MediaBox [0 0 "...)
	b = formatPt(b, e.widthPt)
	b = append(b, ' ')
	b = formatPt(b, e.heightPt)
	b = append(b, "] /Resources << /XObject << /Im0 "...)
	b = appendRef(b, img)
	b = append(b, " >> >> /Contents "...)
	b = appendRef(b, content)
	b = append(b, " >>\nendobj\n"...)
	w.write(b)

	if w.err != nil {
		return PageStats{}, w.err
	}
	w.pages = append(w.pages, pg)
	return PageStats{Bytes: w.off - start, Encoding: e.encoding, Gray: e.gray, Bits: e.bits}, nil
}

// Close writes the page tree, the catalog, the cross-reference table and
// the trailer, and flushes. It does not close the underlying writer.
func (w *Writer) Close() error {
	if err := w.usable(); err != nil {
		return err
	}
	w.closed = true
	if len(w.pages) == 0 {
		w.err = ErrNoPages
		return w.err
	}
	b := w.beginObj(pagesObj)
	b = append(b, "<< /Type /Pages /Kids ["...)
	for i, p := range w.pages {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendRef(b, p)
		if len(b) > 32<<10 {
			w.write(b)
			b = w.scratch[:0]
		}
	}
	b = append(b, "] /Count "...)
	b = appendInt(b, int64(len(w.pages)))
	b = append(b, " >>\nendobj\n"...)
	w.write(b)

	b = w.beginObj(catalogObj)
	b = append(b, "<< /Type /Catalog /Pages "...)
	b = appendRef(b, pagesObj)
	b = append(b, " >>\nendobj\n"...)
	w.write(b)

	xref := w.off
	b = append(w.scratch[:0], "xref\n0 "...)
	b = appendInt(b, int64(len(w.offsets)))
	b = append(b, "\n0000000000 65535 f \n"...)
	for _, off := range w.offsets[1:] {
		b = appendPadded(b, off, 10)
		b = append(b, " 00000 n \n"...)
		if len(b) > 32<<10 {
			w.write(b)
			b = w.scratch[:0]
		}
	}
	b = append(b, "trailer\n<< /Size "...)
	b = appendInt(b, int64(len(w.offsets)))
	b = append(b, " /Root "...)
	b = appendRef(b, catalogObj)
	b = append(b, " >>\nstartxref\n"...)
	b = appendInt(b, xref)
	b = append(b, "\n%%EOF\n"...)
	w.write(b)
	if w.err == nil {
		if err := w.bw.Flush(); err != nil {
			w.err = fmt.Errorf("pdfout: %w", err)
		}
	}
	return w.err
}

// Pages is the number of pages written so far.
func (w *Writer) Pages() int { return len(w.pages) }

func (w *Writer) usable() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("pdfout: writer is closed")
	}
	return nil
}

func (w *Writer) newObj() int {
	w.offsets = append(w.offsets, 0)
	return len(w.offsets) - 1
}

// beginObj records the object's offset and returns the scratch buffer with
// "N 0 obj\n" in it. The buffer is written with w.write.
func (w *Writer) beginObj(n int) []byte {
	w.offsets[n] = w.off
	b := appendInt(w.scratch[:0], int64(n))
	return append(b, " 0 obj\n"...)
}

// writeStream completes a stream object whose dictionary in b is open
// (its closing ">>" not yet written): it adds /Length and the data.
func (w *Writer) writeStream(b, data []byte) {
	b = append(b, " /Length "...)
	b = appendInt(b, int64(len(data)))
	b = append(b, " >>\nstream\n"...)
	w.write(b)
	w.writeData(data)
	w.writeString("\nendstream\nendobj\n")
}

// write writes b, which was built on w.scratch, and keeps b's memory as
// the scratch buffer when appending grew it.
func (w *Writer) write(b []byte) {
	w.writeData(b)
	if cap(b) > cap(w.scratch) && cap(b) <= 1<<20 {
		w.scratch = b[:0]
	}
}

// writeData writes bytes the Writer does not own (image data).
func (w *Writer) writeData(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.bw.Write(b)
	w.off += int64(n)
	if err != nil {
		w.err = fmt.Errorf("pdfout: %w", err)
	}
}

func (w *Writer) writeString(s string) {
	if w.err != nil {
		return
	}
	n, err := w.bw.WriteString(s)
	w.off += int64(n)
	if err != nil {
		w.err = fmt.Errorf("pdfout: %w", err)
	}
}

func appendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

func appendFloat(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'f', -1, 64) }

func appendRef(b []byte, n int) []byte {
	b = appendInt(b, int64(n))
	return append(b, " 0 R"...)
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(b []byte, v int64, width int) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], v, 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
