// Package ner finds people, organisations, locations and postal addresses
// in text with an ONNX token-classification model.
//
// The built-in model is the project's own (models/ner/train, shipped in
// models/ner/model and embedded in the binary): word, character and
// word-shape features into a BiLSTM, small and fast on a CPU. An operator
// may instead point Load at a directory holding a Hugging Face
// token-classification model exported to ONNX with its tokenizer.json
// (WordPiece) and label map; see hf.go.
//
// Tag labels one token sequence (tokens as Tokenize makes them); calls from
// many goroutines share model runs through a dynamic batcher (models/batch)
// that groups sequences of similar length. Detector applies the model to
// the lines of a page (see detector.go).
package ner

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/redactd/redactd/models/batch"
	"github.com/redactd/redactd/models/ort"
)

//go:embed model/ner.onnx model/vocab.json model/manifest.json
//go:embed multilingual/ner.onnx multilingual/vocab.json multilingual/manifest.json
var builtinFS embed.FS

// Builtin names the embedded English model in Load.
const Builtin = "builtin"

// BuiltinMultilingual names the embedded multilingual model in Load: the
// English model fine-tuned on German, French, Spanish, Italian, Dutch
// and Portuguese with its own English reading kept (distillation; the
// model card, multilingual/README.md), which the service runs on the
// blocks in those languages (Routed).
const BuiltinMultilingual = "builtin-multilingual"

// Options tune a Model; zero values mean the defaults.
type Options struct {
	// BatchSize is the most sequences per model run (default 64;
	// engine/config batch-size).
	BatchSize int
	// BatchWait is how long a sequence waits for its batch to fill
	// (default 2ms).
	BatchWait time.Duration
	// Lane, when set, is shared with other models' batchers so their runs
	// take turns on the cores.
	Lane *batch.Lane
	// Observe, when set, is told of every batch the model runs.
	Observe batch.Observer
	// EntityProb biases decoding towards recall: a token whose most
	// likely entity label has at least this probability gets that label
	// even when O is more likely (default 0.2; 1 or more decodes by plain
	// argmax). A missed name is a leak, a masked extra word is not.
	EntityProb float32
	// PersonProb is EntityProb for person labels alone (default 0.1): a
	// missed name is the leak that matters most, and on the dev splits a
	// lower bar for persons alone raised person recall everywhere at a
	// smaller cost in precision than a lower bar for every type (see the
	// README, "Decoding").
	PersonProb float32
	// MaxLen is the longest sequence one run sees, in tokens for the
	// built-in model (default 128) and in word pieces for a Hugging Face
	// model (default 256, at most its position embeddings). Longer input
	// to Tag is cut into pieces of MaxLen.
	MaxLen int
}

// Defaults of Options.EntityProb and Options.PersonProb, and the
// service's PersonProb for the multilingual model
// (ner-multilingual-person-prob): chosen on the dev splits of the six
// languages it reads (docs/languages.md), and what the held-out gate
// reads it at.
const (
	DefaultEntityProb             = 0.2
	DefaultPersonProb             = 0.1
	DefaultMultilingualPersonProb = 0.07
)

// Model is a loaded NER model. It is safe for concurrent use.
type Model struct {
	opts   Options
	labels []Label  // per output class
	names  []string // per output class, as the model's label map says
	// isO per output class: no entity the detector masks (O, and MISC or
	// any other type: what the recall bias lowers).
	isO []bool
	// minProb per output class: the probability at which a masked
	// entity's label wins over O in per-token decoding (EntityProb, or
	// PersonProb for PER); bias: what Viterbi subtracts from its emission
	// for the same effect (recallBias).
	minProb, bias []float32
	sess          *ort.Session
	b             *batch.Batcher[*seq, result]
	// par is how many single-threaded runs of the built-in model go at
	// once (runParallelism); Hugging Face models run on the environment's
	// threads, one run at a time.
	par int

	// Exactly one of these is set.
	own *ownModel
	hf  *hfModel

	manifest Manifest
}

// seq is one sequence on its way through the batcher.
type seq struct {
	tokens []string
	key    int
	// built-in model features
	words, shapes, gaz []int64
	chars              [][]int64
	// Hugging Face model pieces
	ids   []int64 // with [CLS] and [SEP]
	first []int   // per token: index in ids of its first piece, -1 if none
}

