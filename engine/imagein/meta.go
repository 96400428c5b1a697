package imagein

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// meta is what an image file says about itself beyond its pixels.
type meta struct {
	dpiX, dpiY  float64 // declared resolution; 0 when unknown
	orientation int     // EXIF/TIFF orientation 1..8; 0 when absent
}

// pngMeta reads the pHYs chunk, which comes before the image data.
func pngMeta(b []byte) meta {
	p := b[8:] // after the signature
	for len(p) >= 12 {
		n := binary.BigEndian.Uint32(p)
		typ := string(p[4:8])
		if typ == "IDAT" || typ == "IEND" || uint64(n) > uint64(len(p)-12) {
			break
		}
		if typ == "pHYs" && n == 9 {
			x, y := binary.BigEndian.Uint32(p[8:]), binary.BigEndian.Uint32(p[12:])
			if p[16] == 1 { // pixels per metre
				return meta{dpiX: float64(x) * 0.0254, dpiY: float64(y) * 0.0254}
			}
			break
		}
		p = p[12+n:]
	}
	return meta{}
}

// jpegMeta reads the JFIF density (APP0) and the EXIF orientation and
// resolution (APP1), stopping at the first frame header.
func jpegMeta(b []byte) meta {
	var m, exif meta
	p := b[2:]
	for len(p) >= 4 {
		if p[0] != 0xFF {
			break
		}
		marker := p[1]
		if marker == 0xFF { // fill byte
			p = p[1:]
			continue
		}
		if marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 {
			p = p[2:]
			continue
		}
		n := int(binary.BigEndian.Uint16(p[2:]))
		if n < 2 || n+2 > len(p) {
			break
		}
		seg := p[4 : 2+n]
		switch {
		case marker == 0xE0 && len(seg) >= 12 && string(seg[:5]) == "JFIF\x00":
			unit, x, y := seg[7], binary.BigEndian.Uint16(seg[8:]), binary.BigEndian.Uint16(seg[10:])
			switch unit {
			case 1:
				m.dpiX, m.dpiY = float64(x), float64(y)
			case 2:
				m.dpiX, m.dpiY = float64(x)*2.54, float64(y)*2.54
			}
		case marker == 0xE1 && len(seg) >= 14 && string(seg[:6]) == "Exif\x00\x00":
			if ifds, _, err := walkTIFF(seg[6:], 1, false); err == nil && len(ifds) == 1 {
				exif = ifds[0].meta
			}
		}
		if marker == 0xDA || (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
			break // scan or frame header: no more metadata worth reading
		}
		p = p[2+n:]
	}
	m.orientation = exif.orientation
	if m.dpiX == 0 {
		m.dpiX, m.dpiY = exif.dpiX, exif.dpiY
	}
	return m
}

// bmpMeta reads the pixels-per-metre fields of a BITMAPINFOHEADER (or a
// later version of it).
func bmpMeta(b []byte) meta {
	if len(b) < 46 || binary.LittleEndian.Uint32(b[14:]) < 40 {
		return meta{}
	}
	x, y := int32(binary.LittleEndian.Uint32(b[38:])), int32(binary.LittleEndian.Uint32(b[42:]))
	if x <= 0 || y <= 0 {
		return meta{}
	}
	return meta{dpiX: float64(x) * 0.0254, dpiY: float64(y) * 0.0254}
}

// TIFF tags read here.
const (
	tagImageWidth     = 256
	tagImageLength    = 257
	tagOrientation    = 274
	tagXResolution    = 282
	tagYResolution    = 283
	tagResolutionUnit = 296
)

// maxIFDEntries bounds the work per directory; real files have a few dozen.
const maxIFDEntries = 4096

// ifd is one TIFF image file directory: a page.
type ifd struct {
	off  uint32
	w, h uint32
	meta
}

// errTooManyPages is wrapped by walkTIFF when the chain is longer than
// maxPages.
var errTooManyPages = errors.New("too many pages")

