package kernels

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// blobMap draws random filled ellipses of high probability on a noisy
// background, like a detector's output.
func blobMap(r *rand.Rand, w, h, blobs int) []float32 {
	m := make([]float32, w*h)
	for i := range m {
		m[i] = r.Float32() * 0.32 // a few noise pixels pass 0.3
	}
	for range blobs {
		cx, cy := r.Float64()*float64(w), r.Float64()*float64(h)
		rx, ry := 2+r.Float64()*30, 1+r.Float64()*6
		for y := max(0, int(cy-ry)); y < min(h, int(cy+ry)+1); y++ {
			for x := max(0, int(cx-rx)); x < min(w, int(cx+rx)+1); x++ {
				dx, dy := (float64(x)-cx)/rx, (float64(y)-cy)/ry
				if dx*dx+dy*dy <= 1 {
					m[y*w+x] = 0.5 + r.Float32()*0.5
				}
			}
		}
	}
	return m
}

func TestComponentsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 20 {
		w, h := 50+r.IntN(200), 30+r.IntN(150)
		m := blobMap(r, w, h, 1+r.IntN(40))
		minArea := trial % 4
		want := ComponentsRef(m, w, h, 0.3, minArea)
		got := Components(m, w, h, 0.3, minArea)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("trial %d (%dx%d): %d components, reference %d", trial, w, h, len(got), len(want))
		}
	}
}

func TestComponentsConnectivity(t *testing.T) {
	// Two pixels touching diagonally form one component; a gap of one
	// column separates.
	const w, h = 6, 3
	m := make([]float32, w*h)
	m[0*w+0], m[1*w+1] = 1, 1 // diagonal pair
	m[0*w+3], m[0*w+5] = 1, 1 // separated by column 4
	cs := Components(m, w, h, 0.5, 0)
	if len(cs) != 3 || cs[0].Area != 2 || cs[0].MaxY != 1 {
		t.Fatalf("components = %+v", cs)
	}
	// A U shape joins through its bottom row.
	u := []float32{
		1, 0, 1,
		1, 0, 1,
		1, 1, 1,
	}
	if cs := Components(u, 3, 3, 0.5, 0); len(cs) != 1 || cs[0].Area != 7 {
		t.Fatalf("U shape: %+v", cs)
	}
}

func TestQuadMeanMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const w, h = 80, 60
	m := blobMap(r, w, h, 10)
	for range 200 {
		cx, cy := r.Float64()*w, r.Float64()*h
		a := r.Float64() * math.Pi
		hw, hh := 1+r.Float64()*30, 1+r.Float64()*10
		ca, sa := math.Cos(a), math.Sin(a)
		var pts [][2]float64
		for _, s := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			x, y := s[0]*hw, s[1]*hh
			pts = append(pts, [2]float64{cx + x*ca - y*sa, cy + x*sa + y*ca})
		}
		want := QuadMeanRef(m, w, h, pts)
		got := QuadMean(m, w, h, pts)
		if math.Abs(want-got) > 1e-6 {
			t.Fatalf("quad %v: fast %v, reference %v", pts, got, want)
		}
	}
}

func BenchmarkComponents(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	const w, h = 1184, 1536
	m := blobMap(r, w, h, 600)
	b.Run("ref", func(b *testing.B) {
		for b.Loop() {
			ComponentsRef(m, w, h, 0.3, 0)
		}
	})
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			Components(m, w, h, 0.3, 0)
		}
	})
}

func BenchmarkQuadMean(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	const w, h = 400, 300
	m := blobMap(r, w, h, 50)
	pts := [][2]float64{{20, 100}, {380, 110}, {379, 140}, {19, 130}}
	b.Run("ref", func(b *testing.B) {
		for b.Loop() {
			QuadMeanRef(m, w, h, pts)
		}
	})
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			QuadMean(m, w, h, pts)
		}
	})
}
