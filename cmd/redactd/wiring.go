package main

import (
	"fmt"
	"log/slog"

	"github.com/redactd/redactd/engine"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/pipeline"
)

// processor is the document pipeline the server runs, with what must be
// closed after the engine stops.
type processor struct {
	Processor engine.Processor
	close     func() error
}

func (p *processor) Close() error {
	if p.close == nil {
		return nil
	}
	return p.close()
}

// newProcessor builds the real pipeline.
//
// WIRING (to update as the pipeline's dependencies land): today it runs
// the validated pattern recognizers (detect.Recognizers) only. The NER
// model (models/ner) and OCR (models/ocr, through ONNX Runtime from
// models/ort) are to be added to pipeline.Deps here once they expose
// constructors; until then scanned pages are flattened without detection
// on their pixels (pipeline.Deps documents OCR == nil as that mode).
func newProcessor(cfg config.Config, log *slog.Logger) (*processor, error) {
	dets, err := detect.Recognizers()
	if err != nil {
		return nil, fmt.Errorf("detectors: %w", err)
	}
	p, err := pipeline.New(cfg, pipeline.Deps{Detectors: dets, Log: log})
	if err != nil {
		return nil, err
	}
	return &processor{Processor: p, close: p.Close}, nil
}
