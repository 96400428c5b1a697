package imagein

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"
)

// Builders for test files. Where the standard encoders cannot write what
// a test needs (PNG pHYs, JFIF density, EXIF orientation, multi-page
// TIFF), the bytes are assembled here following the format specifications.

// testImage is an RGB image with distinct quadrants and noise, so that
// orientation and scaling mistakes show.
func testImage(w, h int, seed uint64) *image.NRGBA {
	rng := rand.New(rand.NewPCG(seed, 7))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	quad := [4]color.NRGBA{{200, 30, 30, 255}, {30, 200, 30, 255}, {30, 30, 200, 255}, {220, 220, 40, 255}}
	for y := range h {
		for x := range w {
			q := quad[2*(2*y/h)+2*x/w]
			n := uint8(rng.IntN(8))
			img.SetNRGBA(x, y, color.NRGBA{q.R + n, q.G + n, q.B + n, 255})
		}
	}
	return img
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pngChunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(c, typ...)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// withPHYs inserts a pHYs chunk (pixels per metre) after IHDR.
func withPHYs(p []byte, dpi float64) []byte {
	ppm := uint32(dpi/0.0254 + 0.5)
	d := binary.BigEndian.AppendUint32(nil, ppm)
	d = binary.BigEndian.AppendUint32(d, ppm)
	d = append(d, 1)
	ihdrEnd := 8 + 12 + 13
	out := append([]byte(nil), p[:ihdrEnd]...)
	out = append(out, pngChunk("pHYs", d)...)
	return append(out, p[ihdrEnd:]...)
}

func encodeJPEG(t testing.TB, img image.Image, q int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withSegment inserts a JPEG marker segment right after SOI.
func withSegment(j []byte, marker byte, data []byte) []byte {
	seg := []byte{0xFF, marker}
	seg = binary.BigEndian.AppendUint16(seg, uint16(len(data)+2))
	seg = append(seg, data...)
	out := append([]byte(nil), j[:2]...)
	out = append(out, seg...)
	return append(out, j[2:]...)
}

func jfif(dpi uint16) []byte {
	d := []byte("JFIF\x00\x01\x02\x01")
	d = binary.BigEndian.AppendUint16(d, dpi)
	d = binary.BigEndian.AppendUint16(d, dpi)
	return append(d, 0, 0)
}

// exifOrientation is an APP1 EXIF block holding only an orientation tag.
func exifOrientation(o uint16, bo order) []byte {
	d := []byte("Exif\x00\x00")
	if bo.String() == binary.LittleEndian.String() {
		d = append(d, "II*\x00"...)
	} else {
		d = append(d, "MM\x00*"...)
	}
	d = bo.AppendUint32(d, 8)
	d = bo.AppendUint16(d, 1)
	d = bo.AppendUint16(d, tagOrientation)
	d = bo.AppendUint16(d, 3)
	d = bo.AppendUint32(d, 1)
	d = bo.AppendUint16(d, o)
	d = bo.AppendUint16(d, 0)
	return bo.AppendUint32(d, 0)
}

// order is a byte order that can also append.
type order interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// tiffPageSpec is one page of a built TIFF: 8-bit RGB, uncompressed.
type tiffPageSpec struct {
	img         *image.NRGBA
	dpi         uint32 // 0: no resolution tags
	orientation uint16 // 0: no tag
}

// buildTIFF writes a baseline multi-page TIFF. next, when not nil,
// rewrites each directory's next-directory offset (for loops).
func buildTIFF(bo order, pages []tiffPageSpec, next func(i int, ifdOffs []uint32) uint32) []byte {
	var b []byte
	if bo.String() == binary.LittleEndian.String() {
		b = append(b, "II*\x00"...)
	} else {
		b = append(b, "MM\x00*"...)
	}
	b = bo.AppendUint32(b, 0) // first directory, patched below
	var ifdOffs, nextPos []uint32
	for _, p := range pages {
		w, h := p.img.Rect.Dx(), p.img.Rect.Dy()
		pixOff := uint32(len(b))
		for y := range h {
			for x := range w {
				c := p.img.NRGBAAt(x, y)
				b = append(b, c.R, c.G, c.B)
			}
		}
		bpsOff := uint32(len(b))
		b = bo.AppendUint16(b, 8)
		b = bo.AppendUint16(b, 8)
		b = bo.AppendUint16(b, 8)
		resOff := uint32(len(b))
		b = bo.AppendUint32(b, p.dpi)
		b = bo.AppendUint32(b, 1)
		if len(b)%2 == 1 {
			b = append(b, 0)
		}
		type entry struct {
			tag, typ uint16
			count    uint32
			val      uint32
		}
		es := []entry{
			{256, 4, 1, uint32(w)}, {257, 4, 1, uint32(h)}, {258, 3, 3, bpsOff}, {259, 3, 1, 1},
			{262, 3, 1, 2}, {273, 4, 1, pixOff},
		}
		if p.orientation != 0 {
			es = append(es, entry{274, 3, 1, uint32(p.orientation)})
		}
		es = append(es, entry{277, 3, 1, 3}, entry{278, 4, 1, uint32(h)}, entry{279, 4, 1, uint32(3 * w * h)})
		if p.dpi != 0 {
			es = append(es, entry{282, 5, 1, resOff}, entry{283, 5, 1, resOff}, entry{296, 3, 1, 2})
		}
		ifdOffs = append(ifdOffs, uint32(len(b)))
		b = bo.AppendUint16(b, uint16(len(es)))
		for _, e := range es {
			b = bo.AppendUint16(b, e.tag)
			b = bo.AppendUint16(b, e.typ)
			b = bo.AppendUint32(b, e.count)
			if e.typ == 3 && e.count == 1 {
				b = bo.AppendUint16(b, uint16(e.val))
				b = bo.AppendUint16(b, 0)
			} else {
				b = bo.AppendUint32(b, e.val)
			}
		}
		nextPos = append(nextPos, uint32(len(b)))
		b = bo.AppendUint32(b, 0)
	}
	bo.PutUint32(b[4:], ifdOffs[0])
	for i, pos := range nextPos {
		var n uint32
		if i+1 < len(ifdOffs) {
			n = ifdOffs[i+1]
		}
		if next != nil {
			n = next(i, ifdOffs)
		}
		bo.PutUint32(b[pos:], n)
	}
	return b
}
