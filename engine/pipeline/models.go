package pipeline

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/models/batch"
	"github.com/redactd/redactd/models/ner"
	"github.com/redactd/redactd/models/ocr"
	"github.com/redactd/redactd/models/ort"
)

// Models are the loaded ONNX models a pipeline uses; Close releases them
// after the pipeline is closed.
type Models struct {
	NER *ner.Model
	OCR *ocr.Engine
}

// Close releases the models.
func (m *Models) Close() error {
	var errs []error
	if m.OCR != nil {
		errs = append(errs, m.OCR.Close())
	}
	if m.NER != nil {
		errs = append(errs, m.NER.Close())
	}
	return errors.Join(errs...)
}

// LoadModels initialises ONNX Runtime on the configured device and loads
// the NER model and, unless OCR is off, the OCR models. All model runs
// share one lane, so NER and OCR batches take turns on the cores instead
// of oversubscribing them.
func LoadModels(cfg config.Config) (*Models, error) {
	lib, err := ort.FindLibrary(cfg.ORTLib)
	if err != nil {
		return nil, fmt.Errorf("%w (run `make setup`, or set --ort-lib)", err)
	}
	if err := ort.Init(ort.Options{LibPath: lib, Device: cfg.Device, Threads: cfg.ORTThreads}); err != nil {
		return nil, err
	}
	lane := batch.NewLane(1)
	m := &Models{}
	m.NER, err = ner.Load(cfg.NERModel, ner.Options{BatchSize: cfg.BatchSize, BatchWait: cfg.BatchWait, Lane: lane, EntityProb: float32(cfg.NERRecall)})
	if err != nil {
		return nil, fmt.Errorf("ner model %q: %w", cfg.NERModel, err)
	}
	if cfg.OCR != "off" {
		m.OCR, err = ocr.New(cfg.ModelDir, ocr.Options{MaxSide: cfg.OCRMaxSide, Charset: cfg.OCRCharset, BatchSize: cfg.BatchSize, BatchWait: cfg.BatchWait, Lane: lane})
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("%w (run `make setup`, set --model-dir, or --ocr off)", err)
		}
	}
	return m, nil
}

// Open builds the complete pipeline of cfg: recognizers, the NER model and
// OCR. It is what `redactd serve`, the demo and the end-to-end tests run.
// Closing the returned Pipeline also releases its models.
func Open(cfg config.Config, log *slog.Logger) (*Pipeline, error) {
	rs, err := detect.Recognizers()
	if err != nil {
		return nil, err
	}
	m, err := LoadModels(cfg)
	if err != nil {
		return nil, err
	}
	deps := Deps{Detectors: append(rs, ner.NewDetector(m.NER, ner.DetectorOptions{})), Log: log}
	if m.OCR != nil {
		deps.OCR = ocrAdapter{m.OCR}
	}
	p, err := New(cfg, deps)
	if err != nil {
		m.Close()
		return nil, err
	}
	p.models = m
	return p, nil
}

// ocrAdapter turns models/ocr lines into page words (quads in raster
// pixels; the pipeline scales them to points).
type ocrAdapter struct{ e *ocr.Engine }

func (a ocrAdapter) Recognize(ctx context.Context, r *page.Raster, region PixelRect) ([]page.Word, error) {
	img := ocr.Image{W: r.W, H: r.H, Channels: r.Channels, Stride: r.Stride, Pix: r.Pix}
	var rect image.Rectangle
	if !region.Empty() {
		rect = image.Rect(region.X0, region.Y0, region.X1, region.Y1)
	}
	lines, err := a.e.Recognize(ctx, img, rect)
	if err != nil {
		return nil, err
	}
	var words []page.Word
	for li, l := range lines {
		for _, w := range l.Words {
			pw := page.Word{Text: w.Text, Quad: pageQuad(w.Quad), Line: li, Source: page.SourceOCR, Conf: w.Conf}
			if len(w.Chars) > 0 {
				pw.Chars = make([]page.Quad, len(w.Chars))
				for k, c := range w.Chars {
					pw.Chars[k] = pageQuad(c)
				}
			}
			words = append(words, pw)
		}
	}
	return words, nil
}

func pageQuad(q ocr.Quad) page.Quad {
	pt := func(p ocr.Point) page.Point { return page.Point{X: p.X, Y: p.Y} }
	return page.Quad{UL: pt(q.UL), UR: pt(q.UR), LL: pt(q.LL), LR: pt(q.LR)}
}
