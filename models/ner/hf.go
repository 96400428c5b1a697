package ner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	onnx "github.com/yalue/onnxruntime_go"
	"golang.org/x/text/unicode/norm"

	"github.com/redactd/redactd/models/ort"
)

// Files of a bring-your-own Hugging Face token-classification model.
const (
	hfModelFile     = "model.onnx"
	hfTokenizerFile = "tokenizer.json"
	hfLabelsFile    = "labels.json"
	hfConfigFile    = "config.json"
)

// hfModel runs a BERT-family token-classification model: the tokenizer is
// BERT's BasicTokenizer (clean-up, optional lowercasing and accent
// stripping, splitting off punctuation and CJK characters) and WordPiece,
// configured from tokenizer.json; each token takes the label of its first
// word piece.
type hfModel struct {
	vocab        map[string]int64
	unk          int64
	cls, sep     int64
	pad          int64
	prefix       string // continuing-subword prefix, "##"
	maxWordChars int
	lowercase    bool
	stripAccents bool
	cleanText    bool
	chinese      bool
	maxLen       int  // pieces per run including [CLS] and [SEP]
	typeIDs      bool // the model takes token_type_ids
	inputs       []string
}

// tokenizerJSON is the part of a Hugging Face tokenizer.json we read.
type tokenizerJSON struct {
	Normalizer *struct {
		Type               string                  `json:"type"`
		Lowercase          *bool                   `json:"lowercase"`
		StripAccents       *bool                   `json:"strip_accents"`
		CleanText          *bool                   `json:"clean_text"`
		HandleChineseChars *bool                   `json:"handle_chinese_chars"`
		Normalizers        []struct{ Type string } `json:"normalizers"`
	} `json:"normalizer"`
	Model struct {
		Type                    string           `json:"type"`
		UnkToken                string           `json:"unk_token"`
		ContinuingSubwordPrefix *string          `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
		Vocab                   map[string]int64 `json:"vocab"`
	} `json:"model"`
	Padding *struct {
		PadID int64 `json:"pad_id"`
	} `json:"padding"`
}

func (m *Model) loadHF(dir string) error {
	var tj tokenizerJSON
	if err := readJSON(filepath.Join(dir, hfTokenizerFile), &tj); err != nil {
		return err
	}
	if tj.Model.Type != "WordPiece" {
		return fmt.Errorf("ner: %s: tokenizer model %q not supported (want WordPiece, the BERT family)", dir, tj.Model.Type)
	}
	h := &hfModel{vocab: tj.Model.Vocab, prefix: "##", maxWordChars: tj.Model.MaxInputCharsPerWord, cleanText: true, chinese: true}
	if len(h.vocab) == 0 {
		return fmt.Errorf("ner: %s: empty WordPiece vocabulary", dir)
	}
	if tj.Model.ContinuingSubwordPrefix != nil {
		h.prefix = *tj.Model.ContinuingSubwordPrefix
	}
	if h.maxWordChars <= 0 {
		h.maxWordChars = 100
	}
	if n := tj.Normalizer; n != nil {
		switch n.Type {
		case "BertNormalizer":
			h.lowercase = n.Lowercase == nil || *n.Lowercase
			h.stripAccents = h.lowercase
			if n.StripAccents != nil {
				h.stripAccents = *n.StripAccents
			}
			if n.CleanText != nil {
				h.cleanText = *n.CleanText
			}
			if n.HandleChineseChars != nil {
				h.chinese = *n.HandleChineseChars
			}
		case "Sequence":
			for _, x := range n.Normalizers {
				switch x.Type {
				case "Lowercase":
					h.lowercase = true
				case "StripAccents":
					h.stripAccents = true
				}
			}
		case "Lowercase":
			h.lowercase = true
		}
	}
	var ok bool
	unk := tj.Model.UnkToken
	if unk == "" {
		unk = "[UNK]"
	}
	if h.unk, ok = h.vocab[unk]; !ok {
		return fmt.Errorf("ner: %s: unknown token %q not in vocabulary", dir, unk)
	}
	if h.cls, ok = h.vocab["[CLS]"]; !ok {
		return fmt.Errorf("ner: %s: no [CLS] in vocabulary", dir)
	}
	if h.sep, ok = h.vocab["[SEP]"]; !ok {
		return fmt.Errorf("ner: %s: no [SEP] in vocabulary", dir)
	}
	h.pad = h.vocab["[PAD]"]
	if tj.Padding != nil {
		h.pad = tj.Padding.PadID
	}

	names, maxPos, err := hfLabels(dir)
	if err != nil {
		return err
	}
	m.setLabels(names)
	m.manifest = Manifest{Name: filepath.Base(dir), Version: "byo", Labels: names}
	m.manifest.Tokenizer.WindowTokens = 64

	h.maxLen = m.opts.MaxLen
	if h.maxLen <= 0 {
		h.maxLen = 256
	}
	if maxPos > 0 {
		h.maxLen = min(h.maxLen, maxPos)
	}
	h.maxLen = max(h.maxLen, 8)

	p := filepath.Join(dir, hfModelFile)
	in, out, err := ort.ModelIO(p)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, x := range in {
		have[x.Name] = true
	}
	if !have["input_ids"] || !have["attention_mask"] {
		return fmt.Errorf("ner: %s: want inputs input_ids and attention_mask, have %v", p, in)
	}
	h.inputs = []string{"input_ids", "attention_mask"}
	if have["token_type_ids"] {
		h.typeIDs = true
		h.inputs = append(h.inputs, "token_type_ids")
	}
	if len(in) != len(h.inputs) {
		return fmt.Errorf("ner: %s: unexpected inputs %v", p, in)
	}
	if len(out) < 1 || len(out[0].Shape) != 3 {
		return fmt.Errorf("ner: %s: first output must be logits [batch, pieces, labels], have %v", p, out)
	}
	if s := out[0].Shape[2]; s > 0 && int(s) != len(names) {
		return fmt.Errorf("ner: %s: %d output classes but %d labels", p, s, len(names))
	}
	m.sess, err = ort.NewSession(p, h.inputs, []string{out[0].Name})
	if err != nil {
		return err
	}
	m.hf = h
	return nil
}

// hfLabels reads the label names by class index from labels.json (a list,
// or an object index -> name) or config.json's id2label; it also returns
// config.json's max_position_embeddings when present.
func hfLabels(dir string) ([]string, int, error) {
	var cfg struct {
		ID2Label map[string]string `json:"id2label"`
		MaxPos   int               `json:"max_position_embeddings"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, hfConfigFile)); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			return nil, 0, fmt.Errorf("ner: %s: %w", hfConfigFile, err)
		}
	}
	raw := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(dir, hfLabelsFile)); err == nil {
		var list []string
		if json.Unmarshal(b, &list) == nil {
			for i, n := range list {
				raw[strconv.Itoa(i)] = n
			}
		} else if err := json.Unmarshal(b, &raw); err != nil {
			var wrapped struct {
				ID2Label map[string]string `json:"id2label"`
			}
			if json.Unmarshal(b, &wrapped) != nil || len(wrapped.ID2Label) == 0 {
				return nil, 0, fmt.Errorf("ner: %s: want a list of labels or an object index -> label", hfLabelsFile)
			}
			raw = wrapped.ID2Label
		}
	} else {
		raw = cfg.ID2Label
	}
	if len(raw) == 0 {
		return nil, 0, fmt.Errorf("ner: %s: no label map (%s, or id2label in %s)", dir, hfLabelsFile, hfConfigFile)
	}
	names := make([]string, len(raw))
	for k, v := range raw {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(raw) {
			return nil, 0, fmt.Errorf("ner: %s: label index %q is not in 0..%d", dir, k, len(raw)-1)
		}
		names[i] = v
	}
	return names, cfg.MaxPos, nil
}

