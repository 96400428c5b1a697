package pipeline

import (
	"context"
	"math"
	"time"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
)

// What a reader sees decides which words a page has. The text layer is a
// hint: it is trusted font by font once a sample of its words, read off
// the pixels, agrees with it (fonts.go); pages that are mostly picture,
// and pages using a font that failed the check, are read whole by OCR;
// on other pages, ink that no trusted word explains is read (ink.go).
// Detection runs on the layer's words and on OCR's words separately, and
// the masks are their union: an OCR word is never dropped because a
// layer word overlaps it.

// scanShare is the share of a page's area covered by images above which
// the page is taken for a scan and read whole, whatever its text layer
// says (invisible OCR layers, text hidden under the picture).
const scanShare = 0.5

// analysePage reads the page's pixels where its text layer may not tell
// all (see above) and runs detection on both readings, returning the
// spans to mask. OCR words are appended to pg.Words after the layer's;
// spans index into the combined list. st gets whether OCR ran and the
// time of both steps (the document's report).
func (p *Pipeline) analysePage(ctx context.Context, pg *page.Page, opts detect.Options, doc *docState, st *pageStats) ([]page.Span, error) {
	t := time.Now()
	ocrWords, ran, blind, err := p.readPixels(ctx, pg, doc, st)
	if ran {
		st.ocr, st.t[stageOCR] = true, time.Since(t)
	}
	st.blind = blind
	if err != nil {
		return nil, err
	}
	t = time.Now()
	defer func() {
		p.metrics.observe("detect", t)
		st.t[stageDetect] = time.Since(t)
	}()
	spans, err := detect.Run(ctx, pg, p.deps.Detectors, opts)
	if err != nil || len(ocrWords) == 0 {
		return spans, err
	}
	_, more, err := p.detectOCR(ctx, pg, ocrWords, opts)
	if err != nil {
		return nil, err
	}
	pg.Words = appendWords(pg.Words, ocrWords)
	off := len(pg.Words) - len(ocrWords)
	for _, s := range more {
		s.First += off
		s.Last += off
		spans = append(spans, s)
	}
	return spans, nil
}

// appendWords appends OCR words after the page's own, giving their lines
// ids after the existing ones.
func appendWords(have, ocr []page.Word) []page.Word {
	next := 0
	for _, w := range have {
		next = max(next, w.Line+1)
	}
	out := make([]page.Word, 0, len(have)+len(ocr))
	out = append(out, have...)
	for _, w := range ocr {
		w.Line += next
		out = append(out, w)
	}
	return out
}

// readPixels returns the words OCR reads on the page, in points: the
// whole page when OCR is forced, when the page has no usable text layer,
// when it is mostly picture, or when one of its fonts fails the check;
// otherwise the ink that no text-layer word explains (images, outlines,
// glyphs outside their declared boxes).
// ran says whether any area was read (the font check aside), blind
// whether the page was read whole with nothing known of it (a scan, an
// untrusted font, ocr=always): every glyph on it read from its pixels.
// The regions of unexplained ink read (none when the page was read whole)
// go to st.ink, for the handwriting stage (hand.go), and those outside
// images to st.drawn, for the visual stage's codes.
func (p *Pipeline) readPixels(ctx context.Context, pg *page.Page, doc *docState, st *pageStats) (words []page.Word, ran, blind bool, err error) {
	if p.deps.OCR == nil || p.cfg.OCR == "off" || pg.Raster == nil {
		return nil, false, false, nil
	}
	whole := p.cfg.OCR == "always" || !hasUsableText(pg.Words) || imageShare(pg) > scanShare
	reason := "page"
	if !whole {
		t := time.Now()
		bad, err := p.checkFonts(ctx, pg, doc)
		p.metrics.observe("fontcheck", t)
		if err != nil {
			return nil, false, false, err
		}
		whole = bad
		reason = "font"
	}
	blind = whole
	var regions []PixelRect
	var ink *inkMap     // what the layer leaves unexplained; nil: read everything
	var hints ReadHints // what a trusted layer tells of the ink; none for scans
	if whole {
		regions = []PixelRect{{}}
		p.metrics.ocrRegions.WithLabelValues(reason).Inc()
	} else {
		regions, ink = unexplainedInk(pg)
		st.ink, st.drawn = regions, drawnRegions(pg, regions)
		hints = ReadHints{Known: p.knownLines(ink), Upright: layerUpright(pg.Words)}
		if len(regions) > maxInkRegions {
			regions = []PixelRect{{}}
			whole = true
			p.metrics.ocrRegions.WithLabelValues("ink").Inc()
		}
	}
	if len(regions) == 0 {
		return nil, false, false, nil
	}
	hints.DPI = pg.DPI
	t := time.Now()
	defer p.metrics.observe("ocr", t)
	scale := 72 / pg.DPI
	var found []page.Word
	lineBase := 0 // line ids of each region's words follow the previous region's
	for _, reg := range regions {
		var words []page.Word
		var err error
		if whole {
			words, err = p.deps.OCR.Recognize(ctx, pg.Raster, reg, hints)
		} else {
			var reused bool
			words, reused, err = p.readRegion(ctx, pg.Raster, reg, doc, ink, hints)
			label := "ink"
			if reused {
				label = "ink_reused"
			}
			p.metrics.ocrRegions.WithLabelValues(label).Inc()
		}
		if err != nil {
			return nil, true, blind, err
		}
		found, lineBase = appendOCRWords(found, words, lineBase, scale)
	}
	return found, true, blind, nil
}

