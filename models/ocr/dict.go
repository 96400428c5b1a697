package ocr

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/models/ocr/internal/fuse"
	"github.com/redactd/redactd/models/ort"
)

// loadDict reads the recogniser's character list, one character a line,
// and returns the CTC classes: the blank at index 0, the characters, and
// the space PaddleOCR appends (use_space_char).
func loadDict(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ocr: dictionary: %w", err)
	}
	defer f.Close()
	return parseDict(f, path)
}

// parseDict is loadDict for a list read from r; name identifies it in
// errors.
func parseDict(r io.Reader, name string) ([]string, error) {
	dict := []string{""}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		dict = append(dict, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ocr: dictionary %s: %w", name, err)
	}
	if len(dict) < 2 {
		return nil, fmt.Errorf("ocr: dictionary %s is empty", name)
	}
	return append(dict, " "), nil
}

// checkRecClasses makes sure the dictionary matches the recogniser's
// output classes, so a mismatched pair fails at start, not as garbage.
func (e *Engine) checkRecClasses() error {
	_, out, err := ort.ModelIO(filepath.Join(e.dir, recFile))
	if err != nil {
		return err
	}
	return checkClasses(out, len(e.dict))
}

// checkClasses checks a recogniser's outputs against a dictionary of
// classes CTC classes.
func checkClasses(out []ort.IOInfo, classes int) error {
	shape := out[0].Shape
	if len(shape) != 3 {
		return fmt.Errorf("ocr: recogniser output has shape %v, want [batch, steps, classes]", shape)
	}
	if n := shape[2]; n > 0 && int(n) != classes {
		return fmt.Errorf("ocr: recogniser has %d classes but the dictionary gives %d", n, classes)
	}
	return nil
}

// The character sets the recogniser can choose among (Options.Charset,
// engine/config ocr-charset).
const (
	// CharsetLatin keeps the classes latinClasses picks: the text of
	// the languages redactd's detection knows, with a head about 30 times
	// smaller, and no misreading of a smudged Latin letter as a Chinese
	// character.
	CharsetLatin = "latin"
	// CharsetAll keeps the whole published dictionary (6 623 characters,
	// mostly Chinese).
	CharsetAll = "all"
)

// CheckCharset reports whether s names a character set.
func CheckCharset(s string) error {
	if s != CharsetLatin && s != CharsetAll {
		return fmt.Errorf("ocr: character set %q: want %s or %s", s, CharsetLatin, CharsetAll)
	}
	return nil
}

// cjkStart is where the CJK blocks begin (CJK Radicals Supplement); every
// block after it in the dictionary is East Asian (ideographs, kana,
// Hangul, full-width forms) apart from a few symbols.
const cjkStart = 0x2E80

// latinClasses returns the CTC classes CharsetLatin keeps, in order: the
// blank, every character below cjkStart (ASCII, the Latin letters with
// diacritics, punctuation and symbols, the dictionary's few Greek and
// Cyrillic letters: 221 of PP-OCRv4's 6 623) and the space.
func latinClasses(dict []string) []int {
	keep := []int{0}
	for i, c := range dict[1 : len(dict)-1] {
		if r, _ := utf8.DecodeRuneInString(c); c != "" && r < cjkStart {
			keep = append(keep, i+1)
		}
	}
	return append(keep, len(dict)-1)
}

// openNarrowRec opens the recogniser narrowed to latinClasses
// (fuse.KeepClasses, in memory: the file on disk stays the one setup
// verified) and narrows e.dict to match.
func (e *Engine) openNarrowRec(so []ort.SessionOption) (*ort.Session, error) {
	p := filepath.Join(e.dir, recFile)
	in, out, err := ort.ModelIO(p)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("ocr: %w", err)
	}
	m, err := fuse.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("ocr: %s: %w", p, err)
	}
	keep := latinClasses(e.dict)
	if err := fuse.KeepClasses(m, keep); err != nil {
		return nil, fmt.Errorf("ocr: %s: %w", p, err)
	}
	dict := make([]string, len(keep))
	for i, c := range keep {
		dict[i] = e.dict[c]
	}
	so = append([]ort.SessionOption{ort.WithoutMemPattern()}, so...)
	s, err := ort.NewSessionFromData(p+" ("+CharsetLatin+")", m.Encode(), []string{in[0].Name}, []string{out[0].Name}, so...)
	if err != nil {
		return nil, err
	}
	e.dict = dict
	return s, nil
}
