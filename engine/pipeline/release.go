package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/burn"
)

// The release check. Detection reads words, and a page can show a reader
// text that its words broke apart (signs.go): there, what was burned is
// checked against what a reader of the burned page sees. The burned
// raster is read whole by the pipeline's own recogniser (readWhole, as a
// page without a layer is read, and as the review editor's re-scan reads
// an output) and the reading goes through the request's detection
// (detectOCR, the same detectors and categories). Whatever PII it finds
// that no mask covers yet is masked and burned. Where that PII lies at a
// sign (on the words that show one) the page is read again, up to
// releaseReads times; elsewhere the layer's words were whole and
// detection has judged them already, so only what a validated
// recognizer finds there is masked, and it holds nothing up (the
// recogniser's misreadings of ordinary words that the NER model takes
// for names are left alone: releaseFindings). At the last
// reading, PII at a sign that a validated recognizer finds, or that lies
// where an earlier reading found PII and burned it (the mask did not
// take), is PII still readable. Where the page cannot be checked (OCR
// off or not installed) or still shows PII at a sign after the last
// reading, the document fails: nothing is released that a reader could
// still read.
// Pages without a sign, nearly all, cost one pass over their words.

// releaseReads is how many times at most a burned page with a sign is
// read: each reading that finds unmasked PII at a sign masks it, burns
// and reads again, and the last must find none still readable
// (leaking).
const releaseReads = 3

// coveredShare is the share of a found box that masks must cover for it
// to count as masked already: OCR boxes are padded and a mask's edge
// may clip them.
const coveredShare = 0.9

// signMargin is how far around a sign's words, in their heights, a
// finding still counts as at the sign: OCR's box of a broken word is a
// little larger or offset. Wider, and on a dense form the NER model's
// readings of the next line's labels ("Ll Maried" for a Person) count,
// a new one at every reading.
const signMargin = 0.3

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
	var checked []burn.Box // found at a sign and burned by a reading
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
		fresh, atSign := releaseFindings(uncovered(burn.Boxes(ocrPage, spans, maskPadPt), boxes), at)
		if read == releaseReads {
			if leaks := leaking(atSign, checked); len(leaks) > 0 {
				p.metrics.releaseReads.WithLabelValues("failed").Inc()
				cats := boxCategories(leaks)
				p.log.Warn("pipeline: PII still readable after the release check", "page", pg.Index+1, "categories", cats, "reads", read)
				return nil, contract.DocErrorf(fmt.Sprintf("page %d still shows %s after %d readings of the burned page; it was not released", pg.Index+1, cats, read))
			}
		}
		burn.Burn(pg.Raster, pg.DPI, fresh)
		boxes = append(boxes, fresh...)
		if len(atSign) == 0 {
			p.metrics.releaseReads.WithLabelValues("clean").Inc()
			return boxes, nil
		}
		p.metrics.releaseReads.WithLabelValues("masked").Inc()
		if read == releaseReads {
			return boxes, nil
		}
		checked = append(checked, atSign...)
	}
}

// validated are the recognizers whose findings a check confirms
// (checksums, numbering plans, calendars, the shape of an address) or
// the request names: found at a sign on the last reading, they are PII
// still readable. The NER model's and the gazetteers' findings on a
// recogniser's reading are not: "Ll Maried" for "Married" is a Person
// to the model, and each reading of a dense form's labels around a sign
// may give a new one.
var validated = []string{"email", "handle", "phone", "iban", "credit-card", "date", "edge-cut", "included-term"}

// releaseFindings returns which of a reading's findings not masked yet
// are masked (fresh) and which of those lie at a sign (at: the signs'
// boxes). At a sign, every finding is masked. Elsewhere the layer's
// words were whole and detection has judged them already: only a
// validated recognizer's finding is masked there. The NER model's and
// the gazetteers' findings on a recogniser's reading of whole words are
// its misreadings of labels ("Nation", "If zero", "Code du" on the
// shared documents' forms and invoices), masked for nothing.
func releaseFindings(found []burn.Box, at []page.Rect) (fresh, atSign []burn.Box) {
	for _, f := range found {
		if nearSign(f.Rect, at) {
			atSign = append(atSign, f)
		} else if !slices.Contains(validated, f.Recognizer) {
			continue
		}
		fresh = append(fresh, f)
	}
	return fresh, atSign
}

// persistShare is the share of a finding that masks burned by earlier
// readings must cover for it to be the same PII read again: its mask did
// not take.
const persistShare = 0.25

// leaking returns the findings at a sign on the last reading that are
// PII still readable: a validated recognizer's, or one where an earlier
// reading of the check found PII and burned it (checked).
func leaking(atSign, checked []burn.Box) []burn.Box {
	var out []burn.Box
	for _, f := range atSign {
		if slices.Contains(validated, f.Recognizer) || coverage(f.Rect, checked) >= persistShare {
			out = append(out, f)
		}
	}
	return out
}

// nearSign reports whether r lies within signMargin of a sign's box.
func nearSign(r page.Rect, at []page.Rect) bool {
	for _, a := range at {
		m := signMargin * max(a.Y1-a.Y0, 6)
		if !r.Intersect(page.Rect{X0: a.X0 - m, Y0: a.Y0 - m, X1: a.X1 + m, Y1: a.Y1 + m}).Empty() {
			return true
		}
	}
	return false
}

// uncovered returns the boxes of found that the masks do not cover
// already (coveredShare).
func uncovered(found, masks []burn.Box) []burn.Box {
	var out []burn.Box
	for _, f := range found {
		if !f.Rect.Empty() && coverage(f.Rect, masks) < coveredShare {
			out = append(out, f)
		}
	}
	return out
}

// coverage is the share of r under some of the masks, measured on a grid
// of points over r (masks overlap, so their areas cannot be summed).
func coverage(r page.Rect, masks []burn.Box) float64 {
	const nx, ny = 16, 6
	if r.Empty() || len(masks) == 0 {
		return 0
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
	return float64(in) / (nx * ny)
}

// boxCategories lists the boxes' categories, sorted, each once.
func boxCategories(boxes []burn.Box) string {
	var cats []string
	for _, b := range boxes {
		if c := string(b.Category); !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
	}
	slices.Sort(cats)
	return strings.Join(cats, ", ")
}
