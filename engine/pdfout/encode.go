package pdfout

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"sync"

	"github.com/klauspost/compress/flate"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/kernels"
)

// Encoding decisions. The thresholds are on kernels.PhotoScore, the
// fraction of neighbouring pixels that differ by a small non-zero amount:
// rendered text and line art score near 0, photographs and scans with
// paper noise well above 0.3.
const (
	// grayTolerance is the largest channel spread of a pixel still written
	// as gray. Rendered black text is exactly gray; a small tolerance also
	// folds the colour noise of scanned black-and-white pages into gray,
	// a third of the data, without a visible change.
	grayTolerance = 6
	// Below photoLow a page is text-like and only Flate is tried.
	photoLow = 0.10
	// At or above photoHigh a page is photographic and only JPEG is
	// tried; in between both are encoded and the smaller one kept.
	photoHigh = 0.35
	// maxJPEGSide is image/jpeg's limit on either dimension.
	maxJPEGSide = 1<<16 - 1
	// DefaultJPEGQuality applies when Options.JPEGQuality is 0.
	DefaultJPEGQuality = 85
	// DefaultTextBits applies when Options.TextBits is 0.
	DefaultTextBits = 4
)

// Encoding names reported in PageStats.
const (
	EncodingFlate = "flate"
	EncodingJPEG  = "jpeg"
)

// EncodedPage is a page whose image is compressed and whose objects are not
// yet numbered. Encoding is the expensive part of writing a page and is
// safe to run on many goroutines; writing (Writer.WriteEncoded) is cheap
// and must happen in page order on one.
type EncodedPage struct {
	width, height     int     // pixels
	widthPt, heightPt float64 // MediaBox
	gray              bool
	bits              int // bits per sample: 4 or 8
	encoding          string
	data              *bytes.Buffer // the image stream, pooled
}

// Release returns the page's buffer to the pool; the page must not be used
// afterwards. Writer.WriteEncoded releases the page itself.
func (e *EncodedPage) Release() {
	if e != nil && e.data != nil {
		putBuffer(e.data)
		e.data = nil
	}
}

// Size is the size of the compressed image stream in bytes (0 once
// released).
func (e *EncodedPage) Size() int {
	if e == nil || e.data == nil {
		return 0
	}
	return e.data.Len()
}

var (
	bufferPool  sync.Pool // *bytes.Buffer
	zlibPool    sync.Pool // *zlibWriter
	scratchPool sync.Pool // *scratch
)

// maxPooledBuffer keeps freak pages (a poster at full resolution) from
// pinning their buffers in the pool.
const maxPooledBuffer = 64 << 20

func getBuffer() *bytes.Buffer {
	if b, ok := bufferPool.Get().(*bytes.Buffer); ok {
		b.Reset()
		return b
	}
	return new(bytes.Buffer)
}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooledBuffer {
		bufferPool.Put(b)
	}
}

// scratch holds the per-encode working memory: converted rows, the filter
// state and the YCbCr planes for JPEG.
type scratch struct {
	rows     [2][]byte // this row and the one above, as written
	gray     []byte    // a row converted to gray
	rf       kernels.RowFilter
	planes   []byte
	grayPage []byte
}

