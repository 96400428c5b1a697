package pipeline

import (
	"fmt"
	"io"
	"time"

	"github.com/redactd/redactd/engine/burn"
	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
)

// maskPadPt is the margin around each character box, in points, so
// anti-aliased edges of glyphs are covered too.
const maskPadPt = 1.5

type encodedPage = pdfout.EncodedPage

// burnAndEncode masks the spans into the page's raster and compresses it.
// The raster is released by the caller afterwards.
func (p *Pipeline) burnAndEncode(pg *page.Page, spans []page.Span) pageResult {
	t := time.Now()
	boxes := burn.GrowToInk(pg.Raster, pg.DPI, burn.Boxes(pg, spans, maskPadPt), layerWordBoxes(pg))
	burn.Burn(pg.Raster, pg.DPI, boxes)
	p.metrics.observe("burn", t)

	masks := make([]contract.Mask, 0, len(boxes))
	for _, b := range boxes {
		masks = append(masks, contract.Mask{Page: pg.Index, Box: b.Rect, Category: b.Category,
			Source: b.Source.String(), Recognizer: b.Recognizer, Score: b.Score})
		p.metrics.detections.WithLabelValues(string(b.Category), b.Recognizer).Inc()
	}

	t = time.Now()
	enc, err := pdfout.Encode(pg.Raster, pg.Width, pg.Height, pdfout.Options{JPEGQuality: p.cfg.JPEGQuality, TextBits: p.cfg.TextBits})
	p.metrics.observe("encode", t)
	if err != nil {
		return pageResult{err: fmt.Errorf("pipeline: encode page %d: %w", pg.Index+1, err)}
	}
	return pageResult{enc: enc, masks: masks}
}

// pdfWriter writes encoded pages in order and counts the output.
type pdfWriter struct {
	cw      *countingWriter
	w       *pdfout.Writer
	metrics *Metrics
}

func newPDFWriter(out io.Writer, cfg Settings, m *Metrics) (*pdfWriter, error) {
	cw := &countingWriter{w: out}
	w, err := pdfout.NewWriter(cw, pdfout.Options{JPEGQuality: cfg.JPEGQuality})
	if err != nil {
		return nil, err
	}
	return &pdfWriter{cw: cw, w: w, metrics: m}, nil
}

func (w *pdfWriter) writePage(e *encodedPage) error {
	st, err := w.w.WriteEncoded(e)
	if err != nil {
		return fmt.Errorf("pipeline: write page: %w", err)
	}
	w.metrics.outputBytes.Observe(float64(st.Bytes))
	w.metrics.pages.Inc()
	return nil
}

func (w *pdfWriter) close() error { return w.w.Close() }
func (w *pdfWriter) bytes() int64 { return w.cw.n }

// layerWordBoxes returns the boxes of the page's words that a producer
// placed (text layer, form fields, annotations): the ink each one explains
// is its own, so masks of other words do not grow over it. OCR words are
// left out: their boxes are read off the ink and may sit over glyphs
// drawn outside a layer word's declared box, which the mask must cover.
func layerWordBoxes(pg *page.Page) []page.Rect {
	out := make([]page.Rect, 0, len(pg.Words))
	for _, w := range pg.Words {
		if w.Source != page.SourceOCR {
			out = append(out, w.Quad.Bounds())
		}
	}
	return out
}
