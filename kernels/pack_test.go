package kernels

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestPack4MatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 1275, 3825} {
		src := randomBytes(rng, n)
		want := randomBytes(rng, Pack4Size(n)+2)
		got := append([]byte(nil), want...)
		Pack4Ref(want, src)
		Pack4(got, src)
		checkEqual(t, fmt.Sprintf("n=%d", n), got, want)
	}
	// Paper with one sample of ink at each place of a 16-sample run, and
	// near-white: Pack4 takes a shortcut for runs of white.
	for _, ink := range []byte{0, 200, 247, 248, 254} {
		for at := range 40 {
			src := bytes.Repeat([]byte{255}, 40)
			src[at] = ink
			want := make([]byte, Pack4Size(len(src)))
			got := make([]byte, len(want))
			Pack4Ref(want, src)
			Pack4(got, src)
			checkEqual(t, fmt.Sprintf("white, %d at %d", ink, at), got, want)
		}
	}
	page := benchPage(1)
	want := make([]byte, Pack4Size(benchW))
	got := make([]byte, len(want))
	for y := range benchH {
		Pack4Ref(want, page[y*benchW:(y+1)*benchW])
		Pack4(got, page[y*benchW:(y+1)*benchW])
		checkEqual(t, fmt.Sprintf("bench page row %d", y), got, want)
	}
}

func TestQuant4Error(t *testing.T) {
	for v := range 256 {
		q := quant4(byte(v))
		if q > 15 || absInt(int(Expand4(q))-v) > 8 {
			t.Fatalf("%d -> level %d -> %d", v, q, Expand4(q))
		}
	}
	if quant4(0) != 0 || quant4(255) != 15 {
		t.Fatal("black or white not kept")
	}
}

func TestFilterText(t *testing.T) {
	var rf RowFilter
	cur := []byte{1, 2, 3}
	if got := rf.FilterText(cur, nil); string(got) != "\x00\x01\x02\x03" {
		t.Fatalf("first row %v", got)
	}
	if got := rf.FilterText(cur, []byte{1, 2, 3}); string(got) != "\x02\x00\x00\x00" {
		t.Fatalf("repeated row %v", got)
	}
	if got := rf.FilterText(cur, []byte{1, 2, 4}); string(got) != "\x00\x01\x02\x03" {
		t.Fatalf("changed row %v", got)
	}
}

func BenchmarkPack4(b *testing.B) {
	page := benchPage(1)
	dst := make([]byte, Pack4Size(benchW))
	for _, k := range []struct {
		name string
		fn   func(dst, src []byte)
	}{{"ref", Pack4Ref}, {"opt", Pack4}} {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				for y := range benchH {
					k.fn(dst, page[y*benchW:(y+1)*benchW])
				}
			}
		})
	}
}

// TestPack8Quotient: the division pack8 does by multiplying is quant4's
// for every sample.
func TestPack8Quotient(t *testing.T) {
	for v := range 256 {
		if got, want := byte((v+8)*241>>12), quant4(byte(v)); got != want {
			t.Fatalf("%d: %d, want %d", v, got, want)
		}
		if (v+8)*241 > 0xFFFF {
			t.Fatalf("%d: %d overflows a 16-bit lane", v, (v+8)*241)
		}
	}
	// Every sample at every place of a word.
	for v := range 256 {
		for at := range 8 {
			src := bytes.Repeat([]byte{byte(255 - v/2)}, 16)
			src[at], src[8+at] = byte(v), byte(255-v)
			want, got := make([]byte, 8), make([]byte, 8)
			Pack4Ref(want, src)
			Pack4(got, src)
			checkEqual(t, fmt.Sprintf("%d at %d", v, at), got, want)
		}
	}
}
