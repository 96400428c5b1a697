package hostile

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/bmp"
)

func imageCases() []*Case {
	var cs []*Case
	add := func(c *Case) { cs = append(cs, c) }

	// Headers that claim more pixels than anyone should decode.
	add(&Case{Name: "png-100000px", Note: "a PNG header claiming 100000 x 100000 RGB, 1 KiB of data",
		build: func() []byte { return pngFile(100000, 100000, 8, 2, zlibBytes(make([]byte, 1024)), nil) }, want: failed(msgTooLarge)})
	add(&Case{Name: "jpeg-65500px", Note: "a JPEG frame header claiming 65500 x 65500 (JPEG's limit is 65535)",
		build: func() []byte { return jpegClaiming(65500, 65500) }, want: failed(msgTooLarge)})
	add(&Case{Name: "tiff-100000px", Note: "a TIFF directory claiming 100000 x 100000",
		build: func() []byte { return tiffFile(tiffGray(100000, 100000, 1, 16, 100)) }, want: failed(msgTooLarge)})
	add(&Case{Name: "gif-65535px-screen", Note: "a GIF logical screen of 65535 x 65535 around a 16 x 16 frame",
		build: func() []byte { return gifScreen(65535, 65535) }, want: failed(msgTooLarge)})
	add(&Case{Name: "bmp-100000px", Note: "a BMP header claiming 100000 x 100000",
		build: func() []byte { return bmpClaiming(100000, 100000) }, want: failed(msgTooLarge)})
	add(&Case{Name: "webp-16383px-vp8", Note: "a lossy WebP frame header claiming 16383 x 16383",
		build: func() []byte { return webpVP8Header(16383, 16383) }, want: failed(msgTooLarge)})

	// Decompression bombs.
	add(&Case{Name: "png-idat-bomb", Note: "a 1000 x 1000 gray PNG whose IDAT inflates to 2 GiB",
		build: func() []byte { return pngFile(1000, 1000, 8, 0, zlibZeros(2<<30), nil) }, want: failed(msgImage)})
	add(&Case{Name: "png-8000px-gray", Note: "an 8000 x 8000 gray PNG of 64 KB: 64 Mpx, above the page pixel limit, below the image limit",
		build: func() []byte { return pngFile(8000, 8000, 8, 0, zlibZeros(8000*8001), nil) }, want: redacted(1)})
	add(&Case{Name: "png-15000px-rgb", Note: "a 15000 x 15000 RGB PNG of 700 KB: 225 Mpx, just below the image pixel limit", Long: true,
		build: func() []byte { return pngFile(15000, 15000, 8, 2, zlibZeros(15000*45001), nil) }, want: redacted(1)})
	add(&Case{Name: "tiff-deflate-bomb", Note: "a 1000 x 1000 gray TIFF whose Deflate strip inflates to 1 GiB",
		build: func() []byte { return tiffFile(tiffGray(1000, 1000, 8, 0, 0), zlibZeros(1<<30)) }, want: redacted(1)})
	add(&Case{Name: "tiff-strip-bytecount-huge", Note: "an uncompressed TIFF strip whose byte count is 4 GB",
		build: func() []byte { return tiffFile(tiffGray(100, 100, 1, 16, 0xFFFFFFF0), make([]byte, 100*100)) }, want: failed(msgImage)})
	add(&Case{Name: "tiff-10000-frames", Note: "a TIFF with 10000 directories sharing one strip",
		build: func() []byte { return tiffFrames(10000) }, want: failed("too many pages")})
	add(&Case{Name: "tiff-ifd-loop", Note: "a TIFF whose directory's next-directory offset points to itself",
		build: tiffLoop, want: failed(msgImage)})
	add(&Case{Name: "webp-lossless-4000px", Note: "a 34-byte lossless WebP of 4000 x 4000 pixels", build: func() []byte { return webpVP8LSolid(4000, 4000) },
		want: redacted(1)})
	add(&Case{Name: "webp-lossless-16000x15000px", Note: "a 34-byte lossless WebP of 240 Mpx, at the image pixel limit", Long: true,
		build: func() []byte { return webpVP8LSolid(16000, 15000) }, want: redacted(1)})

	// Oddities.
	add(&Case{Name: "png-truncated", Note: "a PNG cut in its IDAT", build: pngTruncated, want: failed(msgImage)})
	add(&Case{Name: "jpeg-truncated", Note: "a JPEG cut at 40%", build: jpegTruncated, want: failed(msgImage)})
	add(&Case{Name: "gif-zero-screen", Note: "a GIF with a 0 x 0 logical screen", build: func() []byte { return gifScreen(0, 0) }, want: failed(msgImage)})
	add(&Case{Name: "gif-frame-outside-screen", Note: "a GIF frame larger than its logical screen", build: func() []byte { return gifScreen(8, 8) }, want: failed(msgImage)})
	add(&Case{Name: "gif-1000-frames", Note: "an animated GIF of 1000 frames: its first is the page", build: func() []byte { return gifFrames(1000) }, want: redacted(1)})
	add(&Case{Name: "bmp-top-down", Note: "a BMP with a negative height (rows top to bottom)", build: bmpTopDown, want: redacted(1)})
	add(&Case{Name: "bmp-truncated", Note: "a BMP whose pixel data stops half way", build: bmpTruncated, want: failed(msgImage)})
	add(&Case{Name: "webp-riff-size-lie", Note: "a WebP whose RIFF size claims 4 GB (the decoder reads the chunks there are)", build: webpRIFFLie, want: redacted(1)})
	add(&Case{Name: "webp-extreme-aspect", Note: "a lossless WebP of 16384 x 1 pixels", build: func() []byte { return webpVP8LSolid(16384, 1) }, want: redacted(1)})

	// Polyglots read as the image they start as.
	add(&Case{Name: "polyglot-png-pdf", Note: "a PNG carrying a whole PDF in a tEXt chunk within its first KiB",
		build: pngWithPDF, want: redacted(1)})
	add(&Case{Name: "polyglot-jpeg-pdf", Note: "a JPEG carrying a whole PDF in a comment segment", build: jpegWithPDF, want: redacted(1)})
	return cs
}

