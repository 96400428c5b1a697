package visible

import (
	"context"
	"image"
	"strings"

	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/models/ocr"
)

// ReadPage renders page i of pdf at 200 dpi and reads it with our own
// recogniser: what a reader of the file sees, line by line, as read
// with and without the page's rules (ocr.RuleErased), and its rows of
// boxes box by box (ocr.ReadComb). The tests of
// the corpus hold each planted string against it (Readable).
func ReadPage(ctx context.Context, e *ocr.Engine, pdf []byte, i int) ([]string, error) {
	doc, err := mupdf.Open(pdf, mupdf.Options{})
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	pg, err := doc.LoadPage(ctx, i)
	if err != nil {
		return nil, err
	}
	defer pg.Close()
	r, err := pg.Render(ctx, 200, 1e9)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	img := ocr.Image{W: r.W, H: r.H, Channels: r.Channels, Stride: r.Stride, Pix: r.Pix}
	lines, err := e.Recognize(ctx, img, image.Rectangle{})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, l.Text)
	}
	// A reader sees boxed print through black box walls, which make the
	// recogniser misread it; with the walls painted out it reads it (and
	// reads a widely boxed row worse when it cannot see the boxes). What
	// either reading holds is readable: the second's lines follow.
	if er := ocr.RuleErased(img, 200); &er.Pix[0] != &img.Pix[0] {
		lines, err := e.Recognize(ctx, er, image.Rectangle{})
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			out = append(out, l.Text)
		}
	}
	// Boxed print in black walls reads worst of all, walls or none: a
	// reader reads each box's glyph, as ocr.ReadComb does, a row a line.
	for _, row := range ocr.CombRows(img, 200) {
		cells, _, err := e.ReadComb(ctx, img, row)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, c := range cells {
			if c == "" {
				c = " "
			}
			b.WriteString(c)
		}
		out = append(out, strings.TrimSpace(b.String()))
	}
	return out, nil
}
