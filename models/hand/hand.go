// Package hand is redactd's handwriting classifier (issue 47): a small
// CNN, trained by the recipe in train/ on synthetic pen strokes,
// handwriting fonts and printed matter (README.md), that tells whether a
// patch of ink is handwriting (a signature, initials, a note) or print,
// rules, logos, stamps. It is embedded in the binary, so nothing is
// downloaded. engine/visual cuts the patches (visual.Patches); the
// pipeline decides what is masked (engine/pipeline/hand.go).
package hand

import (
	"crypto/sha256"
	_ "embed" // the model ships inside the binary
	"encoding/hex"
	"fmt"

	onnx "github.com/yalue/onnxruntime_go"

	"github.com/redactd/redactd/models/ort"
)

// H and W are the patch's height and width in pixels (visual.PatchH,
// visual.PatchW).
const (
	H = 32
	W = 128
)

//go:embed hand.onnx
var model []byte

// ModelSHA256 is the embedded model's digest (train/train.py's output,
// README.md's figures are for it).
const ModelSHA256 = "05fdf1f6e4749ed77c5364a25037cfdbb0a682b402455ac761625618f080bbdc"

// Model scores patches. It is safe for concurrent use.
type Model struct {
	s *ort.Session
}

// Load opens the embedded model on ONNX Runtime (ort.Init first), one
// intra-op thread a run: its runs are small and come from many pages at
// once.
func Load() (*Model, error) {
	sum := sha256.Sum256(model)
	if got := hex.EncodeToString(sum[:]); got != ModelSHA256 {
		return nil, fmt.Errorf("hand: the embedded model's digest is %s, not %s", got, ModelSHA256)
	}
	s, err := ort.NewSessionFromData("embedded handwriting classifier", model, []string{"patch"}, []string{"prob"}, ort.WithIntraOpThreads(1))
	if err != nil {
		return nil, err
	}
	return &Model{s: s}, nil
}

// maxBatch bounds one run's patches.
const maxBatch = 64

// Score returns each patch's probability of being handwriting. A patch
// is H*W values, row by row, ink = 1.
func (m *Model) Score(patches [][]float32) ([]float32, error) {
	out := make([]float32, 0, len(patches))
	for i := 0; i < len(patches); i += maxBatch {
		b := patches[i:min(i+maxBatch, len(patches))]
		in := make([]float32, 0, len(b)*H*W)
		for _, p := range b {
			if len(p) != H*W {
				return nil, fmt.Errorf("hand: patch of %d values, want %d", len(p), H*W)
			}
			in = append(in, p...)
		}
		x, err := onnx.NewTensor(onnx.NewShape(int64(len(b)), 1, H, W), in)
		if err != nil {
			return nil, fmt.Errorf("hand: input: %w", err)
		}
		probs := make([]float32, len(b))
		y, err := onnx.NewTensor(onnx.NewShape(int64(len(b))), probs)
		if err != nil {
			x.Destroy()
			return nil, fmt.Errorf("hand: output: %w", err)
		}
		err = m.s.Run([]onnx.Value{x}, []onnx.Value{y})
		x.Destroy()
		y.Destroy()
		if err != nil {
			return nil, err
		}
		out = append(out, probs...)
	}
	return out, nil
}

// Close releases the session.
func (m *Model) Close() error {
	if m == nil || m.s == nil {
		return nil
	}
	return m.s.Close()
}
