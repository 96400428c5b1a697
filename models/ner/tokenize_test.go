package ner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode"
)

// tokenizerFixture is written by train/nertok.py (fixture command) from
// the same texts the Python tokenizer saw; Go must agree token for token.
type tokenizerFixture struct {
	Cases []struct {
		Text   string   `json:"text"`
		Tokens []string `json:"tokens"`
		Norm   []string `json:"norm"`
		Shape  []int    `json:"shape"`
		Words  []struct {
			Word   string  `json:"word"`
			Pieces [][]any `json:"pieces"`
		} `json:"words"`
		WordIDs []int64   `json:"word_ids"`
		CharIDs [][]int64 `json:"char_ids"`
		GazIDs  []int64   `json:"gaz_ids"`
	} `json:"cases"`
}

func TestTokenizerParity(t *testing.T) {
	var fx tokenizerFixture
	readFixture(t, "tokenizer_fixture.json", &fx)
	if len(fx.Cases) == 0 {
		t.Fatal("empty fixture")
	}
	om := builtinVocab(t)
	for _, c := range fx.Cases {
		got := Tokenize(c.Text)
		if len(got) == 0 && len(c.Tokens) == 0 {
			continue
		}
		if !slices.Equal(got, c.Tokens) {
			t.Errorf("Tokenize(%q)\n got %q\nwant %q", c.Text, got, c.Tokens)
			continue
		}
		for i, tok := range got {
			if n := Norm(tok); n != c.Norm[i] {
				t.Errorf("Norm(%q) = %q, want %q", tok, n, c.Norm[i])
			}
			if s := Shape(tok); s != c.Shape[i] {
				t.Errorf("Shape(%q) = %d, want %d", tok, s, c.Shape[i])
			}
		}
		for _, w := range c.Words {
			ps := Pieces(w.Word)
			if len(ps) != len(w.Pieces) {
				t.Errorf("Pieces(%q) = %v, want %v", w.Word, ps, w.Pieces)
				continue
			}
			for i, p := range ps {
				want := w.Pieces[i]
				if p.Text != want[0].(string) || p.Start != int(want[1].(float64)) || p.End != int(want[2].(float64)) {
					t.Errorf("Pieces(%q)[%d] = %+v, want %v", w.Word, i, p, want)
				}
			}
		}
		if c.WordIDs != nil {
			s := om.prepare(got)
			if !slices.Equal(s.words, c.WordIDs) {
				t.Errorf("word ids of %q\n got %v\nwant %v", c.Text, s.words, c.WordIDs)
			}
			if c.GazIDs != nil && !slices.Equal(s.gaz, c.GazIDs) {
				t.Errorf("gazetteer ids of %q\n got %v\nwant %v", c.Text, s.gaz, c.GazIDs)
			}
			for i := range got {
				if !slices.Equal(s.chars[i], c.CharIDs[i]) {
					t.Errorf("char ids of %q = %v, want %v", got[i], s.chars[i], c.CharIDs[i])
				}
			}
		}
	}
}

// TestPiecesOffsets checks the rune offsets on the cases the detector
// relies on to mask part of a word.
func TestPiecesOffsets(t *testing.T) {
	tests := []struct {
		word string
		want []Piece
	}{
		{"Berlin,", []Piece{{"Berlin", 0, 6}, {",", 6, 7}}},
		{"(Müller)", []Piece{{"(", 0, 1}, {"Müller", 1, 7}, {")", 7, 8}}},
		{"O'Brien", []Piece{{"O", 0, 1}, {"'", 1, 2}, {"Brien", 2, 7}}},
		{"a\xffb", []Piece{{"a", 0, 1}, {"\uFFFD", 1, 2}, {"b", 2, 3}}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Pieces(tt.word); !slices.Equal(got, tt.want) {
			t.Errorf("Pieces(%q) = %+v, want %+v", tt.word, got, tt.want)
		}
	}
}

// TestWhitespaceMatchesPython pins the white-space set nertok.SPACES lists
// to Go's unicode.IsSpace over the BMP.
func TestWhitespaceMatchesPython(t *testing.T) {
	py := map[rune]bool{0x09: true, 0x0A: true, 0x0B: true, 0x0C: true, 0x0D: true, 0x20: true, 0x85: true, 0xA0: true,
		0x1680: true, 0x2028: true, 0x2029: true, 0x202F: true, 0x205F: true, 0x3000: true}
	for r := rune(0x2000); r < 0x200B; r++ {
		py[r] = true
	}
	for r := rune(0); r < 0x10000; r++ {
		if unicode.IsSpace(r) != py[r] {
			t.Errorf("U+%04X: unicode.IsSpace = %v, nertok.SPACES has it = %v", r, unicode.IsSpace(r), py[r])
		}
	}
}

func readFixture(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// builtinVocab loads the shipped vocabularies without ONNX Runtime.
func builtinVocab(t testing.TB) *ownModel {
	t.Helper()
	om, err := readOwnVocab(os.DirFS("model"), "model", 20)
	if err != nil {
		t.Fatal(err)
	}
	return om
}
