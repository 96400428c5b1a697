package ner

import (
	"fmt"
	"path/filepath"
	"unicode/utf8"

	onnx "github.com/yalue/onnxruntime_go"

	"github.com/redactd/redactd/models/ort"
)

// Files of a model trained by models/ner/train.
const (
	ownModelFile = "ner.onnx"
	ownVocabFile = "vocab.json"
	manifestFile = "manifest.json"
)

// Special ids shared by the word and char vocabularies.
const (
	idPad = 0
	idUnk = 1
	idNL  = 2
)

// ownModel holds the vocabularies of the project's own model.
type ownModel struct {
	words    map[string]int64
	chars    map[rune]int64
	maxChars int
}

func (m *Model) loadOwn(dir string) error {
	if err := readJSON(filepath.Join(dir, manifestFile), &m.manifest); err != nil {
		return err
	}
	if len(m.manifest.Labels) == 0 {
		return fmt.Errorf("ner: %s: no labels", filepath.Join(dir, manifestFile))
	}
	om, err := readOwnVocab(filepath.Join(dir, ownVocabFile), m.manifest.Tokenizer.MaxChars)
	if err != nil {
		return err
	}
	m.own = om
	for _, n := range m.manifest.Labels {
		m.labels = append(m.labels, ParseLabel(n))
		m.names = append(m.names, n)
	}

	p := filepath.Join(dir, ownModelFile)
	in, out, err := ort.ModelIO(p)
	if err != nil {
		return err
	}
	if len(in) != 3 || len(out) != 1 {
		return fmt.Errorf("ner: %s: want inputs words, chars, shapes and one output, have %d and %d", p, len(in), len(out))
	}
	if s := out[0].Shape; len(s) != 3 || (s[2] > 0 && int(s[2]) != len(m.labels)) {
		return fmt.Errorf("ner: %s: output shape %v does not fit %d labels", p, s, len(m.labels))
	}
	m.sess, err = ort.NewSession(p, []string{"words", "chars", "shapes"}, []string{out[0].Name})
	return err
}

// readOwnVocab reads vocab.json: {"words": [...], "chars": [...]}, ids by
// position, the first three of each list being padding, unknown and NL.
func readOwnVocab(path string, maxChars int) (*ownModel, error) {
	var v struct {
		Words []string `json:"words"`
		Chars []string `json:"chars"`
	}
	if err := readJSON(path, &v); err != nil {
		return nil, err
	}
	if len(v.Words) < 3 || len(v.Chars) < 3 {
		return nil, fmt.Errorf("ner: %s: vocabularies too small", path)
	}
	om := &ownModel{
		words:    make(map[string]int64, len(v.Words)),
		chars:    make(map[rune]int64, len(v.Chars)),
		maxChars: maxChars,
	}
	if om.maxChars <= 0 {
		om.maxChars = 20
	}
	for i, w := range v.Words[3:] {
		om.words[w] = int64(i + 3)
	}
	for i, c := range v.Chars[3:] {
		r, size := utf8.DecodeRuneInString(c)
		if size != len(c) {
			return nil, fmt.Errorf("ner: %s: char entry %q is not one rune", path, c)
		}
		om.chars[r] = int64(i + 3)
	}
	return om, nil
}

// prepare computes a sequence's features.
func (om *ownModel) prepare(toks []string) *seq {
	s := &seq{
		tokens: toks,
		key:    (len(toks) + 7) / 8,
		words:  make([]int64, len(toks)),
		shapes: make([]int64, len(toks)),
		chars:  make([][]int64, len(toks)),
	}
	for i, t := range toks {
		s.shapes[i] = int64(Shape(t))
		if t == NL {
			s.words[i] = idNL
			s.chars[i] = []int64{idNL}
			continue
		}
		if id, ok := om.words[Norm(t)]; ok {
			s.words[i] = id
		} else {
			s.words[i] = idUnk
		}
		cs := make([]int64, 0, min(len(t), om.maxChars))
		for _, r := range t {
			if len(cs) == om.maxChars {
				break
			}
			id, ok := om.chars[r]
			if !ok {
				id = idUnk
			}
			cs = append(cs, id)
		}
		s.chars[i] = cs
	}
	return s
}

// run pads a batch into [B,T] and [B,T,C] tensors and runs the model.
// Padding never changes a sequence's result: the model reads each
// sequence's length from its word ids (see train/model.py).
func (om *ownModel) run(m *Model, reqs []*seq) ([]result, error) {
	B, T, C := len(reqs), 1, 1
	for _, r := range reqs {
		T = max(T, len(r.tokens))
		for _, c := range r.chars {
			C = max(C, len(c))
		}
	}
	words := make([]int64, B*T)
	shapes := make([]int64, B*T)
	chars := make([]int64, B*T*C)
	for b, r := range reqs {
		copy(words[b*T:], r.words)
		copy(shapes[b*T:], r.shapes)
		for t, cs := range r.chars {
			copy(chars[(b*T+t)*C:], cs)
		}
	}
	L := len(m.labels)
	wt, err := onnx.NewTensor(onnx.NewShape(int64(B), int64(T)), words)
	if err != nil {
		return nil, fmt.Errorf("ner: tensor: %w", err)
	}
	defer wt.Destroy()
	ct, err := onnx.NewTensor(onnx.NewShape(int64(B), int64(T), int64(C)), chars)
	if err != nil {
		return nil, fmt.Errorf("ner: tensor: %w", err)
	}
	defer ct.Destroy()
	st, err := onnx.NewTensor(onnx.NewShape(int64(B), int64(T)), shapes)
	if err != nil {
		return nil, fmt.Errorf("ner: tensor: %w", err)
	}
	defer st.Destroy()
	lt, err := onnx.NewEmptyTensor[float32](onnx.NewShape(int64(B), int64(T), int64(L)))
	if err != nil {
		return nil, fmt.Errorf("ner: tensor: %w", err)
	}
	defer lt.Destroy()
	if err := m.sess.Run([]onnx.Value{wt, ct, st}, []onnx.Value{lt}); err != nil {
		return nil, err
	}
	logits := lt.GetData()
	out := make([]result, B)
	for b, r := range reqs {
		n := len(r.tokens)
		res := result{labels: make([]Label, n), scores: make([]float32, n)}
		for t := 0; t < n; t++ {
			off := (b*T + t) * L
			res.labels[t], res.scores[t] = m.decodeLogits(logits[off : off+L])
		}
		out[b] = res
	}
	return out, nil
}
