package pipeline

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/burn"
	"github.com/redactd/redactd/engine/visual"
)

// What a reader sees without reading (issue 47): faces and codes, found
// in the page's pictures (engine/visual). Only the parts of a page that
// are raster images are looked at: the images MuPDF reports a page draws
// (page.Page.ImageRegions; an image file's page is one image), each at
// the page's render resolution, and, for codes only, the drawings no
// text-layer word explains that OCR's ink analysis found (codes drawn as
// vectors; none when OCR is off). A page with neither pays nothing, so
// text PDFs keep their speed.
//
// Faces are masked head and all (category Face). A code is masked
// (category Barcode) when its decoded content holds what the request's
// detection finds in it (any requested category, included terms too), or
// when it is found but cannot be decoded; a code whose content holds
// nothing requested (a product number, a plain URL) stays. Content is
// never logged, reported or kept.

// minVisualPx is the smallest image side, in raster pixels, looked at:
// the smallest face the cascade takes (visual.Faces.MinSize).
const minVisualPx = 24

// visualPage returns the boxes, in points, of the faces and codes to mask
// on pg, and whether any picture was looked at. It runs only when the
// request asks for Face or Barcode.
func (p *Pipeline) visualPage(ctx context.Context, pg *page.Page, opts detect.Options, drawn []PixelRect) ([]burn.Box, bool, error) {
	wantFace, wantCode := slices.Contains(opts.Categories, page.Face), slices.Contains(opts.Categories, page.Barcode)
	if (!wantFace && !wantCode) || pg.Raster == nil || p.faces == nil {
		return nil, false, nil
	}
	regions := pictureRegions(pg)
	pictures := len(regions)
	if wantCode {
		// Drawings no word explains may be codes drawn as vectors (a QR
		// bill's payment code); they are looked at for codes only.
		regions = append(regions, drawn...)
	}
	if len(regions) == 0 {
		return nil, false, nil
	}
	t := time.Now()
	defer p.metrics.observe("visual", t)
	s := pg.DPI / 72
	toPt := func(r PixelRect, b visual.Box) page.Rect { return regionBoxPt(r, b, s) }
	var out []burn.Box
	for k, r := range regions {
		if err := ctx.Err(); err != nil {
			return nil, true, err
		}
		g := grayOf(pg.Raster, r)
		// Only the parts of the picture that can hold a face (photo-like
		// tones) or a code (dense dark and light) are looked at
		// (visual.Areas): a scanned page of print costs little.
		photos, codeAreas := visual.Areas(g)
		if wantFace && k < pictures {
			for _, a := range photos {
				for _, f := range p.faces.Find(g.Sub(a)) {
					h := visual.Box{X0: a.X0 + f.Head.X0, Y0: a.Y0 + f.Head.Y0, X1: a.X0 + f.Head.X1, Y1: a.Y0 + f.Head.Y1}
					out = append(out, burn.Box{Rect: toPt(r, h), Category: page.Face, Source: page.SourceImage, Recognizer: "face", Score: min(f.Score/100, 1)})
					p.metrics.visualFound.WithLabelValues("face").Inc()
				}
			}
		}
		if wantCode {
			for _, a := range codeAreas {
				for _, c := range visual.FindCodes(g.Sub(a)) {
					mask, label, err := p.codeHoldsPII(ctx, pg, c, opts)
					if err != nil {
						return nil, true, err
					}
					p.metrics.visualFound.WithLabelValues(label).Inc()
					if mask {
						b := visual.Box{X0: a.X0 + c.Box.X0, Y0: a.Y0 + c.Box.Y0, X1: a.X0 + c.Box.X1, Y1: a.Y0 + c.Box.Y1}
						out = append(out, burn.Box{Rect: toPt(r, b), Category: page.Barcode, Source: page.SourceImage, Recognizer: "code", Score: 1})
					}
				}
			}
		}
	}
	return out, true, nil
}

// codeHoldsPII decides whether code c is masked: found but not decoded,
// or decoded and the request's detection finds something in its content.
// label is the metric's: code_undecoded, code_pii or code_clean.
func (p *Pipeline) codeHoldsPII(ctx context.Context, pg *page.Page, c visual.Code, opts detect.Options) (bool, string, error) {
	if !c.Decoded {
		return true, "code_undecoded", nil
	}
	cp := &page.Page{Index: pg.Index, Width: pg.Width, Height: pg.Height, DPI: pg.DPI, Words: codeWords(c.Text)}
	if len(cp.Words) == 0 {
		return false, "code_clean", nil
	}
	spans, err := detect.Run(ctx, cp, p.deps.Detectors, opts)
	if err != nil {
		return false, "", err
	}
	if len(spans) > 0 {
		return true, "code_pii", nil
	}
	return false, "code_clean", nil
}

