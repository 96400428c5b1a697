package ner

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestViterbiTransitions shows what the CRF adds over token-by-token
// decoding on a hand-made three-label chain (O, B-PER, I-PER): a token
// that is I-PER on its own becomes B-PER after O, because O -> I-PER is
// forbidden; and the recall bias turns a weak name into a span.
func TestViterbiTransitions(t *testing.T) {
	inf := float32(-1e4)
	c := &CRF{
		Transitions: [][]float32{{0, 0, inf}, {0, 0, 0}, {0, 0, 0}},
		Start:       []float32{0, 0, inf},
		End:         []float32{0, 0, 0},
	}
	for _, tc := range []struct {
		name string
		emit []float32 // 3 labels a row
		bias float32
		want []int
	}{
		{"I-PER after O starts a span", []float32{2, 0, 0, 0, 0.5, 1, 0, 0, 1}, 0, []int{0, 1, 2}},
		{"plain argmax path", []float32{2, 0, 0, 2, 0, 0}, 0, []int{0, 0}},
		{"weak name, no bias", []float32{2, 0, 0, 1, 0, 0, 2, 0, 0}, 0, []int{0, 0, 0}},
		{"weak name, recall bias", []float32{2, 0, 0, 1, 0, 0, 2, 0, 0}, 1.5, []int{0, 1, 0}},
		{"one token", []float32{0, 1, 3}, 0, []int{1}},
	} {
		n := len(tc.emit) / 3
		got := make([]int, n)
		c.viterbi(tc.emit, n, 3, []float32{tc.bias, 0, 0}, got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: path %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRecallBias(t *testing.T) {
	for _, tc := range []struct {
		p    float32
		want float64
	}{{0.2, math.Log(4)}, {0.5, 0}, {1, 0}, {0.9, 0}, {0, 0}, {0.1, math.Log(9)}} {
		if got := recallBias(tc.p); math.Abs(float64(got)-tc.want) > 1e-6 {
			t.Errorf("recallBias(%g) = %g, want %g", tc.p, got, tc.want)
		}
	}
}

// TestLoadMismatch checks that a model directory whose parts disagree is
// refused with a message: a CRF sized for other labels, gazetteer lists
// for a graph without that input (or the reverse).
func TestLoadMismatch(t *testing.T) {
	needORT(t)
	src := t.TempDir()
	for _, name := range []string{ownModelFile, ownVocabFile, manifestFile} {
		b, err := builtinFS.ReadFile("model/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(file string, f func(map[string]any)) string {
		t.Helper()
		dir := t.TempDir()
		for _, name := range []string{ownModelFile, ownVocabFile, manifestFile} {
			b, err := os.ReadFile(filepath.Join(src, name))
			if err != nil {
				t.Fatal(err)
			}
			if name == file {
				var v map[string]any
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				f(v)
				if b, err = json.Marshal(v); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for _, tc := range []struct {
		name, file, want string
		f                func(map[string]any)
	}{
		{"crf for 2 labels", manifestFile, "crf has", func(v map[string]any) {
			v["crf"] = map[string]any{"transitions": [][]float32{{0, 0}, {0, 0}}, "start": []float32{0, 0}, "end": []float32{0, 0}}
		}},
		{"gazetteer input flipped", ownVocabFile, "want inputs", func(v map[string]any) {
			if _, ok := v["gazetteer_lists"]; ok {
				delete(v, "gazetteer_lists")
				delete(v, "gazetteer")
			} else {
				v["gazetteer_lists"] = []string{"first_name"}
				v["gazetteer"] = map[string]any{"first_name": []string{"john"}}
			}
		}},
	} {
		_, err := Load(edit(tc.file, tc.f), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}
