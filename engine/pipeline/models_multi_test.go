package pipeline

import (
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/models/ort"
)

// TestLoadModelsMultilingual: ner-model-multilingual loads a second NER
// model (the embedded multilingual one, or the built-in English one
// again) on the pipeline's lane, "off" loads none, and a directory that holds no model fails the start.
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
	cfg := Settings{NERModel: "builtin", OCR: "off", BatchSize: 8, NERRecall: 0.2, NERPersonRecall: 0.1}
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
