package pipeline

import (
	"testing"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/models/ocr"
)

// TestOCRModelSetting keeps engine/config's ocr-model in step with
// models/ocr: its default is the recogniser ocr.New picks by default, and
// every value it accepts names a recogniser.
func TestOCRModelSetting(t *testing.T) {
	if d := config.Default().OCRModel; d != ocr.DefaultModel {
		t.Errorf("config default ocr-model %q, models/ocr default %q", d, ocr.DefaultModel)
	}
	for _, m := range []string{ocr.ModelPPOCRv4, ocr.ModelLatin} {
		c := config.Default()
		c.OCRModel = m
		if err := c.Validate(); err != nil {
			t.Errorf("config refuses recogniser %s: %v", m, err)
		}
		if err := ocr.CheckModel(m); err != nil {
			t.Error(err)
		}
	}
}
