package ocr

import (
	"context"
	"image"
	"strings"
	"testing"
)

// TestLatinModelClasses loads the embedded recogniser: its classes are
// the blank, the character set and the space, they cover the letters the
// issue found missing and the document symbols, and the character-set
// option does not narrow it.
func TestLatinModelClasses(t *testing.T) {
	e := testEngineWith(t, Options{Model: ModelLatin, Charset: CharsetLatin})
	if e.dict[0] != "" || e.dict[len(e.dict)-1] != " " {
		t.Fatalf("classes must start with the blank and end with the space: %q ... %q", e.dict[0], e.dict[len(e.dict)-1])
	}
	have := map[string]bool{}
	for _, c := range e.dict[1 : len(e.dict)-1] {
		if have[c] || len([]rune(c)) != 1 {
			t.Errorf("class %q repeated or not one character", c)
		}
		have[c] = true
	}
	var want []string
	for _, r := range "ßñçøåőłşțșðþÐÞŁŒœŸĐđŊŋĦħĸŉ€£¥§°№@#&%„“”‚‘’«»–—…" {
		want = append(want, string(r))
	}
	for r := rune(0xC0); r <= 0x17F; r++ { // Latin-1 letters and Latin Extended-A
		if r != 0xD7 && r != 0xF7 {
			want = append(want, string(r))
		}
	}
	for _, c := range want {
		if !have[c] {
			t.Errorf("%s lacks %q", ModelLatin, c)
		}
	}
	all := testEngineWith(t, Options{Model: ModelLatin, Charset: CharsetAll})
	if strings.Join(all.dict, "") != strings.Join(e.dict, "") {
		t.Errorf("charset %s changed %s's classes", CharsetAll, ModelLatin)
	}
	if _, err := New("", Options{Model: "tesseract"}); err == nil || !strings.Contains(err.Error(), "tesseract") {
		t.Errorf("unknown recogniser: err %v", err)
	}
	// It runs through the whole pipeline (detector, packing, decoding).
	img, _ := renderPage(t, pageSpec{lines: testLines[:3], dpi: 200, pt: 11, noise: 8, margin: 0.7, seed: 5})
	if _, err := e.Recognize(context.Background(), img, image.Rectangle{}); err != nil {
		t.Fatal(err)
	}
}