type result struct {
	labels []Label
	scores []float32
	// probs are the tokens' class probabilities (len(labels) rows of
	// len(m.labels)), for callers that combine several views of a token.
	probs []float32
}

// Manifest is the part of manifest.json the runtime reads.
type Manifest struct {
	Name      string   `json:"name"`
	Version   string   `json:"version"`
	Labels    []string `json:"labels"`
	Tokenizer struct {
		MaxChars     int `json:"max_chars"`
		WindowTokens int `json:"window_tokens"`
	} `json:"tokenizer"`
	// CRF, when set, decodes the logits (then the CRF's emissions) with
	// Viterbi instead of token by token.
	CRF *CRF `json:"crf,omitempty"`
}

// Off reports whether a model setting names no model: "" or "off" (the
// second model's setting, ner-model-multilingual, may be off).
func Off(setting string) bool { return setting == "" || setting == "off" }

// Embedded reports whether Load reads dir from the executable: Builtin
// (or "") and BuiltinMultilingual.
func Embedded(dir string) bool { return dir == "" || dir == Builtin || dir == BuiltinMultilingual }

// Load opens the model in dir: Builtin (or "") for the embedded English
// model, BuiltinMultilingual for the embedded multilingual one, a
// directory with ner.onnx, vocab.json and manifest.json for a model the
// recipe trained, or a directory with a Hugging Face model.onnx,
// tokenizer.json and labels.json (or config.json with id2label). It
// initialises the ONNX Runtime environment with defaults if nothing did
// before.
func Load(dir string, opts Options) (*Model, error) {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 64
	}
	if opts.BatchWait <= 0 {
		opts.BatchWait = 2 * time.Millisecond
	}
	if opts.EntityProb <= 0 {
		opts.EntityProb = DefaultEntityProb
	}
	if opts.PersonProb <= 0 {
		opts.PersonProb = DefaultPersonProb
	}
	if !ort.Initialized() {
		if err := ort.Init(ort.Options{}); err != nil {
			return nil, err
		}
	}
	m := &Model{opts: opts}
	var err error
	switch {
	case dir == "" || dir == Builtin:
		err = m.loadBuiltin("model", "built-in model")
	case dir == BuiltinMultilingual:
		err = m.loadBuiltin("multilingual", "built-in multilingual model")
	case exists(filepath.Join(dir, ownModelFile)):
		err = m.loadOwn(os.DirFS(dir), dir)
	case exists(filepath.Join(dir, hfModelFile)):
		err = m.loadHF(dir)
	default:
		err = fmt.Errorf("ner: %s holds neither %s (redactd model) nor %s and tokenizer.json (Hugging Face model)", dir, ownModelFile, hfModelFile)
	}
	if err != nil {
		m.release()
		return nil, err
	}
	// The built-in model's runs take a slot per chunk themselves
	// (ownModel.run), so two batches may run at once: the second fills a
	// slot the first's last chunk leaves idle. A Hugging Face model's run
	// uses every intra-op thread, so it holds the whole lane.
	spread, parallel := m.own != nil && opts.Lane != nil, 1
	if spread {
		parallel = opts.Lane.Overlap()
	}
	m.b = batch.New("ner", m.run, batch.Options[*seq]{
		MaxBatch: opts.BatchSize,
		MaxWait:  opts.BatchWait,
		Key:      func(s *seq) int { return s.key },
		Lane:     opts.Lane,
		Spread:   spread,
		Parallel: parallel,
		Observe:  opts.Observe,
	})
	return m, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// loadBuiltin loads an embedded model (the folder dir of builtinFS)
// straight from the binary: no file is written, so nothing is left
// behind when a process dies before Close.
func (m *Model) loadBuiltin(dir, name string) error {
	sub, err := fs.Sub(builtinFS, dir)
	if err != nil {
		return fmt.Errorf("ner: %s: %w", name, err)
	}
	return m.loadOwn(sub, name)
}

// Labels returns the model's output classes as label names.
func (m *Model) Labels() []string { return append([]string(nil), m.names...) }

// Manifest returns the model's manifest (name, version, labels); a Hugging
// Face model gets one made from its label map.
func (m *Model) Manifest() Manifest { return m.manifest }

