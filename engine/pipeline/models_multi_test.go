package pipeline

import (
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/models/ort"
)

// TestLoadModelsMultilingual: ner-model-multilingual loads a second NER
// model (the embedded multilingual one, or the built-in English one
// again) on the pipeline's lane, "off" loads none, and a directory that
// holds no model fails the start.
func TestLoadModelsMultilingual(t *testing.T) {
	if _, err := ort.FindLibrary(""); err != nil {
		if errors.Is(err, ort.ErrNotInstalled) && testing.Short() {
			t.Skipf("-short and ONNX Runtime not installed: %v", err)
		}
	}
	met, err := NewMetrics(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	cfg := Settings{NERModel: "builtin", OCR: "off", BatchSize: 8, NERRecall: 0.2, NERPersonRecall: 0.1, NERMultiPersonRecall: 0.07}
	for _, c := range []struct {
		multi string
		want  bool
	}{{"off", false}, {"", false}, {"builtin", true}, {"builtin-multilingual", true}} {
		cfg.NERModelMulti = c.multi
		m, err := LoadModels(cfg, met)
		if err != nil {
			t.Fatalf("ner-model-multilingual %q: %v", c.multi, err)
		}
		if (m.NERMulti != nil) != c.want {
			t.Errorf("ner-model-multilingual %q: second model loaded %v, want %v", c.multi, m.NERMulti != nil, c.want)
		}
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	}
	cfg.NERModelMulti = t.TempDir()
	if m, err := LoadModels(cfg, met); err == nil {
		m.Close()
		t.Errorf("ner-model-multilingual %s (empty directory) loaded", cfg.NERModelMulti)
	}
}

// TestMultilingualBatchesCounted runs the pipeline `redactd serve` runs
// (the multilingual model on by default) on an English page and on a
// German one: only the German page's blocks reach the second model, and
// its batches are counted apart, as model="ner_multilingual".
func TestMultilingualBatchesCounted(t *testing.T) {
	full := sharedFullPipeline(t)
	if full.models == nil || full.models.NERMulti == nil {
		t.Fatal("the default pipeline loaded no multilingual model (ner-model-multilingual's default)")
	}
	batches := func() uint64 {
		reg := prometheus.NewRegistry()
		reg.MustRegister(full.metrics.batchSize)
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "model" && l.GetValue() == "ner_multilingual" {
						return m.GetHistogram().GetSampleCount()
					}
				}
			}
		}
		return 0
	}
	m, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	n0 := batches()
	processWith(t, full, full.deps.OCR, m, linesPDF("The parties agree that this contract between John Smith and Acme Limited", "is governed by the laws of England and Wales."))
	if n := batches(); n != n0 {
		t.Errorf("an English page: %d batches of the multilingual model, want none", n-n0)
	}
	processWith(t, full, full.deps.OCR, m, linesPDF("Die Parteien vereinbaren, dass dieser Vertrag zwischen Klaus Müller und der", "Beispiel GmbH dem Recht der Bundesrepublik Deutschland unterliegt."))
	if n := batches(); n == n0 {
		t.Error("a German page: no batch of the multilingual model counted")
	}
}
