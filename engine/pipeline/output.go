package pipeline

import (
	"fmt"
	"io"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline/burn"
)

// maskPadPt is the margin around each character box, in points, so
// anti-aliased edges of glyphs are covered too.
const maskPadPt = 1.5

type encodedPage = pdfout.EncodedPage

// burnSpans masks the spans into the page's raster, grown over their ink,
// and the boxes of pictures (faces, codes: visualPage) as they are, and
// returns the boxes burned.
func (p *Pipeline) burnSpans(pg *page.Page, spans []page.Span, pictures []burn.Box) []burn.Box {
	t := time.Now()
	boxes := burn.GrowToInk(pg.Raster, pg.DPI, burn.Boxes(pg, spans, maskPadPt), layerWordBoxes(pg))
	boxes = append(boxes, pictures...)
	burn.Burn(pg.Raster, pg.DPI, boxes)
	p.metrics.observe("burn", t)
	return boxes
}

// encodeBurned compresses a page whose raster has the boxes burned in and
// reports them as its masks.
func (p *Pipeline) encodeBurned(pg *page.Page, boxes []burn.Box) pageResult {
	masks := make([]contract.Mask, 0, len(boxes))
	for _, b := range boxes {
		masks = append(masks, contract.Mask{Page: pg.Index, Box: b.Rect, Category: b.Category,
			Source: b.Source.String(), Recognizer: b.Recognizer, Score: b.Score})
		p.metrics.detections.WithLabelValues(string(b.Category), b.Recognizer).Inc()
	}

	t := time.Now()
	enc, err := pdfout.Encode(pg.Raster, pg.Width, pg.Height, pdfout.Options{JPEGQuality: p.cfg.JPEGQuality, TextBits: p.cfg.TextBits})
	p.metrics.observe("encode", t)
	if err != nil {
		return pageResult{err: fmt.Errorf("pipeline: encode page %d: %w", pg.Index+1, err)}
	}
	return pageResult{enc: enc, masks: masks, w: pg.Width, h: pg.Height}
}

// pageJob is what every page of one document shares: the detection
// options, or a fixed mask set by page index (review apply), and whether
// the words are kept.
type pageJob struct {
	opts      detect.Options
	fixed     map[int][]contract.Mask // nil: detect
	keepWords bool
}

// fixedByPage groups a fixed mask set by page index. The map is never nil,
// so an empty set still means "burn nothing, detect nothing".
func fixedByPage(masks []contract.Mask) map[int][]contract.Mask {
	out := make(map[int][]contract.Mask, len(masks))
	for _, m := range masks {
		out[m.Page] = append(out[m.Page], m)
	}
	return out
}

// burnFixedAndEncode burns exactly the given masks (clipped to the page)
// into the page's raster and encodes it: the review editor's re-burn. The
// boxes are the reviewed ones, so they are neither padded nor grown.
func (p *Pipeline) burnFixedAndEncode(pg *page.Page, masks []contract.Mask) pageResult {
	t := time.Now()
	bounds := page.Rect{X1: pg.Width, Y1: pg.Height}
	boxes := make([]burn.Box, 0, len(masks))
	kept := make([]contract.Mask, 0, len(masks))
	for _, m := range masks {
		r := m.Box.Intersect(bounds)
		if r.Empty() {
			continue
		}
		m.Box = r
		boxes = append(boxes, burn.Box{Rect: r, Category: m.Category, Recognizer: m.Recognizer, Score: m.Score})
		kept = append(kept, m)
	}
	burn.Burn(pg.Raster, pg.DPI, boxes)
	p.metrics.observe("burn", t)
	t = time.Now()
	enc, err := pdfout.Encode(pg.Raster, pg.Width, pg.Height, pdfout.Options{JPEGQuality: p.cfg.JPEGQuality, TextBits: p.cfg.TextBits})
	p.metrics.observe("encode", t)
	if err != nil {
		return pageResult{err: fmt.Errorf("pipeline: encode page %d: %w", pg.Index+1, err)}
	}
	return pageResult{enc: enc, masks: kept, w: pg.Width, h: pg.Height}
}

// pageWords lists the page's words (layer and OCR) with their boxes.
func pageWords(pg *page.Page) []contract.Word {
	out := make([]contract.Word, 0, len(pg.Words))
	for _, w := range pg.Words {
		if w.Text == "" {
			continue
		}
		out = append(out, contract.Word{Page: pg.Index, Text: w.Text, Box: w.Quad.Bounds()})
	}
	return out
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
