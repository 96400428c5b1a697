package kernels

import (
	"math/rand/v2"
	"testing"
)

// geometry is a random image shape with padding at the end of each row,
// so kernels that ignore the stride are caught.
type geometry struct{ w, h, stride int }

func randomGeometries(rng *rand.Rand, channels, n int) []geometry {
	gs := []geometry{{0, 0, 0}, {1, 1, channels}, {1, 5, channels + 3}, {7, 1, 7 * channels}, {17, 3, 17*channels + 1}}
	for len(gs) < n {
		w, h := 1+rng.IntN(70), 1+rng.IntN(9)
		gs = append(gs, geometry{w, h, w*channels + rng.IntN(9)})
	}
	return gs
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// bufLen is the smallest buffer holding h rows of w pixels at stride.
func bufLen(g geometry, channels int) int {
	if g.h == 0 {
		return 0
	}
	return (g.h-1)*g.stride + g.w*channels
}

// grayish returns an RGB image whose channels differ by at most spread,
// with one pixel optionally pushed further apart.
func grayish(rng *rand.Rand, g geometry, spread int) []byte {
	b := randomBytes(rng, bufLen(g, 3))
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			i := y*g.stride + 3*x
			v := int(b[i])
			for c := 1; c < 3; c++ {
				d := 0
				if spread > 0 {
					d = rng.IntN(2*spread+1) - spread
				}
				b[i+c] = byte(min(255, max(0, v+d)))
			}
		}
	}
	return b
}

func checkEqual(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: byte %d = %d, want %d", what, i, got[i], want[i])
		}
	}
}