// PNG.

func pngChunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	binary.Write(&b, binary.BigEndian, crc.Sum32())
	return b.Bytes()
}

// pngFile writes a PNG with the given header fields (colorType 0 gray, 2
// RGB), one IDAT of idat (already zlib-compressed) and extra chunks
// before it.
func pngFile(w, h uint32, depth, colorType byte, idat []byte, extra [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = depth, colorType
	b.Write(pngChunk("IHDR", ihdr[:]))
	for _, c := range extra {
		b.Write(c)
	}
	b.Write(pngChunk("IDAT", idat))
	b.Write(pngChunk("IEND", nil))
	return b.Bytes()
}

// sampleImage is a small picture with some structure.
func sampleImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x ^ y) & 0xFF), 255})
		}
	}
	return img
}

func pngTruncated() []byte {
	var b bytes.Buffer
	png.Encode(&b, sampleImage(300, 300))
	return b.Bytes()[:b.Len()/2]
}

func pngWithPDF() []byte {
	var img bytes.Buffer
	png.Encode(&img, sampleImage(64, 64))
	b := img.Bytes()
	// Insert tEXt right after IHDR (8 + 25 bytes), so %PDF- is in the
	// first KiB.
	text := pngChunk("tEXt", append([]byte("Comment\x00"), NormalPDF()...))
	return append(append(bytes.Clone(b[:33]), text...), b[33:]...)
}

// JPEG.

func jpegBytes(img image.Image) []byte {
	var b bytes.Buffer
	jpeg.Encode(&b, img, &jpeg.Options{Quality: 80})
	return b.Bytes()
}

// jpegClaiming is a valid small JPEG whose frame header says w x h.
func jpegClaiming(w, h uint16) []byte {
	b := jpegBytes(sampleImage(16, 16))
	i := bytes.Index(b, []byte{0xFF, 0xC0})
	if i < 0 {
		panic("hostile: no SOF0 in encoded JPEG")
	}
	binary.BigEndian.PutUint16(b[i+5:], h)
	binary.BigEndian.PutUint16(b[i+7:], w)
	return b
}

func jpegTruncated() []byte {
	b := jpegBytes(sampleImage(400, 400))
	return b[:len(b)*4/10]
}

func jpegWithPDF() []byte {
	b := jpegBytes(sampleImage(64, 64))
	pdf := NormalPDF()
	if len(pdf) > 65533 {
		panic("hostile: PDF too long for a JPEG comment")
	}
	com := []byte{0xFF, 0xFE, 0, 0}
	binary.BigEndian.PutUint16(com[2:], uint16(len(pdf)+2))
	com = append(com, pdf...)
	// After SOI.
	return append(append(bytes.Clone(b[:2]), com...), b[2:]...)
}

// TIFF, little-endian.