// WindowTokens is the window length the model was trained on, in tokens.
func (m *Model) WindowTokens() int {
	if m.manifest.Tokenizer.WindowTokens > 0 {
		return m.manifest.Tokenizer.WindowTokens
	}
	return 64
}

// Tag labels tokens (as Tokenize returns them, NL between lines) and gives
// each label's probability. Sequences longer than Options.MaxLen are cut.
func (m *Model) Tag(ctx context.Context, tokens []string) ([]Label, []float32, error) {
	res, err := m.TagAll(ctx, [][]string{tokens})
	if err != nil {
		return nil, nil, err
	}
	return res[0].Labels, res[0].Scores, nil
}

// Tagged is the result of tagging one sequence.
type Tagged struct {
	Labels []Label
	Scores []float32
	// Probs are the class probabilities, one row per token with a column
	// per class of Labels; nil for Hugging Face models.
	Probs []float32
}

// TagAll tags many sequences at once; they share batches with each other
// and with every other caller.
func (m *Model) TagAll(ctx context.Context, seqs [][]string) ([]Tagged, error) {
	var (
		reqs  []*seq
		owner []int // per request: index in seqs
	)
	for i, toks := range seqs {
		for _, part := range m.split(toks) {
			s, err := m.prepare(part)
			if err != nil {
				return nil, err
			}
			reqs = append(reqs, s)
			owner = append(owner, i)
		}
	}
	out := make([]Tagged, len(seqs))
	for i, toks := range seqs {
		out[i] = Tagged{Labels: make([]Label, 0, len(toks)), Scores: make([]float32, 0, len(toks))}
	}
	if len(reqs) == 0 {
		return out, nil
	}
	res, err := m.b.DoAll(ctx, reqs)
	if err != nil {
		return nil, fmt.Errorf("ner: %w", err)
	}
	for k, r := range res {
		o := &out[owner[k]]
		o.Labels = append(o.Labels, r.labels...)
		o.Scores = append(o.Scores, r.scores...)
		o.Probs = append(o.Probs, r.probs...)
	}
	return out, nil
}

// split cuts a sequence into parts the model takes in one run.
func (m *Model) split(toks []string) [][]string {
	if len(toks) == 0 {
		return nil
	}
	if m.hf != nil {
		return m.hf.split(toks, m.opts.MaxLen)
	}
	n := m.opts.MaxLen
	if n <= 0 {
		n = 128
	}
	var out [][]string
	for len(toks) > n {
		out = append(out, toks[:n])
		toks = toks[n:]
	}
	return append(out, toks)
}

func (m *Model) prepare(toks []string) (*seq, error) {
	if m.hf != nil {
		return m.hf.prepare(toks)
	}
	return m.own.prepare(toks), nil
}

// run is the batcher's executor: one model run for a batch.
func (m *Model) run(_ context.Context, reqs []*seq) ([]result, error) {
	if m.hf != nil {
		return m.hf.run(m, reqs)
	}
	return m.own.run(m, reqs)
}

// setLabels reads the model's output classes from their names (labels,
// names, isO, minProb and bias, by class index).
func (m *Model) setLabels(names []string) {
	m.names = names
	m.labels = make([]Label, len(names))
	m.isO = make([]bool, len(names))
	m.minProb = make([]float32, len(names))
	m.bias = make([]float32, len(names))
	base := recallBias(m.opts.EntityProb)
	for j, n := range names {
		m.labels[j] = ParseLabel(n)
		m.isO[j] = !m.labels[j].Entity.Masked()
		switch {
		case m.isO[j]:
			m.bias[j] = base
		case m.labels[j].Entity == Person:
			m.minProb[j] = m.opts.PersonProb
			m.bias[j] = base - recallBias(m.opts.PersonProb)
		default:
			m.minProb[j] = m.opts.EntityProb
		}
	}
}

