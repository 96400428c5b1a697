package ocr

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
	dict := []string{""}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		dict = append(dict, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ocr: dictionary %s: %w", path, err)
	}
	if len(dict) < 2 {
		return nil, fmt.Errorf("ocr: dictionary %s is empty", path)
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
	shape := out[0].Shape
	if len(shape) != 3 {
		return fmt.Errorf("ocr: recogniser output has shape %v, want [batch, steps, classes]", shape)
	}
	if n := shape[2]; n > 0 && int(n) != len(e.dict) {
		return fmt.Errorf("ocr: recogniser has %d classes but the dictionary gives %d", n, len(e.dict))
	}
	return nil
}