// pieces runs BasicTokenizer and WordPiece on one token.
func (h *hfModel) pieces(tok string) []int64 {
	var ids []int64
	for _, w := range h.basic(tok) {
		ids = append(ids, h.wordPiece(w)...)
	}
	return ids
}

// basic is BERT's BasicTokenizer on one token.
func (h *hfModel) basic(tok string) []string {
	var b strings.Builder
	for _, r := range tok {
		if h.cleanText {
			if r == 0 || r == 0xfffd || isControl(r) {
				continue
			}
			if unicode.IsSpace(r) {
				r = ' '
			}
		}
		if h.chinese && isCJK(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	var out []string
	for _, w := range strings.Fields(b.String()) {
		if h.lowercase {
			w = strings.ToLower(w)
		}
		if h.stripAccents {
			w = stripAccents(w)
		}
		// Split off punctuation.
		start := -1
		for i, r := range w {
			if isBertPunct(r) {
				if start >= 0 {
					out = append(out, w[start:i])
					start = -1
				}
				out = append(out, string(r))
				continue
			}
			if start < 0 {
				start = i
			}
		}
		if start >= 0 {
			out = append(out, w[start:])
		}
	}
	return out
}

// wordPiece splits a word greedily into the longest vocabulary entries.
func (h *hfModel) wordPiece(w string) []int64 {
	runes := []rune(w)
	if len(runes) > h.maxWordChars {
		return []int64{h.unk}
	}
	var ids []int64
	for start := 0; start < len(runes); {
		end := len(runes)
		found := int64(-1)
		for end > start {
			sub := string(runes[start:end])
			if start > 0 {
				sub = h.prefix + sub
			}
			if id, ok := h.vocab[sub]; ok {
				found = id
				break
			}
			end--
		}
		if found < 0 {
			return []int64{h.unk}
		}
		ids = append(ids, found)
		start = end
	}
	return ids
}

func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.C) // Cc, Cf, Co, Cs: Rust's char::is_other
}

