// Package pipeline is the engine's Processor: it opens a document, and for
// every page renders it, finds its words (text layer, form fields,
// annotations, OCR), detects PII, burns masks into the raster and encodes
// it, writing a flattened PDF page by page in order.
//
// Pages flow through three ants pools with bounded queues:
//
//	load+render (CPU, Workers) → analyse (waits on model batchers) → burn+encode (CPU, Workers)
//
// so model batches fill with lines from many pages and documents while the
// CPU pools never run more goroutines than cores. Memory is bounded by a
// process-wide budget of raster pixels in flight and by a per-document
// window of pages between dispatch and the in-order writer.
package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"time"

	"github.com/panjf2000/ants/v2"
	"golang.org/x/sync/semaphore"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/visual"
)

// OCR recognises words in a raster. Quads of the returned words are in
// the raster's pixels; region, when not empty, limits recognition to that
// pixel rectangle, and h tells what is known of it already. ReadBoxes
// reads the text inside known boxes (raster pixels) with the recogniser
// alone, returning the reading and the recogniser columns it cost.
type OCR interface {
	Recognize(ctx context.Context, r *page.Raster, region PixelRect, h ReadHints) ([]page.Word, error)
	ReadBoxes(ctx context.Context, r *page.Raster, quads []page.Quad) (string, int, error)
}

// ReadHints are what the pipeline knows of a region before OCR reads it
// (the zero value: nothing).
type ReadHints struct {
	// Known, when not nil, is asked about each text line found, by its
	// bounds in raster pixels: a line it reports known (its ink is all
	// explained by trusted text-layer words) is not read.
	Known func(PixelRect) bool
	// Upright: horizontal text there is expected upright, as the page's
	// trusted text layer reads. Lines read with low confidence are still
	// read turned over too, so an upside-down label is read either way.
	Upright bool
	// DPI is the raster's pixels per inch; when set, rows of boxes ruled
	// on it (comb fields) are found and read box by box (ocrcomb.go).
	DPI float64
}

// PixelRect is a rectangle in raster pixels; the zero value means the
// whole raster.
type PixelRect struct{ X0, Y0, X1, Y1 int }

// Empty reports whether r selects nothing (meaning: the whole raster).
func (r PixelRect) Empty() bool { return r.X1 <= r.X0 || r.Y1 <= r.Y0 }

// Deps are the models and detectors the pipeline uses. OCR may be nil
// (ocr=off, or no models installed): pages without a text layer are then
// rendered and encoded without detection on their pixels.
type Deps struct {
	Detectors []detect.Detector
	OCR       OCR
	// Hand scores ink for handwriting (category Signature, hand.go); nil
	// finds none.
	Hand Hand
	Log  *slog.Logger
	// Metrics are where the pipeline reports (NewMetrics); nil gives it
	// unregistered ones.
	Metrics *Metrics
}

// Pipeline implements contract.Processor.
type Pipeline struct {
	cfg     Settings
	deps    Deps
	log     *slog.Logger
	render  *ants.Pool
	analyse *ants.Pool
	encode  *ants.Pool
	pixels  *semaphore.Weighted
	models  *Models // owned when built by Open
	faces   *visual.Faces
	metrics *Metrics
	maxPix  int64
	window  int
}

// New starts the pipeline's pools. Close stops them.
func New(cfg Settings, deps Deps) (*Pipeline, error) {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	log := deps.Log
	if log == nil {
		log = slog.Default()
	}
	m := deps.Metrics
	if m == nil {
		m, _ = NewMetrics(nil) // nothing registered: cannot fail
	}
	p := &Pipeline{cfg: cfg, deps: deps, log: log, metrics: m, maxPix: cfg.MaxPixelsInFlight, window: 4 * workers}
	if p.maxPix <= 0 {
		p.maxPix = 64_000_000
	}
	p.pixels = semaphore.NewWeighted(p.maxPix)
	faces, err := visual.NewFaces()
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	p.faces = faces
	mk := func(n int) *ants.Pool {
		if err != nil {
			return nil
		}
		var pool *ants.Pool
		pool, err = ants.NewPool(n, ants.WithPanicHandler(func(v any) {
			log.Error("pipeline: panic in pool task escaped recovery", "panic", fmt.Sprint(v))
		}))
		return pool
	}
	p.render = mk(workers)
	// Analysis mostly waits on model batchers; more goroutines there let
	// batches fill with lines from many pages.
	p.analyse = mk(8 * workers)
	p.encode = mk(workers)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	return p, nil
}

// Close releases the pools, waiting briefly for running tasks.
func (p *Pipeline) Close() error {
	for _, pool := range []*ants.Pool{p.render, p.analyse, p.encode} {
		if pool != nil {
			pool.ReleaseTimeout(5 * time.Second)
		}
	}
	if p.models != nil {
		return p.models.Close()
	}
	return nil
}

// countingWriter counts bytes written to the output.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