// walkTIFF follows the chain of directories of a TIFF structure (a TIFF
// file or an EXIF block), at most maxPages of them, refusing loops and
// offsets outside b. When all is false only the first is read.
func walkTIFF(b []byte, maxPages int, all bool) ([]ifd, binary.ByteOrder, error) {
	if len(b) < 8 {
		return nil, nil, errors.New("tiff: header truncated")
	}
	var bo binary.ByteOrder
	switch string(b[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return nil, nil, errors.New("tiff: bad header")
	}
	seen := map[uint32]bool{}
	var out []ifd
	for off := bo.Uint32(b[4:]); off != 0; {
		if seen[off] {
			return nil, nil, fmt.Errorf("tiff: directory chain loops back to offset %d", off)
		}
		seen[off] = true
		if len(out) == maxPages {
			return nil, nil, fmt.Errorf("tiff: more than %d pages: %w", maxPages, errTooManyPages)
		}
		d, next, err := readIFD(b, bo, off)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, d)
		if !all {
			break
		}
		off = next
	}
	if len(out) == 0 {
		return nil, nil, errors.New("tiff: no image directory")
	}
	return out, bo, nil
}

func readIFD(b []byte, bo binary.ByteOrder, off uint32) (ifd, uint32, error) {
	d := ifd{off: off}
	if uint64(off)+2 > uint64(len(b)) {
		return d, 0, fmt.Errorf("tiff: directory offset %d outside the file", off)
	}
	n := int(bo.Uint16(b[off:]))
	end := uint64(off) + 2 + 12*uint64(n) + 4
	if n > maxIFDEntries || end > uint64(len(b)) {
		return d, 0, fmt.Errorf("tiff: directory at %d runs past the end of the file", off)
	}
	unit := uint32(2) // inches, the TIFF default
	var xres, yres float64
	for i := range n {
		e := b[int(off)+2+12*i : int(off)+2+12*i+12]
		tag, typ, count := bo.Uint16(e), bo.Uint16(e[2:]), bo.Uint32(e[4:])
		if count == 0 {
			continue
		}
		switch tag {
		case tagImageWidth:
			d.w = intValue(e, bo, typ)
		case tagImageLength:
			d.h = intValue(e, bo, typ)
		case tagOrientation:
			d.orientation = int(intValue(e, bo, typ))
		case tagResolutionUnit:
			unit = intValue(e, bo, typ)
		case tagXResolution:
			xres = rational(b, e, bo, typ)
		case tagYResolution:
			yres = rational(b, e, bo, typ)
		}
	}
	switch unit {
	case 2:
		d.dpiX, d.dpiY = xres, yres
	case 3:
		d.dpiX, d.dpiY = xres*2.54, yres*2.54
	}
	if d.orientation < 1 || d.orientation > 8 {
		d.orientation = 0
	}
	return d, bo.Uint32(b[end-4:]), nil
}

// intValue reads a SHORT or LONG stored in the entry itself.
func intValue(e []byte, bo binary.ByteOrder, typ uint16) uint32 {
	switch typ {
	case 3: // SHORT
		return uint32(bo.Uint16(e[8:]))
	case 4: // LONG
		return bo.Uint32(e[8:])
	}
	return 0
}

// rational reads a RATIONAL, stored at the offset in the entry.
func rational(b, e []byte, bo binary.ByteOrder, typ uint16) float64 {
	if typ != 5 {
		return 0
	}
	off := uint64(bo.Uint32(e[8:]))
	if off+8 > uint64(len(b)) {
		return 0
	}
	num, den := bo.Uint32(b[off:]), bo.Uint32(b[off+4:])
	if den == 0 {
		return 0
	}
	return float64(num) / float64(den)
}

// tiffPage presents page k of a multi-page TIFF as a single-page file to
// golang.org/x/image/tiff, which only decodes the first directory: the
// header's first-directory offset is replaced by page k's.
type tiffPage struct {
	hdr [8]byte
	b   []byte
	pos int64
}

func newTIFFPage(b []byte, bo binary.ByteOrder, d ifd) *tiffPage {
	p := &tiffPage{b: b}
	copy(p.hdr[:], b[:8])
	bo.PutUint32(p.hdr[4:], d.off)
	return p
}

func (p *tiffPage) ReadAt(dst []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("tiff: negative offset")
	}
	if off >= int64(len(p.b)) {
		return 0, errEOF
	}
	n := copy(dst, p.b[off:])
	for i := off; i < int64(len(p.hdr)) && i < off+int64(n); i++ {
		dst[i-off] = p.hdr[i]
	}
	if n < len(dst) {
		return n, errEOF
	}
	return n, nil
}

func (p *tiffPage) Read(dst []byte) (int, error) {
	n, err := p.ReadAt(dst, p.pos)
	p.pos += int64(n)
	return n, err
}