type tiffEntry struct {
	tag, typ uint16
	value    uint32 // one SHORT or LONG, stored in the entry
}

const (
	tiffShort = 3
	tiffLong  = 4
)

// tiffDir is one directory and the data its strip points to, laid out
// by tiffFile.
type tiffDir struct {
	entries []tiffEntry
}

// tiffGray is the directory of a w x h 8-bit gray image in one strip,
// with compression 1 (none) or 8 (Deflate) and a strip byte count (0:
// the length of the data tiffFile is given).
func tiffGray(w, h uint32, compression uint16, stripOffset, byteCount uint32) tiffDir {
	return tiffDir{entries: []tiffEntry{
		{256, tiffLong, w},
		{257, tiffLong, h},
		{258, tiffShort, 8},
		{259, tiffShort, uint32(compression)},
		{262, tiffShort, 1}, // BlackIsZero
		{273, tiffLong, stripOffset},
		{277, tiffShort, 1},
		{278, tiffLong, h},
		{279, tiffLong, byteCount},
	}}
}

func (d tiffDir) set(tag uint16, v uint32) {
	for i := range d.entries {
		if d.entries[i].tag == tag {
			d.entries[i].value = v
		}
	}
}

func (d tiffDir) encode(next uint32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint16(len(d.entries)))
	for _, e := range d.entries {
		binary.Write(&b, binary.LittleEndian, e.tag)
		binary.Write(&b, binary.LittleEndian, e.typ)
		binary.Write(&b, binary.LittleEndian, uint32(1))
		if e.typ == tiffShort {
			binary.Write(&b, binary.LittleEndian, uint16(e.value))
			binary.Write(&b, binary.LittleEndian, uint16(0))
		} else {
			binary.Write(&b, binary.LittleEndian, e.value)
		}
	}
	binary.Write(&b, binary.LittleEndian, next)
	return b.Bytes()
}

func (d tiffDir) size() int { return 2 + 12*len(d.entries) + 4 }

// tiffFile is a one-directory TIFF: header, directory, then strip data.
// When strip is given the directory's strip offset points at it and a
// zero byte count becomes its length.
func tiffFile(d tiffDir, strip ...[]byte) []byte {
	var b bytes.Buffer
	b.WriteString("II*\x00")
	binary.Write(&b, binary.LittleEndian, uint32(8))
	if len(strip) > 0 {
		off := uint32(8 + d.size())
		d.set(273, off)
		for _, e := range d.entries {
			if e.tag == 279 && e.value == 0 {
				d.set(279, uint32(len(strip[0])))
			}
		}
	}
	b.Write(d.encode(0))
	if len(strip) > 0 {
		b.Write(strip[0])
	}
	return b.Bytes()
}

// tiffFrames is a TIFF of n 16 x 16 gray directories, all pointing at one
// shared strip.
func tiffFrames(n int) []byte {
	var b bytes.Buffer
	b.WriteString("II*\x00")
	binary.Write(&b, binary.LittleEndian, uint32(8+256))
	b.Write(bytes.Repeat([]byte{0x80}, 256)) // the strip, at offset 8
	d := tiffGray(16, 16, 1, 8, 256)
	off := 8 + 256
	for i := 0; i < n; i++ {
		next := uint32(off + d.size())
		if i == n-1 {
			next = 0
		}
		b.Write(d.encode(next))
		off += d.size()
	}
	return b.Bytes()
}

func tiffLoop() []byte {
	var b bytes.Buffer
	b.WriteString("II*\x00")
	binary.Write(&b, binary.LittleEndian, uint32(8))
	d := tiffGray(16, 16, 1, 0, 256)
	d.set(273, uint32(8+d.size()))
	b.Write(d.encode(8)) // next directory: itself
	b.Write(bytes.Repeat([]byte{0x80}, 256))
	return b.Bytes()
}

// GIF.

func gifBytes(frames int) []byte {
	g := &gif.GIF{}
	for i := 0; i < frames; i++ {
		img := image.NewPaletted(image.Rect(0, 0, 16, 16), palette.Plan9)
		for k := range img.Pix {
			img.Pix[k] = uint8(i + k)
		}
		g.Image = append(g.Image, img)
		g.Delay = append(g.Delay, 1)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		panic("hostile: gif: " + err.Error())
	}
	return b.Bytes()
}

// gifScreen is a 16 x 16 one-frame GIF whose logical screen says w x h.
func gifScreen(w, h uint16) []byte {
	b := gifBytes(1)
	binary.LittleEndian.PutUint16(b[6:], w)
	binary.LittleEndian.PutUint16(b[8:], h)
	return b
}

