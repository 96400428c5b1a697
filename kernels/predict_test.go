package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// unfilter reverses one PNG-filtered row (decoder side, from the spec).
func unfilter(t *testing.T, row, prev []byte, bpp int) []byte {
	t.Helper()
	typ, f := row[0], row[1:]
	out := make([]byte, len(f))
	for i := range f {
		var a, b, c int
		if i >= bpp {
			a = int(out[i-bpp])
		}
		if prev != nil {
			b = int(prev[i])
			if i >= bpp {
				c = int(prev[i-bpp])
			}
		}
		switch typ {
		case FilterTypeNone:
			out[i] = f[i]
		case FilterTypeSub:
			out[i] = f[i] + byte(a)
		case FilterTypeUp:
			out[i] = f[i] + byte(b)
		case FilterTypePaeth:
			out[i] = f[i] + byte(paethRef(a, b, c))
		default:
			t.Fatalf("filter type %d", typ)
		}
	}
	return out
}

// rowPair returns a row and the row above: random, similar (few changes)
// or equal, since the filter choice depends on how alike they are.
func rowPair(rng *rand.Rand, n int) (cur, prev []byte) {
	cur = randomBytes(rng, n)
	switch rng.IntN(4) {
	case 0:
		return cur, nil
	case 1:
		return cur, randomBytes(rng, n)
	case 2:
		prev = append([]byte(nil), cur...)
		for range n / 8 {
			if n > 0 {
				prev[rng.IntN(n)] += byte(rng.IntN(5) - 2)
			}
		}
		return cur, prev
	}
	// Smooth row: small steps, which favours Sub and Paeth.
	v := byte(rng.Uint32())
	for i := range cur {
		v += byte(rng.IntN(3) - 1)
		cur[i] = v
	}
	prev = append([]byte(nil), cur...)
	for i := range prev {
		prev[i] += byte(rng.IntN(3))
	}
	return cur, prev
}

func sumAbs(p []byte) int {
	s := 0
	for _, v := range p {
		s += absInt(int(int8(v)))
	}
	return s
}

func TestFiltersMatchRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	lengths := []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 3 * 1275}
	for range 200 {
		lengths = append(lengths, rng.IntN(3000))
	}
	var rf RowFilter
	for _, n := range lengths {
		for _, bpp := range []int{1, 3} {
			cur, prev := rowPair(rng, n)
			name := fmt.Sprintf("n=%d bpp=%d prev=%v", n, bpp, prev != nil)
			want, got := make([]byte, n+1), make([]byte, n+1)

			FilterUpRef(want, cur, prev)
			s := FilterUp(got, cur, prev)
			checkEqual(t, "Up "+name, got, want)
			if s != sumAbs(want[1:]) {
				t.Fatalf("Up %s: sum %d, want %d", name, s, sumAbs(want[1:]))
			}
			checkEqual(t, "Up round trip "+name, unfilter(t, got, prev, bpp), cur)

			FilterSubRef(want, cur, bpp)
			s = FilterSub(got, cur, bpp)
			checkEqual(t, "Sub "+name, got, want)
			if s != sumAbs(want[1:]) {
				t.Fatalf("Sub %s: sum %d, want %d", name, s, sumAbs(want[1:]))
			}
			checkEqual(t, "Sub round trip "+name, unfilter(t, got, prev, bpp), cur)

			FilterPaethRef(want, cur, prev, bpp)
			s = FilterPaeth(got, cur, prev, bpp)
			checkEqual(t, "Paeth "+name, got, want)
			if s != sumAbs(want[1:]) {
				t.Fatalf("Paeth %s: sum %d, want %d", name, s, sumAbs(want[1:]))
			}
			checkEqual(t, "Paeth round trip "+name, unfilter(t, got, prev, bpp), cur)

			FilterRowRef(want, cur, prev, bpp)
			checkEqual(t, "Filter "+name, rf.Filter(cur, prev, bpp), want)
		}
	}
}

// TestAbsSumLanes drives many words of -128 through the SWAR sum, the
// largest per-byte value, past the fold interval.
func TestAbsSumLanes(t *testing.T) {
	p := make([]byte, 8*foldEvery*3+5)
	for i := range p {
		p[i] = 0x80
	}
	if got, want := absSum(p), 128*len(p); got != want {
		t.Fatalf("absSum = %d, want %d", got, want)
	}
}

func BenchmarkRowFilter(b *testing.B) {
	for _, ch := range []int{1, 3} {
		page := benchPage(ch)
		stride := benchW * ch
		b.Run(fmt.Sprintf("ref/ch%d", ch), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			dst := make([]byte, stride+1)
			for b.Loop() {
				var prev []byte
				for y := 0; y < benchH; y++ {
					cur := page[y*stride : (y+1)*stride]
					FilterRowRef(dst, cur, prev, ch)
					prev = cur
				}
			}
		})
		b.Run(fmt.Sprintf("opt/ch%d", ch), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			var rf RowFilter
			for b.Loop() {
				var prev []byte
				for y := 0; y < benchH; y++ {
					cur := page[y*stride : (y+1)*stride]
					rf.Filter(cur, prev, ch)
					prev = cur
				}
			}
		})
	}
}

func BenchmarkFilterPaeth(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	cur, prev := randomBytes(rng, 3*benchW), randomBytes(rng, 3*benchW)
	dst := make([]byte, len(cur)+1)
	b.Run("ref", func(b *testing.B) {
		b.SetBytes(int64(len(cur)))
		for b.Loop() {
			FilterPaethRef(dst, cur, prev, 3)
		}
	})
	b.Run("opt", func(b *testing.B) {
		b.SetBytes(int64(len(cur)))
		for b.Loop() {
			FilterPaeth(dst, cur, prev, 3)
		}
	})
}
