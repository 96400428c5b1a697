package pipeline

import (
	"testing"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/testpdf"
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

// TestTermsIgnoreDiacriticsSetting: engine/config terms-ignore-diacritics
// reaches term matching. By default the included term "Muller" leaves
// "Müller" readable; with the setting on it is masked.
func TestTermsIgnoreDiacriticsSetting(t *testing.T) {
	doc := testpdf.New()
	pg := doc.AddPage(612, 792, 0)
	pg.Text(72, 700, 12, "Letter to Müller about the order.")
	rs, err := detect.Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	for _, loose := range []bool{false, true} {
		cfg := defaultSettings(t)
		cfg.TermsIgnoreDiacritics = loose
		p, err := New(cfg, Deps{Detectors: rs})
		if err != nil {
			t.Fatal(err)
		}
		r, err := process(t, p, doc.Bytes(), contract.Options{Categories: []page.Category{}, Included: []string{"Muller"}})
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		_, _, raster := outputPage(t, r.out, 0, 150)
		f := darkFraction(raster, 150, wordBox(t, pg, "Müller"))
		if masked := f >= 0.99; masked != loose {
			t.Errorf("terms-ignore-diacritics %v: Müller %.2f black", loose, f)
		}
	}
}