func gifFrames(n int) []byte { return gifBytes(n) }

// BMP.

func bmpBytes(img image.Image) []byte {
	var b bytes.Buffer
	if err := bmp.Encode(&b, img); err != nil {
		panic("hostile: bmp: " + err.Error())
	}
	return b.Bytes()
}

// BITMAPINFOHEADER fields: width at 18, height at 22 (signed).
func bmpClaiming(w, h int32) []byte {
	b := bmpBytes(sampleImage(16, 16))
	binary.LittleEndian.PutUint32(b[18:], uint32(w))
	binary.LittleEndian.PutUint32(b[22:], uint32(h))
	return b
}

// bmpTopDown flips a bottom-up BMP's rows and negates its height, the
// other legal row order.
func bmpTopDown() []byte {
	const w, h = 64, 48
	b := bmpBytes(sampleImage(w, h))
	off := binary.LittleEndian.Uint32(b[10:])
	stride := (w*3 + 3) &^ 3
	pix := b[off:]
	for y := 0; y < h/2; y++ {
		a, c := pix[y*stride:(y+1)*stride], pix[(h-1-y)*stride:(h-y)*stride]
		for i := range a {
			a[i], c[i] = c[i], a[i]
		}
	}
	hNeg := int32(-h)
	binary.LittleEndian.PutUint32(b[22:], uint32(hNeg))
	return b
}

func bmpTruncated() []byte {
	b := bmpBytes(sampleImage(200, 200))
	return b[:len(b)/2]
}

// WebP.

func riff(chunk string, data []byte) []byte {
	var b bytes.Buffer
	pad := len(data) & 1
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+8+len(data)+pad))
	b.WriteString("WEBP")
	b.WriteString(chunk)
	binary.Write(&b, binary.LittleEndian, uint32(len(data)))
	b.Write(data)
	if pad == 1 {
		b.WriteByte(0)
	}
	return b.Bytes()
}

// webpVP8Header is a lossy WebP whose key frame header says w x h, its
// data a few zero bytes.
func webpVP8Header(w, h uint16) []byte {
	// Frame tag: key frame, version 0, show frame, first partition size
	// 16 (bits 5..23), then the start code and the 14-bit dimensions.
	tag := uint32(0) | 0<<1 | 1<<4 | 16<<5
	data := []byte{byte(tag), byte(tag >> 8), byte(tag >> 16), 0x9d, 0x01, 0x2a, 0, 0, 0, 0}
	binary.LittleEndian.PutUint16(data[6:], w&0x3fff)
	binary.LittleEndian.PutUint16(data[8:], h&0x3fff)
	data = append(data, make([]byte, 32)...)
	return riff("VP8 ", data)
}

// bitWriter packs bits least significant first, as VP8L wants.
type bitWriter struct {
	b    []byte
	nbit uint
}

func (w *bitWriter) write(v uint32, n uint) {
	for i := uint(0); i < n; i++ {
		if w.nbit%8 == 0 {
			w.b = append(w.b, 0)
		}
		if v>>i&1 != 0 {
			w.b[len(w.b)-1] |= 1 << (w.nbit % 8)
		}
		w.nbit++
	}
}

// webpVP8LSolid is a lossless WebP of w x h pixels (each at most 16384)
// of one colour: every prefix code has a single symbol, so the pixels
// take no bits at all and the file is a few dozen bytes whatever its
// size.
func webpVP8LSolid(w, h uint32) []byte {
	var bw bitWriter
	bw.write(0x2f, 8)                              // signature
	bw.write(w-1, 14)                              // width - 1
	bw.write(h-1, 14)                              // height - 1
	bw.write(0, 1)                                 // alpha unused
	bw.write(0, 3)                                 // version 0
	bw.write(0, 1)                                 // no transform
	bw.write(0, 1)                                 // no colour cache
	bw.write(0, 1)                                 // no meta prefix codes
	symbols := []uint32{0x60, 0x30, 0x90, 0xff, 0} // green, red, blue, alpha, distance
	for _, s := range symbols {
		bw.write(1, 1) // simple code
		bw.write(0, 1) // one symbol
		bw.write(1, 1) // 8-bit symbol
		bw.write(s, 8)
	}
	return riff("VP8L", bw.b)
}

func webpRIFFLie() []byte {
	b := webpVP8LSolid(64, 64)
	binary.LittleEndian.PutUint32(b[4:], 0xFFFFFFF0)
	return b
}
