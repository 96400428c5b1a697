package detect_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/models/ner"
	"github.com/redactd/redactd/models/ort"
)

// TestRunRoutesNERByBlockLanguage runs the service's detectors with a
// second NER model for the blocks in the six other languages
// (pipeline.DetectorsByLang): the built-in model loaded twice, once for
// each language group, each counting the sequences it reads. Run tells
// the routed detector each block's language (engine/detect/lang), and the
// service's routing (ner.DefaultRouting) sends it to a model: an English
// page is read by the first model alone, a German one by the second
// alone, a page of both by each model once, a text in a language of none
// of the seven by the first, and a short line by the second only when
// the request's hint names its language or it heads a page the second
// model's languages vote for (lang.Vote).
func TestRunRoutesNERByBlockLanguage(t *testing.T) {
	if _, err := ort.FindLibrary(""); err != nil {
		t.Skipf("ONNX Runtime library not installed (run `make setup`): %v", err)
	}
	if err := ort.Init(ort.Options{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	var en, other atomic.Int64
	count := func(n *atomic.Int64) func(string, int, time.Duration) {
		return func(_ string, size int, _ time.Duration) { n.Add(int64(size)) }
	}
	m, err := ner.Load(ner.Builtin, ner.Options{Observe: count(&en)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m2, err := ner.Load(ner.Builtin, ner.Options{Observe: count(&other)})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	ds, err := pipeline.DetectorsByLang(m, m2, ner.RoutedOptions{Route: ner.DefaultRouting}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const (
		english = "The parties agree that this contract between John Smith and Acme Limited is governed by the laws of England and Wales."
		german  = "Die Parteien vereinbaren, dass dieser Vertrag zwischen Klaus Müller und der Beispiel GmbH dem Recht der Bundesrepublik Deutschland unterliegt."
		tagalog = "Kung totoong may feelings siya sayo, hindi na siya magtatanong kung may chance pa kasi kahit wala liligawan ka pa rin niya."
		short   = "Müller"
	)
	for _, c := range []struct {
		name      string
		text      string
		hint      string
		en, other bool // read by the first model, by the second
	}{
		{"english", english, "", true, false},
		{"german", german, "", false, true},
		{"both", english + "\n" + german, "", true, true},
		{"tagalog", tagalog, "", true, false},
		{"short", short, "", true, false},
		{"short, hinted", short, "de", false, true},
		{"german with a short heading", short + "\n" + german, "", false, true},
	} {
		en.Store(0)
		other.Store(0)
		p, _ := detect.PageFromText(c.text)
		for i := range p.Words { // a paragraph a line: a line's height apart
			w := &p.Words[i]
			y := 72 + 24*float64(w.Line)
			w.Quad = page.QuadFromRect(page.Rect{X0: 72 + 40*float64(i), Y0: y, X1: 108 + 40*float64(i), Y1: y + 12})
		}
		if _, err := detect.Run(context.Background(), p, ds, detect.Options{Language: lang.Code(c.hint)}); err != nil {
			t.Fatal(err)
		}
		if (en.Load() > 0) != c.en || (other.Load() > 0) != c.other {
			t.Errorf("%s page: %d sequences read by the English group's model, %d by the other's; want English %v, other %v",
				c.name, en.Load(), other.Load(), c.en, c.other)
		}
	}
}