// decodeSeq labels the n tokens of one sequence from their logits (n
// rows of len(m.labels)): with Viterbi when the model has a CRF, else
// token by token (decodeLogits). A token's score is its label's softmax
// probability.
func (m *Model) decodeSeq(logits []float32, n int) result {
	L := len(m.labels)
	res := result{labels: make([]Label, n), scores: make([]float32, n)}
	if c := m.manifest.CRF; c != nil {
		path := make([]int, n)
		c.viterbi(logits, n, L, m.bias, path)
		for t, j := range path {
			res.labels[t], res.scores[t] = m.labels[j], softmaxAt(logits[t*L:(t+1)*L], j)
		}
		return res
	}
	for t := range n {
		res.labels[t], res.scores[t] = m.decodeLogits(logits[t*L : (t+1)*L])
	}
	return res
}

// decodeLogits turns one row of logits into a label and its probability:
// the most likely class, unless that is O (or a type the detector ignores)
// and some masked entity's label reaches its minProb; then the most likely
// of those labels.
func (m *Model) decodeLogits(row []float32) (Label, float32) {
	best := 0 // most likely class
	for j := range row {
		if row[j] > row[best] {
			best = j
		}
	}
	// exp(row[j]-row[best]) for every class, once: the sum and the
	// entity labels' probabilities below both need them.
	var buf [16]float64
	e := buf[:0]
	if len(row) > len(buf) {
		e = make([]float64, 0, len(row))
	}
	var sum float64
	for _, v := range row {
		x := math.Exp(float64(v - row[best]))
		e = append(e, x)
		sum += x
	}
	p := float32(1 / sum)
	if !m.isO[best] {
		return m.labels[best], p
	}
	ent, pEnt := -1, float32(0) // most likely masked label over its minProb
	for j := range row {
		if m.isO[j] {
			continue
		}
		// p(j) = exp(row[j]-row[best]) * p(best)
		if pj := float32(e[j]) * p; pj >= m.minProb[j] && pj > pEnt {
			ent, pEnt = j, pj
		}
	}
	if ent >= 0 {
		return m.labels[ent], pEnt
	}
	return m.labels[best], p
}

// probsOf returns the class probabilities of the n tokens whose logits
// are n rows of len(m.labels) (result.probs).
func (m *Model) probsOf(logits []float32, n int) []float32 {
	L := len(m.labels)
	out := make([]float32, n*L)
	for t := range n {
		softmaxInto(out[t*L:(t+1)*L], logits[t*L:(t+1)*L])
	}
	return out
}

// softmaxInto writes the softmax of row into dst.
func softmaxInto(dst, row []float32) {
	best := row[0]
	for _, v := range row {
		best = max(best, v)
	}
	var sum float32
	for j, v := range row {
		dst[j] = float32(math.Exp(float64(v - best)))
		sum += dst[j]
	}
	for j := range dst {
		dst[j] /= sum
	}
}

// Probabilities reports whether TagAll gives class probabilities
// (Tagged.Probs): the built-in kind does, Hugging Face models do not.
func (m *Model) Probabilities() bool { return m.hf == nil }

// DecodeProbs labels n tokens from class probabilities (n rows, one
// column per class of Labels), as the model labels its own outputs: the
// detector averages a token's probabilities over the windows that saw it.
// The log of a softmax differs from the logits by one constant per token,
// which changes neither the token-by-token decision nor the Viterbi path.
func (m *Model) DecodeProbs(probs []float32, n int) ([]Label, []float32) {
	L := len(m.labels)
	logits := make([]float32, n*L)
	for i, p := range probs[:n*L] {
		logits[i] = float32(math.Log(float64(max(p, 1e-30))))
	}
	r := m.decodeSeq(logits, n)
	return r.labels, r.scores
}

// Close stops the batcher (after the queued sequences ran) and releases the
// session.
func (m *Model) Close() error {
	if m.b != nil {
		if err := m.b.Close(); err != nil {
			return err
		}
	}
	return m.release()
}

func (m *Model) release() error {
	if m.sess == nil {
		return nil
	}
	return m.sess.Close()
}

func readJSON(path string, v any) error {
	return readJSONFS(os.DirFS(filepath.Dir(path)), filepath.Base(path), filepath.Dir(path), v)
}

// readJSONFS decodes file of fsys into v; where names fsys in errors.
func readJSONFS(fsys fs.FS, file, where string, v any) error {
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		return fmt.Errorf("ner: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("ner: %s/%s: %w", where, file, err)
	}
	return nil
}
