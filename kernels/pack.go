package kernels

import "encoding/binary"

// Four-bit samples for text-like pages. Anti-aliased text needs far fewer
// than 256 levels per channel to look the same; 16 levels halve the raw
// data and more than halve the compressed size, because the edges of
// glyphs, where all the entropy is, repeat more often.

// quant4 maps an 8-bit sample to the nearest of 16 levels (level*17).
func quant4(v byte) byte { return byte((int(v)*15 + 127) / 255) }

// Expand4 maps a 4-bit level back to 8 bits, as a PDF reader does.
func Expand4(q byte) byte { return q * 17 }

var quant4Table = func() (t [256]byte) {
	for v := range t {
		t[v] = quant4(byte(v))
	}
	return
}()

// Pack4Size is the number of bytes Pack4 writes for n samples.
func Pack4Size(n int) int { return (n + 1) / 2 }

// Pack4Ref is the reference for Pack4.
func Pack4Ref(dst, src []byte) {
	for i := range Pack4Size(len(src)) {
		hi := quant4(src[2*i])
		var lo byte
		if 2*i+1 < len(src) {
			lo = quant4(src[2*i+1])
		}
		dst[i] = hi<<4 | lo
	}
}

// white8 is eight white samples, or eight bytes of white sample pairs.
const white8 = ^uint64(0)

// Pack4 quantises 8-bit samples to 16 levels and packs them two per byte,
// high nibble first, as PDF images with /BitsPerComponent 4 store them. An
// odd final sample leaves the low nibble zero. Eight samples at a time
// are quantised in 16-bit lanes (pack8), without a table.
func Pack4(dst, src []byte) {
	t := &quant4Table
	d := dst[:Pack4Size(len(src))]
	for len(src) >= 16 && len(d) >= 8 {
		lo, hi := binary.LittleEndian.Uint64(src), binary.LittleEndian.Uint64(src[8:])
		// Paper: on a text page most runs of 16 samples are white, and
		// white packs to white.
		if lo&hi == white8 {
			binary.LittleEndian.PutUint64(d, white8)
		} else {
			binary.LittleEndian.PutUint64(d, pack8(lo)|pack8(hi)<<32)
		}
		src, d = src[16:], d[8:]
	}
	for len(src) >= 2 && len(d) >= 1 {
		d[0] = t[src[0]]<<4 | t[src[1]]
		src, d = src[2:], d[1:]
	}
	if len(src) == 1 && len(d) >= 1 {
		d[0] = t[src[0]] << 4
	}
}

// pack8 quantises the eight samples of w (the first in the low byte) and
// packs them into the low four bytes of the result. quant4(v) is
// (v+8)/17 (15v/255 rounded; v/17 is never halfway), and (v+8)/17 is
// (v+8)*241 >> 12 for every v up to 255 (TestPack8Quotient); (v+8)*241 is
// at most 63 383, so four samples fit in the 16-bit lanes of one word,
// even and odd samples apart, and no lane carries into the next.
func pack8(w uint64) uint64 {
	const (
		m8    = 0x00FF00FF00FF00FF
		eight = 0x0008000800080008
		m4    = 0x000F000F000F000F
	)
	even := (((w&m8 + eight) * 241) >> 12) & m4     // samples 0, 2, 4, 6
	odd := ((((w>>8)&m8 + eight) * 241) >> 12) & m4 // samples 1, 3, 5, 7
	x := even<<4 | odd                              // a packed byte per lane
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	return (x | x>>16) & 0xFFFFFFFF
}
