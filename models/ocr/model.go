package ocr

import (
	"bytes"
	_ "embed" // the project's own recogniser ships inside the binary
	"fmt"

	"github.com/redactd/redactd/models/ort"
)

// The recognisers Options.Model names (engine/config ocr-model). Both
// share PP-OCRv4's text detector and direction classifier; they differ
// in the model that reads the cut lines.
const (
	// ModelLatin is redactd's own recogniser (models/ocr/train): a small
	// CRNN trained on synthetic scanned lines for every letter of
	// Europe's Latin alphabets (Latin-1 Supplement, Latin Extended-A,
	// Romanian ș ț), digits and document symbols, at about a fifth of
	// PP-OCRv4's multiply-adds per input column. It is embedded in the
	// binary (latin/rec.onnx, latin/charset.txt), so nothing has to be
	// installed for it and the recogniser cannot be missing or mismatched.
	// The embedded file is the int8 copy of latin/rec.float.onnx that
	// train/quantize.py writes, its weights in 7 bits so that every CPU
	// sums them exactly (TestInt8ReadsAsFloat holds the two together).
	ModelLatin = "redactd-latin"
	// ModelPPOCRv4 is PaddleOCR's PP-OCRv4 recogniser installed by `make
	// setup` next to the detector (rec.onnx, ppocr_keys_v1.txt).
	ModelPPOCRv4 = "ppocrv4"
	// DefaultModel is the recogniser used when Options.Model is empty:
	// the project's own, since it passed the gate in models/ocr/README.md
	// (and the hostile visible corpus, engine/pipeline TestVisibleCorpus).
	DefaultModel = ModelLatin
)

// recProfile is what the pipeline around a recogniser adapts to it.
type recProfile struct {
	// retryConf is the confidence under which a line is also read the
	// other way up (an upside-down label on an upright page), keeping the
	// better reading. redactd-latin reads upside-down lines with more
	// confidence than PP-OCRv4 (0.58-0.81 on the hostile corpus's turned
	// labels, against upright lines at 0.85-1.00).
	retryConf float32
	// stretch raises low-contrast crops to full contrast (contrast.go).
	stretch bool
}

// profileOf returns the profile of recogniser model.
func profileOf(model string) recProfile {
	if model == ModelLatin {
		return recProfile{retryConf: 0.9, stretch: true}
	}
	return recProfile{retryConf: 0.8}
}

// CheckModel reports whether s names a recogniser.
func CheckModel(s string) error {
	if s != ModelLatin && s != ModelPPOCRv4 {
		return fmt.Errorf("ocr: recogniser %q: want %s or %s", s, ModelLatin, ModelPPOCRv4)
	}
	return nil
}

var (
	//go:embed latin/rec.onnx
	latinRec []byte
	//go:embed latin/charset.txt
	latinCharset []byte
)

// openLatinRec opens the embedded recogniser and sets e.dict to its
// classes. Its character set is Latin already: Options.Charset does not
// narrow it (fuse.KeepClasses is for PP-OCRv4's 6 625-class head).
func (e *Engine) openLatinRec(so []ort.SessionOption) (*ort.Session, error) {
	const name = "embedded " + ModelLatin + " recogniser"
	dict, err := parseDict(bytes.NewReader(latinCharset), name+" charset.txt")
	if err != nil {
		return nil, err
	}
	in, out, err := ort.ModelIOData(name, latinRec)
	if err != nil {
		return nil, err
	}
	if len(in) != 1 || len(out) != 1 {
		return nil, fmt.Errorf("ocr: %s: want one input and one output, have %d and %d", name, len(in), len(out))
	}
	if err := checkClasses(out, len(dict)); err != nil {
		return nil, err
	}
	so = append([]ort.SessionOption{ort.WithoutMemPattern()}, so...)
	s, err := ort.NewSessionFromData(name, latinRec, []string{in[0].Name}, []string{out[0].Name}, so...)
	if err != nil {
		return nil, err
	}
	e.dict = dict
	return s, nil
}
