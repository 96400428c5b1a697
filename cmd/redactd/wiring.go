package main

import (
	"github.com/prometheus/client_golang/prometheus"
	"log/slog"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pipeline"
)

// processor is the document pipeline the server runs, with what must be
// closed after the engine stops.
type processor struct {
	Processor jobs.Processor
	close     func() error
}

func (p *processor) Close() error {
	if p.close == nil {
		return nil
	}
	return p.close()
}

// newProcessor builds the complete pipeline of cfg: recognizers, the NER
// model and OCR (pipeline.Open).
func newProcessor(cfg config.Config, log *slog.Logger, reg prometheus.Registerer) (*processor, error) {
	p, err := pipeline.Open(wire.Pipeline(cfg), log, reg)
	if err != nil {
		return nil, err
	}
	return &processor{Processor: p, close: p.Close}, nil
}
