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
// odd final sample leaves the low nibble zero.
func Pack4(dst, src []byte) {
	t := &quant4Table
	d := dst[:Pack4Size(len(src))]
	for len(src) >= 16 && len(d) >= 8 {
		// Paper: on a text page most runs of 16 samples are white, and
		// white packs to white.
		if binary.LittleEndian.Uint64(src)&binary.LittleEndian.Uint64(src[8:]) == white8 {
			binary.LittleEndian.PutUint64(d, white8)
			src, d = src[16:], d[8:]
			continue
		}
		var w uint64
		for k := 0; k < 8; k++ {
			w |= uint64(t[src[2*k]]<<4|t[src[2*k+1]]) << (8 * k)
		}
		binary.LittleEndian.PutUint64(d, w)
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
