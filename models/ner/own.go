package ner

import (
	"fmt"
	"io/fs"
	"runtime"
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
	// gazetteer maps a normalised word to its feature: bit i set when
	// list i of vocab.json's gazetteer_lists holds it. nil for a model
	// without that input.
	gazetteer map[string]int64
}

// loadOwn loads a model of this recipe from fsys (a directory, or the
// embedded files); where names it in errors. The ONNX graph is opened
// from memory, so the built-in model needs no file on disk.
func (m *Model) loadOwn(fsys fs.FS, where string) error {
	name := func(f string) string { return where + "/" + f }
	if err := readJSONFS(fsys, manifestFile, where, &m.manifest); err != nil {
		return err
	}
	if len(m.manifest.Labels) == 0 {
		return fmt.Errorf("ner: %s: no labels", name(manifestFile))
	}
	om, err := readOwnVocab(fsys, where, m.manifest.Tokenizer.MaxChars)
	if err != nil {
		return err
	}
	m.own = om
	m.setLabels(m.manifest.Labels)
	if c := m.manifest.CRF; c != nil {
		if err := c.check(len(m.labels)); err != nil {
			return fmt.Errorf("ner: %s: %w", name(manifestFile), err)
		}
	}

	p := name(ownModelFile)
	graph, err := fs.ReadFile(fsys, ownModelFile)
	if err != nil {
		return fmt.Errorf("ner: %w", err)
	}
	in, out, err := ort.ModelIOData(p, graph)
	if err != nil {
		return err
	}
	inputs := []string{"words", "chars", "shapes"}
	if om.gazetteer != nil {
		inputs = append(inputs, "gazetteer")
	}
	if len(in) != len(inputs) || len(out) != 1 {
		return fmt.Errorf("ner: %s: want inputs %v (as vocab.json says) and one output, have %d and %d", p, inputs, len(in), len(out))
	}
	if s := out[0].Shape; len(s) != 3 || (s[2] > 0 && int(s[2]) != len(m.labels)) {
		return fmt.Errorf("ner: %s: output shape %v does not fit %d labels", p, s, len(m.labels))
	}
	cfg, _ := ort.Current()
	m.par = runParallelism(cfg, runtime.GOMAXPROCS(0))
	m.sess, err = ort.NewSessionFromData(p, graph, inputs, []string{out[0].Name}, ort.WithIntraOpThreads(1))
	return err
}

// runParallelism is how many single-threaded runs of the built-in model
// go at once: on the CPU, the process's ONNX Runtime thread count
// (engine/config ort-threads, by default one per CPU) capped by
// GOMAXPROCS; on CUDA one. The BiLSTM's many small steps scale poorly
// across intra-op threads: a batch of 64 windows of 56 tokens cost about
// 57 CPU-ms on one thread and 65-76 on two (2-core Xeon, bench/PROFILE.md),
// so a batch is cut into chunks run side by side on one thread each, as
// models/ocr's recogniser runs its own, each chunk holding one slot of
// the shared Lane while it runs (ort.Options.Slots).
func runParallelism(cfg ort.Options, procs int) int { return cfg.Slots(procs) }

// minChunk is the fewest sequences a chunk of a batch holds when the batch
// is cut for runs side by side (runChunks).
const minChunk = 4

