package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/burn"
	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
)

// The release check. Detection reads words, and a page can show a reader
// text that its words broke apart (signs.go): there, what was burned is
// checked against what a reader of the burned page sees. The burned
// raster is read whole by the pipeline's own recogniser (readWhole, as a
// page without a layer is read, and as the review editor's re-scan reads
// an output) and the reading goes through the request's detection
// (detectOCR, the same detectors and categories). Whatever PII it finds
// that no mask covers yet is masked and burned. Where that PII lies at a
// sign (near the words or lines that show one) the page is read again,
// up to releaseReads times, and the last reading must find none there;
// elsewhere the layer's words were whole and detection has judged them
// already, so what the reading adds there (the recogniser's misreadings
// of ordinary words that the NER model takes for names) is masked once
// and holds nothing up. Where the page cannot be checked (OCR off or not
// installed) or still shows PII at a sign after the last reading, the
// document fails: nothing is released that a reader could still read.
// Pages without a sign, nearly all, cost one pass over their words.

// releaseReads is how many times at most a burned page with a sign is
// read: each reading that finds unmasked PII at a sign masks it, burns
// and reads again, and the last must find none.
const releaseReads = 3

// coveredShare is the share of a found box that masks must cover for it
// to count as masked already: OCR boxes are padded and a mask's edge
// may clip them.
const coveredShare = 0.9

// signMarginLines is how far around a sign's words, in their heights, a
// finding still counts as at the sign: OCR groups the glyphs of a
// broken word into words of its own, a little larger or offset.
const signMarginLines = 1.0

// checkRelease returns the signs page pg shows (signs.go), counting them,
// and where they are.
func (p *Pipeline) checkRelease(pg *page.Page) (releaseSign, []page.Rect) {
	s, at := releaseSigns(pg)
	for i, n := range signNames {
		if s&(1<<i) != 0 {
			p.metrics.releaseSigns.WithLabelValues(n).Inc()
		}
	}
	return s, at
}

// releaseCheck reads the burned page pg (boxes: its masks so far) when
// it shows signs (at: where), masks and burns what the reading still
// finds, and returns all the boxes burned; or a DocError that names the
// page and the categories (never the text) when the page cannot be
// released.
func (p *Pipeline) releaseCheck(ctx context.Context, pg *page.Page, boxes []burn.Box, signs releaseSign, at []page.Rect, opts detect.Options, st *pageStats) ([]burn.Box, error) {
	if p.deps.OCR == nil || p.cfg.OCR == "off" || pg.Raster == nil {
		p.metrics.releaseReads.WithLabelValues("no_ocr").Inc()
		p.log.Warn("pipeline: release check impossible without OCR", "page", pg.Index+1, "signs", signs.String())
		return nil, contract.DocErrorf(fmt.Sprintf("page %d shows signs that its words were broken apart (%s) and OCR is off or unavailable, so the burned page cannot be checked before release", pg.Index+1, signs))
	}
	for read := 1; ; read++ {
		words, err := p.readWhole(ctx, pg)
		if err != nil {
			return nil, err
		}
		st.releaseReads++
		ocrPage, spans, err := p.detectOCR(ctx, pg, words, opts)
		if err != nil {
			return nil, err
		}
		fresh := uncovered(burn.Boxes(ocrPage, spans, maskPadPt), boxes)
		atSign := 0
		for _, f := range fresh {
			if nearSign(f.Rect, at) {
				atSign++
			}
		}
		if atSign > 0 && read == releaseReads {
			p.metrics.releaseReads.WithLabelValues("failed").Inc()
			cats := boxCategories(fresh, at)
			p.log.Warn("pipeline: PII still readable after the release check", "page", pg.Index+1, "categories", cats, "reads", read)
			return nil, contract.DocErrorf(fmt.Sprintf("page %d still shows %s after %d readings of the burned page; it was not released", pg.Index+1, cats, read))
		}
		burn.Burn(pg.Raster, pg.DPI, fresh)
		boxes = append(boxes, fresh...)
		if atSign == 0 {
			p.metrics.releaseReads.WithLabelValues("clean").Inc()
			return boxes, nil
		}
		p.metrics.releaseReads.WithLabelValues("masked").Inc()
	}
}

// nearSign reports whether r lies within signMarginLines of a sign's box.
func nearSign(r page.Rect, at []page.Rect) bool {
	for _, a := range at {
		m := signMarginLines * max(a.Y1-a.Y0, 6)
		if !r.Intersect(page.Rect{X0: a.X0 - m, Y0: a.Y0 - m, X1: a.X1 + m, Y1: a.Y1 + m}).Empty() {
			return true
		}
	}
	return false
}

// uncovered returns the boxes of found that the masks do not cover
// already: less than coveredShare of a grid of points over the box lies
// under some mask (masks overlap, so their areas cannot be summed).
func uncovered(found, masks []burn.Box) []burn.Box {
	const nx, ny = 16, 6
	var out []burn.Box
	for _, f := range found {
		r := f.Rect
		if r.Empty() {
			continue
		}
		in := 0
		for i := range nx {
			x := r.X0 + (float64(i)+0.5)*(r.X1-r.X0)/nx
			for j := range ny {
				y := r.Y0 + (float64(j)+0.5)*(r.Y1-r.Y0)/ny
				for _, m := range masks {
					if x >= m.Rect.X0 && x <= m.Rect.X1 && y >= m.Rect.Y0 && y <= m.Rect.Y1 {
						in++
						break
					}
				}
			}
		}
		if float64(in) < coveredShare*nx*ny {
			out = append(out, f)
		}
	}
	return out
}

// boxCategories lists the categories of the boxes near a sign, sorted,
// each once.
func boxCategories(boxes []burn.Box, at []page.Rect) string {
	var cats []string
	for _, b := range boxes {
		if c := string(b.Category); nearSign(b.Rect, at) && !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
	}
	slices.Sort(cats)
	return strings.Join(cats, ", ")
}