func getScratch() *scratch {
	if s, ok := scratchPool.Get().(*scratch); ok {
		return s
	}
	return new(scratch)
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// Encode compresses r for a page of widthPt x heightPt points. It picks
// DeviceGray when every pixel is gray within a small tolerance, and Flate
// with PNG predictors or JPEG by how photographic the page looks (see
// photoLow and photoHigh). r is only read; the caller still owns it.
func Encode(r *page.Raster, widthPt, heightPt float64, opts Options) (*EncodedPage, error) {
	if err := checkRaster(r); err != nil {
		return nil, err
	}
	if !(widthPt > 0 && heightPt > 0 && widthPt <= maxPagePt && heightPt <= maxPagePt) {
		return nil, fmt.Errorf("pdfout: page size %gx%g pt outside (0, %d]", widthPt, heightPt, maxPagePt)
	}
	q, textBits, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	e := &EncodedPage{width: r.W, height: r.H, widthPt: widthPt, heightPt: heightPt, bits: 8}
	e.gray = r.Channels == 1 || kernels.IsGray(r.Pix, r.W, r.H, r.Stride, grayTolerance)
	score := kernels.PhotoScore(r.Pix, r.W, r.H, r.Stride, r.Channels)
	canJPEG := r.W <= maxJPEGSide && r.H <= maxJPEGSide

	s := getScratch()
	defer scratchPool.Put(s)
	if score < photoLow || !canJPEG {
		// Text-like (or too big for JPEG): Flate only.
		text := score < photoLow
		if text {
			e.bits = textBits
		}
		e.data, e.encoding = getBuffer(), EncodingFlate
		if err := encodeFlate(e.data, r, e.gray, e.bits, text, s); err != nil {
			e.Release()
			return nil, err
		}
		return e, nil
	}
	jpegBuf := getBuffer()
	if err := encodeJPEG(jpegBuf, r, e.gray, q, s); err != nil {
		putBuffer(jpegBuf)
		return nil, err
	}
	e.data, e.encoding = jpegBuf, EncodingJPEG
	if score >= photoHigh {
		return e, nil
	}
	// In between (charts, screenshots, light scans): keep the smaller.
	flateBuf := getBuffer()
	if err := encodeFlate(flateBuf, r, e.gray, 8, false, s); err != nil {
		putBuffer(flateBuf)
		e.Release()
		return nil, err
	}
	if flateBuf.Len() <= jpegBuf.Len() {
		putBuffer(jpegBuf)
		e.data, e.encoding = flateBuf, EncodingFlate
	} else {
		putBuffer(flateBuf)
	}
	return e, nil
}

// resolve applies defaults and checks the options.
func (o Options) resolve() (quality, textBits int, err error) {
	quality, textBits = o.JPEGQuality, o.TextBits
	if quality == 0 {
		quality = DefaultJPEGQuality
	}
	if textBits == 0 {
		textBits = DefaultTextBits
	}
	if quality < 1 || quality > 100 {
		return 0, 0, fmt.Errorf("pdfout: JPEG quality %d outside 1..100", quality)
	}
	if textBits != 4 && textBits != 8 {
		return 0, 0, fmt.Errorf("pdfout: text bits %d, want 4 or 8", textBits)
	}
	return quality, textBits, nil
}

// maxPagePt bounds the page size in points; far beyond PDF's customary
// 14400 but keeps numbers in the output short and sane.
const maxPagePt = 1 << 20

func checkRaster(r *page.Raster) error {
	switch {
	case r == nil:
		return errors.New("pdfout: nil raster")
	case r.Channels != 1 && r.Channels != 3:
		return fmt.Errorf("pdfout: raster has %d channels, want 1 or 3", r.Channels)
	case r.W <= 0 || r.H <= 0:
		return fmt.Errorf("pdfout: empty raster %dx%d", r.W, r.H)
	case r.Stride < r.W*r.Channels:
		return fmt.Errorf("pdfout: raster stride %d below row size %d", r.Stride, r.W*r.Channels)
	case int64(len(r.Pix)) < int64(r.H-1)*int64(r.Stride)+int64(r.W*r.Channels):
		return fmt.Errorf("pdfout: raster buffer of %d bytes too small for %dx%dx%d", len(r.Pix), r.W, r.H, r.Channels)
	}
	return nil
}

// encodeFlate writes the zlib stream of r's rows with PNG predictors
// (PDF /Predictor 15: a filter type byte per row). Text-like pages use
// RowFilter.FilterText, others the per-row minimum-sum choice. Gray output
// of an RGB raster and 4-bit packing are done row by row, so no second
// page buffer is needed.
func encodeFlate(dst *bytes.Buffer, r *page.Raster, gray bool, bits int, text bool, s *scratch) error {
	zw, ok := zlibPool.Get().(*zlibWriter)
	if !ok {
		zw = new(zlibWriter)
	}
	if err := zw.reset(dst); err != nil {
		return err
	}
	defer zlibPool.Put(zw)
	colors := r.Channels
	if gray {
		colors = 1
	}
	convert := gray && r.Channels == 3
	samples := r.W * colors
	rowLen := samples
	if bits == 4 {
		rowLen = kernels.Pack4Size(samples)
	}
	bpp := max(1, (colors*bits+7)/8)
	s.gray = grow(s.gray, samples)
	s.rows[0], s.rows[1] = grow(s.rows[0], rowLen), grow(s.rows[1], rowLen)
	var prev []byte
	for y := 0; y < r.H; y++ {
		cur := r.Pix[y*r.Stride : y*r.Stride+r.W*r.Channels]
		if convert {
			kernels.RGBToGray(s.gray, samples, cur, len(cur), r.W, 1)
			cur = s.gray
		}
		if bits == 4 {
			kernels.Pack4(s.rows[y&1], cur)
			cur = s.rows[y&1]
		} else if convert {
			copy(s.rows[y&1], cur)
			cur = s.rows[y&1]
		}
		var row []byte
		if text {
			row = s.rf.FilterText(cur, prev)
		} else {
			row = s.rf.Filter(cur, prev, bpp)
		}
		if err := zw.write(row); err != nil {
			return fmt.Errorf("pdfout: compress: %w", err)
		}
		prev = cur
	}
	if err := zw.close(); err != nil {
		return fmt.Errorf("pdfout: compress: %w", err)
	}
	return nil
}

// zlibWriter writes the zlib stream (RFC 1950) that zlib.NewWriterLevel
// at zlib.BestSpeed writes, byte for byte (TestZlibWriterMatchesZlib):
// the header, klauspost/compress's Flate at level 1, the Adler-32 of the
// data, with kernels.Adler32 in place of hash/adler32.
type zlibWriter struct {
	dst   *bytes.Buffer
	fw    *flate.Writer
	adler uint32
}

// zlibHeader is zlib's header for a 32 KiB window, the fastest level and
// no dictionary (CMF 0x78, FLG 0x01: FLEVEL 0 and the mod-31 check).
var zlibHeader = [2]byte{0x78, 0x01}

func (z *zlibWriter) reset(dst *bytes.Buffer) error {
	z.dst, z.adler = dst, 1
	if z.fw == nil {
		fw, err := flate.NewWriter(dst, flate.BestSpeed)
		if err != nil {
			return fmt.Errorf("pdfout: zlib: %w", err)
		}
		z.fw = fw
	} else {
		z.fw.Reset(dst)
	}
	dst.Write(zlibHeader[:])
	return nil
}

func (z *zlibWriter) write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if _, err := z.fw.Write(p); err != nil {
		return err
	}
	z.adler = kernels.Adler32(z.adler, p)
	return nil
}