// codeWords lays a code's content out as lines of words for detection:
// records (vCard, MECARD, EPC payment lines) split at line breaks and
// semicolons, a field's name parted from its value at the colon
// ("EMAIL:jo@x.org" → "EMAIL: jo@x.org", a URL's "://" kept) and commas
// followed by a space ("N:Doe,Jane" → "N: Doe, Jane"). Each word gets a
// box on its line, 6 pt a character, so line-based rules see lines.
func codeWords(text string) []page.Word {
	var words []page.Word
	for li, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' || r == ';' }) {
		var b strings.Builder
		rs := []rune(line)
		for i, r := range rs {
			b.WriteRune(r)
			switch {
			case r == ':' && !(i+2 < len(rs) && rs[i+1] == '/' && rs[i+2] == '/'):
				b.WriteByte(' ')
			case r == ',':
				b.WriteByte(' ')
			}
		}
		x := 0.0
		for _, w := range strings.FieldsFunc(b.String(), unicode.IsSpace) {
			n := float64(len([]rune(w)))
			q := page.QuadFromRect(page.Rect{X0: x, Y0: float64(li) * 12, X1: x + 6*n, Y1: float64(li)*12 + 10})
			chars := make([]page.Quad, 0, int(n))
			for k := range int(n) {
				chars = append(chars, page.QuadFromRect(page.Rect{X0: x + 6*float64(k), Y0: float64(li) * 12, X1: x + 6*float64(k+1), Y1: float64(li)*12 + 10}))
			}
			words = append(words, page.Word{Text: w, Quad: q, Chars: chars, Line: li, Source: page.SourceImage, Conf: 1})
			x += 6*n + 6
		}
	}
	return words
}

// regionPad is the page around an image looked at with it, in raster
// pixels: a linear code printed edge to edge in its image is read only
// with the paper around it as its quiet zone.
const regionPad = 16

// pictureRegions are the page's images in raster pixels, those at least
// minVisualPx on both sides, each with regionPad pixels of the page
// around it, clipped to the page.
func pictureRegions(pg *page.Page) []PixelRect {
	s := pg.DPI / 72
	var out []PixelRect
	for _, r := range pg.ImageRegions {
		pr := PixelRect{max(int(r.X0*s), 0), max(int(r.Y0*s), 0), min(int(r.X1*s+0.999), pg.Raster.W), min(int(r.Y1*s+0.999), pg.Raster.H)}
		if pr.X1-pr.X0 < minVisualPx || pr.Y1-pr.Y0 < minVisualPx {
			continue
		}
		pr = PixelRect{max(pr.X0-regionPad, 0), max(pr.Y0-regionPad, 0), min(pr.X1+regionPad, pg.Raster.W), min(pr.Y1+regionPad, pg.Raster.H)}
		if slices.Contains(out, pr) {
			continue
		}
		out = append(out, pr)
	}
	return out
}

// drawnRegions are the regions of unexplained ink (unexplainedInk) that
// lie outside the page's images (pictureRegions looks at those), at
// least minVisualPx on both sides, each with regionPad pixels of the page
// around it: drawings no word explains, where a code drawn as vectors
// lies.
func drawnRegions(pg *page.Page, ink []PixelRect) []PixelRect {
	s := pg.DPI / 72
	var out []PixelRect
	for _, r := range ink {
		if r.X1-r.X0 < minVisualPx || r.Y1-r.Y0 < minVisualPx {
			continue
		}
		inside := false
		for _, ir := range pg.ImageRegions {
			if float64(r.X0) >= ir.X0*s-1 && float64(r.Y0) >= ir.Y0*s-1 && float64(r.X1) <= ir.X1*s+1 && float64(r.Y1) <= ir.Y1*s+1 {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, PixelRect{max(r.X0-regionPad, 0), max(r.Y0-regionPad, 0), min(r.X1+regionPad, pg.Raster.W), min(r.Y1+regionPad, pg.Raster.H)})
		}
	}
	return out
}

// grayOf is region r of the raster as 8-bit gray (a gray raster's rows are
// used in place).
func grayOf(ras *page.Raster, r PixelRect) visual.Gray {
	w, h := r.X1-r.X0, r.Y1-r.Y0
	if ras.Channels == 1 {
		return visual.Gray{Pix: ras.Pix[r.Y0*ras.Stride+r.X0:], W: w, H: h, Stride: ras.Stride}
	}
	pix := make([]byte, w*h)
	for y := 0; y < h; y++ {
		row := ras.Pix[(r.Y0+y)*ras.Stride+r.X0*ras.Channels:]
		for x := 0; x < w; x++ {
			o := x * ras.Channels
			pix[y*w+x] = uint8((299*int(row[o]) + 587*int(row[o+1]) + 114*int(row[o+2])) / 1000)
		}
	}
	return visual.Gray{Pix: pix, W: w, H: h, Stride: w}
}

// regionBoxPt is box b, in the pixels of region r of a page raster at s
// pixels a point, in page points.
func regionBoxPt(r PixelRect, b visual.Box, s float64) page.Rect {
	return page.Rect{X0: float64(r.X0+b.X0) / s, Y0: float64(r.Y0+b.Y0) / s, X1: float64(r.X0+b.X1) / s, Y1: float64(r.Y0+b.Y1) / s}
}
