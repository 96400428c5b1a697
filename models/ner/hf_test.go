package ner

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// byoFixture is testdata/byo/expected.json, written by
// train/byo_tiny.py: word-piece ids from the reference tokenizer
// (@huggingface/tokenizers) and torch logits of the tiny random model.
type byoFixture struct {
	Labels []string `json:"labels"`
	Cases  []struct {
		Text   string      `json:"text"`
		IDs    []int64     `json:"ids"`
		Pieces []string    `json:"pieces"`
		Logits [][]float64 `json:"logits"`
	} `json:"cases"`
}

func loadBYO(t *testing.T, dir string) *Model {
	t.Helper()
	needORT(t)
	m, err := Load(dir, Options{BatchSize: 4})
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestBYOTokenizerMatchesReference(t *testing.T) {
	m := loadBYO(t, filepath.Join("testdata", "byo"))
	var fx byoFixture
	readFixture(t, filepath.Join("byo", "expected.json"), &fx)
	for _, c := range fx.Cases {
		s, err := m.hf.prepare(Tokenize(c.Text))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s.ids, c.IDs) {
			t.Errorf("%q: ids\n got %v\nwant %v (%q)", c.Text, s.ids, c.IDs, c.Pieces)
		}
	}
}

func TestBYOLabelsAndScores(t *testing.T) {
	m := loadBYO(t, filepath.Join("testdata", "byo"))
	var fx byoFixture
	readFixture(t, filepath.Join("byo", "expected.json"), &fx)
	if !slices.Equal(m.Labels(), fx.Labels) {
		t.Fatalf("labels %v, want %v (config.json id2label)", m.Labels(), fx.Labels)
	}
	ctx := context.Background()
	var seqs [][]string
	for _, c := range fx.Cases {
		seqs = append(seqs, Tokenize(c.Text))
	}
	got, err := m.TagAll(ctx, seqs)
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range fx.Cases {
		toks := seqs[k]
		s, _ := m.hf.prepare(toks)
		if len(got[k].Labels) != len(toks) {
			t.Fatalf("%q: %d labels for %d tokens", c.Text, len(got[k].Labels), len(toks))
		}
		for i, f := range s.first {
			if f < 0 {
				if got[k].Labels[i] != O {
					t.Errorf("%q token %q without pieces labelled %v", c.Text, toks[i], got[k].Labels[i])
				}
				continue
			}
			// The token takes its first piece's label.
			best, p := softmaxMax(c.Logits[f])
			if want := ParseLabel(fx.Labels[best]); got[k].Labels[i] != want && p > 0.51 {
				t.Errorf("%q token %q: %v, want %v", c.Text, toks[i], got[k].Labels[i], want)
			} else if got[k].Labels[i] == want && math.Abs(float64(got[k].Scores[i])-p) > 1e-3 {
				t.Errorf("%q token %q: score %v, want %v", c.Text, toks[i], got[k].Scores[i], p)
			}
		}
	}
}

// TestBYOLabelFiles: labels.json as a list, as an object, and the detector
// running on a page through a Hugging Face model.
func TestBYOLabelFiles(t *testing.T) {
	src := filepath.Join("testdata", "byo")
	for name, body := range map[string]string{
		"list":   `["O","B-PER","I-PER","B-ORG","I-ORG","B-LOC","I-LOC","B-MISC","I-MISC"]`,
		"object": `{"0":"O","1":"B-PER","2":"I-PER","3":"B-ORG","4":"I-ORG","5":"B-LOC","6":"I-LOC","7":"B-MISC","8":"I-MISC"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{hfModelFile, hfTokenizerFile} {
				b, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, hfLabelsFile), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			m := loadBYO(t, dir)
			if got := m.Labels(); len(got) != 9 || got[1] != "B-PER" {
				t.Fatalf("labels %v", got)
			}
			p := testPage("John Smith works at Acme Corp", "12 Main Street")
			spans, err := NewDetector(m, DetectorOptions{Locations: true}).Detect(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			checkSpans(t, p, spans)
		})
	}
	// Without any label map the model is refused.
	dir := t.TempDir()
	for _, f := range []string{hfModelFile, hfTokenizerFile} {
		b, _ := os.ReadFile(filepath.Join(src, f))
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	needORT(t)
	if _, err := Load(dir, Options{}); err == nil {
		t.Fatal("model without labels loaded")
	}
}

// TestWordPiece checks BasicTokenizer + WordPiece details on the tiny
// vocabulary.
func TestWordPiece(t *testing.T) {
	m := loadBYO(t, filepath.Join("testdata", "byo"))
	h := m.hf
	inv := map[int64]string{}
	for k, v := range h.vocab {
		inv[v] = k
	}
	tests := []struct {
		tok  string
		want []string
	}{
		{"Smith", []string{"smith"}},
		{"Zürich", []string{"z", "##u", "##r", "##ich"}},
		{"works", []string{"works"}},
		{"北京", []string{"北", "[UNK]"}},
		{"\u200b", nil}, // format character dropped by clean-up
		{"$", []string{"$"}},
	}
	for _, tt := range tests {
		var got []string
		for _, id := range h.pieces(tt.tok) {
			got = append(got, inv[id])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("pieces(%q) = %q, want %q", tt.tok, got, tt.want)
		}
	}
}
