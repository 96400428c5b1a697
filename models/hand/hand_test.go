package hand

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/redactd/redactd/models/ort"
)

func load(t *testing.T) *Model {
	t.Helper()
	if _, err := ort.FindLibrary(""); err != nil {
		t.Skipf("ONNX Runtime library not installed (run `make setup`): %v", err)
	}
	if err := ort.Init(ort.Options{Threads: 1}); err != nil {
		t.Fatalf("ort.Init: %v", err)
	}
	m, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// golden reads the recipe's golden patches of sample k
// (engine/visual/testdata/hand, synth.py golden: even samples are pen
// handwriting, odd ones print).
func golden(t *testing.T, k int) [][]float32 {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "engine", "visual", "testdata", "hand", fmt.Sprintf("g%d.bin", k)))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]float32
	for o := 0; o+H*W*4 <= len(raw); o += H * W * 4 {
		p := make([]float32, H*W)
		for i := range p {
			p[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[o+4*i:]))
		}
		out = append(out, p)
	}
	return out
}

// TestScore: the embedded model loads, tells the recipe's golden pen
// handwriting (samples 0 and 2) from its print (1 and 3) and bars, and
// scores a patch the same alone and in a batch larger than maxBatch
// (the batches are cut and put back in order).
func TestScore(t *testing.T) {
	m := load(t)
	for k := range 4 {
		ps := golden(t, k)
		sc, err := m.Score(ps)
		if err != nil {
			t.Fatal(err)
		}
		var mean float32
		for _, v := range sc {
			mean += v / float32(len(sc))
		}
		t.Logf("golden sample %d: %d patches, mean %.3f", k, len(ps), mean)
		if hand := k%2 == 0; hand != (mean >= 0.5) {
			t.Errorf("golden sample %d (handwriting: %v) scored %.3f", k, hand, mean)
		}
	}
	hw, br := golden(t, 0)[0], bars()
	alone, err := m.Score([][]float32{hw, br})
	if err != nil {
		t.Fatal(err)
	}
	if alone[1] >= 0.5 {
		t.Errorf("bars scored %.3f", alone[1])
	}
	var many [][]float32
	for i := range maxBatch + 5 {
		if i%2 == 0 {
			many = append(many, hw)
		} else {
			many = append(many, br)
		}
	}
	got, err := m.Score(many)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(many) {
		t.Fatalf("%d scores for %d patches", len(got), len(many))
	}
	for i, v := range got {
		if d := math.Abs(float64(v - alone[i%2])); d > 1e-4 {
			t.Errorf("patch %d scored %.4f in a batch, %.4f alone", i, v, alone[i%2])
		}
	}
	if _, err := m.Score([][]float32{make([]float32, 10)}); err == nil {
		t.Error("a patch of the wrong size was scored")
	}
}

// bars is printed matter's opposite of a pen: evenly spaced upright
// bars, a barcode or a grid's cells.
func bars() []float32 {
	p := make([]float32, H*W)
	for y := 2; y < 30; y++ {
		for x := 8; x < 120; x++ {
			if x%6 < 2 {
				p[y*W+x] = 1
			}
		}
	}
	return p
}
