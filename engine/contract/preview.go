package contract

import (
	"context"
	"errors"
)

// Previewer renders the pages of a stored file (an original or an
// output) for the review editor, and measures them for a review state
// whose document kept no page sizes. The pipeline implements it
// (pipeline.Previews: MuPDF for PDFs, its own decoders for images);
// cmd/redactd/wire hands it to the job service (jobs.Settings) and to
// the HTTP layer (server.Settings), so neither links MuPDF.
//
// Pages are 1-based; sizes are in points as the output shows the page
// (rotation and crop applied), the masks' own space, so a mask drawn at
// (x, y) points sits over the pixels at (x, y)·dpi/72.
type Previewer interface {
	// PageSizes returns the size of every page of the file at path.
	PageSizes(ctx context.Context, path string) ([]PageSize, error)
	// RenderPNG renders page (1-based) of the file at path at dpi, in
	// (0, MaxPreviewDPI], as PNG; a page outside the document is
	// ErrNoPage.
	RenderPNG(ctx context.Context, path string, page int, dpi float64) ([]byte, error)
}

// PageSize is one page's size in points, 1-based.
type PageSize struct {
	Page   int     `json:"page"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// ErrNoPage is a Previewer's answer for a page number outside the
// document.
var ErrNoPage = errors.New("review: no such page")

// MaxPreviewDPI bounds a preview's resolution (zoom is done by asking for
// a higher dpi, up to this).
const MaxPreviewDPI = 300