// appendOCRWords appends words OCR read (raster pixels) to found, in
// points (scale: points per pixel), their lines numbered from lineBase,
// and returns the next free line number.
func appendOCRWords(found, words []page.Word, lineBase int, scale float64) ([]page.Word, int) {
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
	return found, next
}

// readWhole reads the whole of the page's raster with OCR, nothing
// known of it beforehand, and returns the words in points: how a page
// without a usable layer is read, and how the release check reads a
// burned page (release.go), as the review editor's re-scan reads an
// output (Process on the output, whose pages have no layer).
func (p *Pipeline) readWhole(ctx context.Context, pg *page.Page) ([]page.Word, error) {
	words, err := p.deps.OCR.Recognize(ctx, pg.Raster, PixelRect{}, ReadHints{DPI: pg.DPI})
	if err != nil {
		return nil, err
	}
	found, _ := appendOCRWords(nil, words, 0, 72/pg.DPI)
	return found, nil
}

// detectOCR runs detection on the words OCR read on pg, apart from the
// page's own words (spans index into words).
func (p *Pipeline) detectOCR(ctx context.Context, pg *page.Page, words []page.Word, opts detect.Options) (*page.Page, []page.Span, error) {
	ocrPage := *pg
	ocrPage.Words = words
	spans, err := detect.Run(ctx, &ocrPage, p.deps.Detectors, opts)
	return &ocrPage, spans, err
}

// knownLines is OCR.Recognize's known for a page whose unexplained ink
// is m (nil: nothing is known, every line is read): a line holding none
// of it is known, and counted.
func (p *Pipeline) knownLines(m *inkMap) func(PixelRect) bool {
	if m == nil {
		return nil
	}
	return func(r PixelRect) bool {
		if m.explains(r) {
			p.metrics.ocrKnownLines.Inc()
			return true
		}
		return false
	}
}

// layerUpright reports whether most of the text layer's characters read
// upright, left to right (within 45 degrees): then the ink around them is
// taken to be upright too (ReadHints.Upright).
func layerUpright(words []page.Word) bool {
	up, all := 0, 0
	for _, w := range words {
		if w.Source != page.SourceTextLayer {
			continue
		}
		n := utf8.RuneCountInString(w.Text)
		all += n
		if dx, dy := w.Quad.UR.X-w.Quad.UL.X, w.Quad.UR.Y-w.Quad.UL.Y; dx > 0 && math.Abs(dy) < dx {
			up += n
		}
	}
	return all > 0 && 2*up > all
}

// imageShare is the share of the page's area its images cover (overlaps
// counted once per image: an upper bound).
func imageShare(pg *page.Page) float64 {
	area := pg.Width * pg.Height
	if area <= 0 {
		return 0
	}
	full := page.Rect{X1: pg.Width, Y1: pg.Height}
	var a float64
	for _, r := range pg.ImageRegions {
		a += r.Intersect(full).Area()
	}
	return a / area
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
