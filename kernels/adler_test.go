package kernels

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

func TestAdler32MatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	check := func(what string, seed uint32, p []byte) {
		t.Helper()
		want := Adler32Ref(seed, p)
		if got := Adler32(seed, p); got != want {
			t.Fatalf("%s: %08x, want %08x", what, got, want)
		}
		if seed == 1 && adler32.Checksum(p) != want {
			t.Fatalf("%s: reference %08x, hash/adler32 %08x", what, want, adler32.Checksum(p))
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 639, 5535, 5536, 5537, 5551, 5552, 5553, 11104, 20000, 1 << 17} {
		check(fmt.Sprintf("random n=%d", n), 1, randomBytes(rng, n))
		// All 0xFF is the largest each step can add: s2's overflow bound.
		check(fmt.Sprintf("white n=%d", n), 1, bytes.Repeat([]byte{255}, n))
		check(fmt.Sprintf("zero n=%d", n), 1, make([]byte, n))
		// Continued from a state near the modulus.
		check(fmt.Sprintf("continued n=%d", n), (adlerMod-1)<<16|(adlerMod-1), bytes.Repeat([]byte{255}, n))
	}
	// A text page's rows, continued from row to row as zlib does.
	page := benchPage(1)
	want, got := uint32(1), uint32(1)
	for y := range benchH {
		row := page[y*benchW : (y+1)*benchW]
		want, got = Adler32Ref(want, row), Adler32(got, row)
		if got != want {
			t.Fatalf("bench page row %d: %08x, want %08x", y, got, want)
		}
	}
}

func BenchmarkAdler32(b *testing.B) {
	page := benchPage(1)
	for _, k := range []struct {
		name string
		fn   func(uint32, []byte) uint32
	}{
		{"ref", Adler32Ref},
		{"stdlib", func(a uint32, p []byte) uint32 { return adler32.Checksum(p) }},
		{"opt", Adler32},
	} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				k.fn(1, page)
			}
		})
	}
}
