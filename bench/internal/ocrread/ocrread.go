// Package ocrread lets the scorer read output pages with redactd's own
// OCR (models/ocr: PaddleOCR models on ONNX Runtime, as set up by
// `make setup`), to find personal data still legible after redaction.
package ocrread

import (
	"context"
	"fmt"
	"image"
	"strings"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/models/ocr"
)

// Reader reads rendered pages.
type Reader struct{ e *ocr.Engine }

// New loads the OCR models from modelDir ("" for the standard search:
// REDACTD_MODEL_DIR, .cache/models, ...). It fails when the ONNX Runtime
// library or the models are missing; the bench then reports OCR leak
// checks as not done.
func New(modelDir string) (*Reader, error) {
	e, err := ocr.New(modelDir, ocr.Options{})
	if err != nil {
		return nil, fmt.Errorf("ocr: %w", err)
	}
	return &Reader{e: e}, nil
}

// Read returns the text of every line OCR finds on r, one line each.
func (r *Reader) Read(ctx context.Context, rs *page.Raster) (string, error) {
	lines, err := r.e.Recognize(ctx, ocr.Image{W: rs.W, H: rs.H, Channels: rs.Channels, Stride: rs.Stride, Pix: rs.Pix}, image.Rectangle{})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// Close releases the models.
func (r *Reader) Close() error { return r.e.Close() }
