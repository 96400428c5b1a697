package hostile

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
)

// bombChunk is the unit zlibZeros repeats.
const bombChunk = 1 << 20

// zlibZeros returns a zlib stream that inflates to exactly n zero bytes,
// at close to deflate's best ratio (about 1000:1), without compressing n
// bytes: after a sync flush the compressor's output for another chunk of
// zeros is the same every time, so that piece is repeated. Zero is
// whitespace to a PDF content stream lexer and black to an image, so the
// same bomb serves both.
func zlibZeros(n int64) []byte {
	if n <= 0 {
		panic(fmt.Sprintf("hostile: zlibZeros(%d)", n))
	}
	chunks, rest := n/bombChunk, int(n%bombChunk)
	var out, buf bytes.Buffer
	out.Write([]byte{0x78, 0xDA}) // zlib header: deflate, 32K window, best compression
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	zero := make([]byte, bombChunk)
	piece := func(size int) []byte {
		fw.Write(zero[:size]) // writes to a bytes.Buffer do not fail
		fw.Flush()
		p := bytes.Clone(buf.Bytes())
		buf.Reset()
		return p
	}
	// After the first chunks the output for another chunk repeats;
	// once two pieces in a row are equal the rest are that piece. (A
	// compressor for which they never are is simply run on every chunk.)
	var prev, steady []byte
	for i := int64(0); i < chunks; i++ {
		if steady != nil {
			out.Write(steady)
			continue
		}
		p := piece(bombChunk)
		out.Write(p)
		if bytes.Equal(p, prev) {
			steady = p
		}
		prev = p
	}
	if rest > 0 {
		out.Write(piece(rest))
	}
	// An empty final block with fixed codes, then the Adler-32 of n
	// zeros: a stays 1 and b gains 1 per byte.
	out.Write([]byte{0x03, 0x00})
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], uint32(n%65521)<<16|1)
	out.Write(sum[:])
	return out.Bytes()
}
