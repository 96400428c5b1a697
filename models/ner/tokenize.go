package ner

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// NL is the token that stands for a line break. The model sees the lines
// of a window joined by NL, so an address can run over several lines.
const NL = "\n"

// The tokenizer below must match models/ner/train/nertok.py exactly (the
// model was trained on its output); testdata/tokenizer_fixture.json, written
// by the Python side, checks it.

// Piece is a token of one word with its rune offsets in that word.
type Piece struct {
	Text       string
	Start, End int // rune offsets in the word, End exclusive
}

// isWordRune reports whether r belongs to a run token: letters, marks and
// numbers (Unicode categories L*, M*, N*).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

// Pieces splits one word into tokens: maximal runs of letters, marks and
// numbers, and every other non-space rune alone. Invalid UTF-8 bytes
// become U+FFFD tokens.
func Pieces(word string) []Piece {
	return appendPieces(nil, word)
}

func appendPieces(out []Piece, word string) []Piece {
	var (
		i        int // rune index
		runStart = -1
		runByte  int
	)
	flush := func(endByte, endRune int) {
		if runStart >= 0 {
			out = append(out, Piece{Text: word[runByte:endByte], Start: runStart, End: endRune})
			runStart = -1
		}
	}
	for b := 0; b < len(word); {
		r, size := utf8.DecodeRuneInString(word[b:])
		switch {
		case unicode.IsSpace(r):
			flush(b, i)
		case r != utf8.RuneError && isWordRune(r):
			if runStart < 0 {
				runStart, runByte = i, b
			}
		default:
			flush(b, i)
			text := word[b : b+size]
			if r == utf8.RuneError {
				text = string(utf8.RuneError)
			}
			out = append(out, Piece{Text: text, Start: i, End: i + 1})
		}
		b += size
		i++
	}
	flush(len(word), i)
	return out
}

// Tokenize splits running text into tokens: whitespace separates words,
// Pieces splits words, and one NL token separates non-empty lines.
func Tokenize(text string) []string {
	var toks []string
	for li, line := range strings.Split(text, "\n") {
		if li > 0 && len(toks) > 0 && toks[len(toks)-1] != NL {
			toks = append(toks, NL)
		}
		for _, w := range strings.FieldsFunc(line, unicode.IsSpace) {
			for _, p := range appendPieces(nil, w) {
				toks = append(toks, p.Text)
			}
		}
	}
	for len(toks) > 0 && toks[len(toks)-1] == NL {
		toks = toks[:len(toks)-1]
	}
	return toks
}

// lowerRune is the per-rune simple lowercase mapping the Python side
// reproduces; U+0130 is kept because Python's full mapping of it has two
// runes.
func lowerRune(r rune) rune {
	if r == '\u0130' {
		return r
	}
	return unicode.ToLower(r)
}

// Norm is the key of a token in the word vocabulary: lowercased rune by
// rune, ASCII digits mapped to '0'.
func Norm(tok string) string {
	if tok == NL {
		return NL
	}
	var b strings.Builder
	b.Grow(len(tok))
	for _, r := range tok {
		if r >= '0' && r <= '9' {
			b.WriteByte('0')
			continue
		}
		b.WriteRune(lowerRune(r))
	}
	return b.String()
}

// Shape ids (nertok.py SHAPE_*).
const (
	shapePad = iota
	shapeNL
	shapeLower
	shapeUpper
	shapeTitle
	shapeUpper1
	shapeMixed
	shapeDigits
	shapeAlnum
	shapePunct
	shapeOther
	numShapes
)

// Shape is the coarse casing / character-class id of a token.
func Shape(tok string) int {
	if tok == NL {
		return shapeNL
	}
	var up, lo, dig, other, n int
	for _, r := range tok {
		n++
		switch {
		case unicode.Is(unicode.Lu, r):
			up++
		case unicode.Is(unicode.Ll, r):
			lo++
		case r >= '0' && r <= '9':
			dig++
		case isWordRune(r):
			other++
		default:
			if utf8.RuneCountInString(tok) == 1 {
				return shapePunct
			}
			return shapeOther
		}
	}
	switch {
	case dig > 0 && (up > 0 || lo > 0 || other > 0):
		return shapeAlnum
	case dig > 0:
		return shapeDigits
	case up > 0 && lo == 0:
		if up == 1 && other == 0 {
			return shapeUpper1
		}
		return shapeUpper
	case lo > 0 && up == 0:
		return shapeLower
	case up > 0 && lo > 0:
		first, _ := utf8.DecodeRuneInString(tok)
		if unicode.Is(unicode.Lu, first) && up == 1 {
			return shapeTitle
		}
		return shapeMixed
	}
	return shapeOther
}