func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// isBertPunct is BERT's punctuation test: ASCII non-alphanumeric
// printable characters and Unicode punctuation.
func isBertPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

func stripAccents(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// split cuts tokens so that each part's pieces fit maxLen with [CLS] and
// [SEP].
func (h *hfModel) split(toks []string, _ int) [][]string {
	var (
		out   [][]string
		start int
		n     int
	)
	for i, t := range toks {
		k := len(h.pieces(t))
		if n > 0 && n+k > h.maxLen-2 {
			out = append(out, toks[start:i])
			start, n = i, 0
		}
		n += k
	}
	return append(out, toks[start:])
}

// prepare maps tokens to piece ids; NL tokens have no pieces (label O).
func (h *hfModel) prepare(toks []string) (*seq, error) {
	s := &seq{tokens: toks, ids: []int64{h.cls}, first: make([]int, len(toks))}
	for i, t := range toks {
		s.first[i] = -1
		if t == NL {
			continue
		}
		ps := h.pieces(t)
		if len(ps) == 0 {
			continue
		}
		if len(s.ids)+len(ps) > h.maxLen-1 {
			ps = ps[:max(0, h.maxLen-1-len(s.ids))]
			if len(ps) == 0 {
				continue
			}
		}
		s.first[i] = len(s.ids)
		s.ids = append(s.ids, ps...)
	}
	s.ids = append(s.ids, h.sep)
	s.key = (len(s.ids) + 15) / 16
	return s, nil
}

func (h *hfModel) run(m *Model, reqs []*seq) ([]result, error) {
	B, S := len(reqs), 0
	for _, r := range reqs {
		S = max(S, len(r.ids))
	}
	ids := make([]int64, B*S)
	mask := make([]int64, B*S)
	for b, r := range reqs {
		for i := range S {
			if i < len(r.ids) {
				ids[b*S+i] = r.ids[i]
				mask[b*S+i] = 1
			} else {
				ids[b*S+i] = h.pad
			}
		}
	}
	shape := onnx.NewShape(int64(B), int64(S))
	var inputs []onnx.Value
	defer func() {
		for _, v := range inputs {
			v.Destroy()
		}
	}()
	for _, data := range [][]int64{ids, mask, make([]int64, B*S)}[:len(h.inputs)] {
		t, err := onnx.NewTensor(shape, data)
		if err != nil {
			return nil, fmt.Errorf("ner: tensor: %w", err)
		}
		inputs = append(inputs, t)
	}
	L := len(m.labels)
	lt, err := onnx.NewEmptyTensor[float32](onnx.NewShape(int64(B), int64(S), int64(L)))
	if err != nil {
		return nil, fmt.Errorf("ner: tensor: %w", err)
	}
	defer lt.Destroy()
	if err := m.sess.Run(inputs, []onnx.Value{lt}); err != nil {
		return nil, err
	}
	logits := lt.GetData()
	out := make([]result, B)
	for b, r := range reqs {
		res := result{labels: make([]Label, len(r.tokens)), scores: make([]float32, len(r.tokens))}
		for i, f := range r.first {
			if f < 0 {
				continue
			}
			off := (b*S + f) * L
			res.labels[i], res.scores[i] = m.decodeLogits(logits[off : off+L])
		}
		out[b] = res
	}
	return out, nil
}