func (z *zlibWriter) close() error {
	if err := z.fw.Close(); err != nil {
		return err
	}
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], z.adler)
	z.dst.Write(sum[:])
	return nil
}

// encodeJPEG writes r as a baseline JPEG: one component for gray, else
// YCbCr planes converted by a kernel (image/jpeg's fast path for
// *image.YCbCr; an RGB image would go through image.Image.At per pixel).
func encodeJPEG(dst *bytes.Buffer, r *page.Raster, gray bool, quality int, s *scratch) error {
	rect := image.Rect(0, 0, r.W, r.H)
	var img image.Image
	switch {
	case r.Channels == 1:
		img = &image.Gray{Pix: r.Pix, Stride: r.Stride, Rect: rect}
	case gray:
		s.grayPage = grow(s.grayPage, r.W*r.H)
		kernels.RGBToGray(s.grayPage, r.W, r.Pix, r.Stride, r.W, r.H)
		img = &image.Gray{Pix: s.grayPage, Stride: r.W, Rect: rect}
	default:
		n := r.W * r.H
		s.planes = grow(s.planes, 3*n)
		y, cb, cr := s.planes[:n:n], s.planes[n:2*n:2*n], s.planes[2*n:]
		kernels.RGBToYCbCr(y, cb, cr, r.W, r.Pix, r.Stride, r.W, r.H)
		img = &image.YCbCr{Y: y, Cb: cb, Cr: cr, YStride: r.W, CStride: r.W,
			SubsampleRatio: image.YCbCrSubsampleRatio444, Rect: rect}
	}
	if err := jpeg.Encode(dst, img, &jpeg.Options{Quality: quality}); err != nil {
		return fmt.Errorf("pdfout: jpeg: %w", err)
	}
	return nil
}

// formatPt renders a length in points with at most three decimals.
func formatPt(b []byte, v float64) []byte {
	v = math.Round(v*1000) / 1000
	if v == math.Trunc(v) {
		return appendInt(b, int64(v))
	}
	return appendFloat(b, v)
}
