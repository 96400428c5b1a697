package pipeline

import (
	"context"
	"time"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
)

// minImageRegionPt is the smallest side, in points, of an embedded image
// worth reading with OCR on a page that has a text layer: below it an image
// cannot hold a legible line of text.
const minImageRegionPt = 24

// analysePage completes the page's words with OCR where needed and runs
// detection, returning the spans to mask; st gets whether OCR ran and the
// time of both steps.
func (p *Pipeline) analysePage(ctx context.Context, pg *page.Page, opts detect.Options, st *pageStats) ([]page.Span, error) {
	t := time.Now()
	ran, err := p.addOCRWords(ctx, pg)
	if ran {
		st.ocr, st.t[stageOCR] = true, time.Since(t)
	}
	if err != nil {
		return nil, err
	}
	t = time.Now()
	spans, err := detect.Run(ctx, pg, p.deps.Detectors, opts)
	observe("detect", t)
	st.t[stageDetect] = time.Since(t)
	return spans, err
}

// addOCRWords reads the page's pixels when its words may not all be in
// the text layer: the whole page when it has no usable text, otherwise the
// embedded images large enough to hold text. OCR words that repeat a
// text-layer word are dropped.
func (p *Pipeline) addOCRWords(ctx context.Context, pg *page.Page) (ran bool, err error) {
	if p.deps.OCR == nil || p.cfg.OCR == "off" || pg.Raster == nil {
		return false, nil
	}
	var regions []PixelRect
	switch {
	case p.cfg.OCR == "always" || !hasUsableText(pg.Words):
		regions = []PixelRect{{}}
	default:
		for _, r := range pg.ImageRegions {
			r = r.Intersect(page.Rect{X0: 0, Y0: 0, X1: pg.Width, Y1: pg.Height})
			if r.X1-r.X0 < minImageRegionPt || r.Y1-r.Y0 < minImageRegionPt/2 {
				continue
			}
			x0, y0, x1, y1 := page.PixelRect(r, pg.DPI, pg.Raster.W, pg.Raster.H)
			regions = append(regions, PixelRect{x0, y0, x1, y1})
		}
	}
	if len(regions) == 0 {
		return false, nil
	}
	t := time.Now()
	defer observe("ocr", t)
	scale := 72 / pg.DPI
	var found []page.Word
	lineBase := 0 // line ids of each region's words follow the previous region's
	for _, reg := range regions {
		words, err := p.deps.OCR.Recognize(ctx, pg.Raster, reg)
		if err != nil {
			return true, err
		}
		next := lineBase
		for _, w := range words {
			w.Line += lineBase
			next = max(next, w.Line+1)
			w.Quad = scaleQuad(w.Quad, scale)
			for k := range w.Chars {
				w.Chars[k] = scaleQuad(w.Chars[k], scale)
			}
			w.Source = page.SourceOCR
			found = append(found, w)
		}
		lineBase = next
	}
	pg.Words = mergeWords(pg.Words, found)
	return true, nil
}

// hasUsableText reports whether a text layer is worth trusting: some words
// made mostly of printable characters (scanned PDFs often carry none, or an
// invisible OCR layer of garbage from another tool).
func hasUsableText(words []page.Word) bool {
	good := 0
	for _, w := range words {
		if w.Source != page.SourceTextLayer {
			continue
		}
		bad := 0
		n := 0
		for _, r := range w.Text {
			n++
			if r == 0xFFFD || r < 0x20 {
				bad++
			}
		}
		if n > 0 && bad*2 < n {
			good++
		}
	}
	return good >= 3
}

func scaleQuad(q page.Quad, s float64) page.Quad {
	f := func(p page.Point) page.Point { return page.Point{X: p.X * s, Y: p.Y * s} }
	return page.Quad{UL: f(q.UL), UR: f(q.UR), LL: f(q.LL), LR: f(q.LR)}
}

// mergeWords appends OCR words that do not duplicate an existing word (one
// whose box overlaps theirs by more than half), giving OCR lines their own
// line ids after the existing ones.
func mergeWords(have, ocr []page.Word) []page.Word {
	if len(ocr) == 0 {
		return have
	}
	nextLine := 0
	for _, w := range have {
		nextLine = max(nextLine, w.Line+1)
	}
	lineMap := map[int]int{}
	out := have
	for _, w := range ocr {
		b := w.Quad.Bounds()
		dup := false
		for _, h := range have {
			if ov := b.Intersect(h.Quad.Bounds()).Area(); ov > 0.5*b.Area() {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		id, ok := lineMap[w.Line]
		if !ok {
			id = nextLine
			nextLine++
			lineMap[w.Line] = id
		}
		w.Line = id
		out = append(out, w)
	}
	return out
}
