package kernels

import "encoding/binary"

// Adler-32 (RFC 1950), the checksum that ends a zlib stream. On a text
// page's rows (runs of white, and all-zero rows where a row repeats the
// one above) the byte-at-a-time loop of hash/adler32 is a fifth of the
// cost of compressing them; Adler32 takes 32 bytes a step.

const (
	adlerMod = 65521
	// adlerMax bytes are summed before s2 could overflow 32 bits (at
	// most hash/adler32's nmax, 5552), a multiple of Adler32's 32-byte step.
	adlerMax = 5536
)

// Adler32Ref is the reference for Adler32: the checksum of p continued
// from adler (1 for a new stream), one byte at a time as RFC 1950 writes
// it.
func Adler32Ref(adler uint32, p []byte) uint32 {
	s1, s2 := adler&0xffff, adler>>16
	for _, v := range p {
		s1 = (s1 + uint32(v)) % adlerMod
		s2 = (s2 + s1) % adlerMod
	}
	return s2<<16 | s1
}

// Adler32 returns the Adler-32 checksum of p continued from adler (1 for
// a new stream), as Adler32Ref, 32 bytes a step. n bytes b_0..b_(n-1) add
// their sum to s1 and n*s1 + n*b_0 + (n-1)*b_1 + ... + 1*b_(n-1) to s2.
// Each word of eight bytes is split into its even and odd bytes, four
// 16-bit lanes each; a lane never exceeds 255*6*4 here, and a weighted sum
// of the lanes is the top lane of one multiplication (the weights in the
// constant's lanes in reverse order, no lane below carrying into it).
func Adler32(adler uint32, p []byte) uint32 {
	const m8 = 0x00FF00FF00FF00FF
	s1, s2 := adler&0xffff, adler>>16
	for len(p) > 0 {
		q := p[:min(len(p), adlerMax)]
		p = p[len(q):]
		for len(q) >= 32 {
			w0 := binary.LittleEndian.Uint64(q)
			w1 := binary.LittleEndian.Uint64(q[8:])
			w2 := binary.LittleEndian.Uint64(q[16:])
			w3 := binary.LittleEndian.Uint64(q[24:])
			q = q[32:]
			e0, o0 := w0&m8, (w0>>8)&m8
			e1, o1 := w1&m8, (w1>>8)&m8
			e2, o2 := w2&m8, (w2>>8)&m8
			e3, o3 := w3&m8, (w3>>8)&m8
			a, b, c, d := e0+o0, e1+o1, e2+o2, e3+o3 // pair sums of each word
			// Within the 32 bytes, byte i of word k weighs 8*(3-k) + (8-i):
			// 8 times the words after it (3a+2b+c) plus its place in its word.
			place := ((e0+e1+e2+e3)*0x0008000600040002)>>48 + ((o0+o1+o2+o3)*0x0007000500030001)>>48
			s2 += 32*s1 + 8*uint32(((3*a+2*b+c)*0x0001000100010001)>>48) + uint32(place)
			s1 += uint32(((a + b + c + d) * 0x0001000100010001) >> 48)
		}
		for _, v := range q {
			s1 += uint32(v)
			s2 += s1
		}
		s1 %= adlerMod
		s2 %= adlerMod
	}
	return s2<<16 | s1
}