// readOwnVocab reads vocab.json: {"words": [...], "chars": [...]}, ids by
// position, the first three of each list being padding, unknown and NL;
// and, for a model with gazetteer features, "gazetteer_lists" (list
// names, bit 0 first) and "gazetteer" (list name: normalised words).
func readOwnVocab(fsys fs.FS, where string, maxChars int) (*ownModel, error) {
	path := where + "/" + ownVocabFile
	var v struct {
		Words     []string            `json:"words"`
		Chars     []string            `json:"chars"`
		GazLists  []string            `json:"gazetteer_lists"`
		Gazetteer map[string][]string `json:"gazetteer"`
	}
	if err := readJSONFS(fsys, ownVocabFile, where, &v); err != nil {
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
	if len(v.GazLists) > 0 {
		if len(v.GazLists) > 16 {
			return nil, fmt.Errorf("ner: %s: %d gazetteer lists, at most 16", path, len(v.GazLists))
		}
		om.gazetteer = make(map[string]int64)
		for bit, name := range v.GazLists {
			for _, w := range v.Gazetteer[name] {
				om.gazetteer[w] |= 1 << bit
			}
		}
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
		gaz:    make([]int64, len(toks)),
	}
	for i, t := range toks {
		s.shapes[i] = int64(Shape(t))
		if t == NL {
			s.words[i] = idNL
			s.chars[i] = []int64{idNL}
			continue
		}
		norm := Norm(t)
		if id, ok := om.words[norm]; ok {
			s.words[i] = id
		} else {
			s.words[i] = idUnk
		}
		s.gaz[i] = om.gazetteer[norm]
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

// run runs a batch as up to m.par chunks side by side, each a model run
// on one intra-op thread (runParallelism) holding one slot of the lane
// (batch.Lane.Spread). A sequence's result does not depend on the
// sequences it shares a run with (TestBatchIndependence), so neither does
// it on the cut.
func (om *ownModel) run(m *Model, reqs []*seq) ([]result, error) {
	parts := max(1, min(m.par, len(reqs)/minChunk))
	out := make([]result, len(reqs))
	err := m.opts.Lane.Spread(parts, parts, func(k int) error {
		i, j := k*len(reqs)/parts, (k+1)*len(reqs)/parts
		res, err := om.runChunk(m, reqs[i:j])
		if err != nil {
			return err
		}
		copy(out[i:j], res)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// runChunk pads sequences into [B,T] and [B,T,C] tensors and runs the
// model once. Padding never changes a sequence's result: the model reads
// each sequence's length from its word ids (see train/model.py).
func (om *ownModel) runChunk(m *Model, reqs []*seq) ([]result, error) {
	B, T, C := len(reqs), 1, 1
	for _, r := range reqs {
		T = max(T, len(r.tokens))
		for _, c := range r.chars {
			C = max(C, len(c))
		}
	}
	words := make([]int64, B*T)
	shapes := make([]int64, B*T)
	gaz := make([]int64, B*T)
	chars := make([]int64, B*T*C)
	for b, r := range reqs {
		copy(words[b*T:], r.words)
		copy(shapes[b*T:], r.shapes)
		copy(gaz[b*T:], r.gaz)
		for t, cs := range r.chars {
			copy(chars[(b*T+t)*C:], cs)
		}
	}
	type feed struct {
		shape onnx.Shape
		data  []int64
	}
	bt := onnx.NewShape(int64(B), int64(T))
	feeds := []feed{{bt, words}, {onnx.NewShape(int64(B), int64(T), int64(C)), chars}, {bt, shapes}}
	if om.gazetteer != nil {
		feeds = append(feeds, feed{bt, gaz})
	}
	var ins []onnx.Value
	defer func() {
		for _, v := range ins {
			v.Destroy()
		}
	}()
	for _, f := range feeds {
		v, err := onnx.NewTensor(f.shape, f.data)
		if err != nil {
			return nil, fmt.Errorf("ner: tensor: %w", err)
		}
		ins = append(ins, v)
	}
	L := len(m.labels)
	lt, err := onnx.NewEmptyTensor[float32](onnx.NewShape(int64(B), int64(T), int64(L)))
	if err != nil {
		return nil, fmt.Errorf("ner: tensor: %w", err)
	}
	defer lt.Destroy()
	if err := m.sess.Run(ins, []onnx.Value{lt}); err != nil {
		return nil, err
	}
	logits := lt.GetData()
	out := make([]result, B)
	for b, r := range reqs {
		out[b] = m.decodeSeq(logits[b*T*L:], len(r.tokens))
		out[b].probs = m.probsOf(logits[b*T*L:], len(r.tokens))
	}
	return out, nil
}
