package ner

import (
	"context"
	"slices"
	"sync"

	"github.com/redactd/redactd/engine/page"
)

// Routed reads each line of a page with one of two detectors, chosen by
// the language of the line's block (issue 46): English lines, and lines
// whose language cannot be told, with English (the built-in English
// model); lines in the other languages (de, fr, es, it, nl, pt) with
// Other (a multilingual model). A page all of whose lines are English is
// read exactly as English alone reads it; on any page each model runs
// once, over the windows of its own lines.
type Routed struct {
	English, Other *Detector
	o              RoutedOptions
}

// RoutedOptions tune a Routed detector; the zero value routes by
// language alone.
type RoutedOptions struct {
	// EnglishAlso lists the categories of the English model's spans kept
	// in the other languages' lines besides Other's: English then reads
	// every line of a page that has any in another language (a second
	// run over those lines), and the union of the two masks there.
	EnglishAlso []page.Category
	// EnglishWhere, when above 0, keeps the English model's spans of any
	// category in the other languages' lines (English reads every line,
	// as with EnglishAlso) where the second model gives one of their
	// words at least this probability of some masked entity.
	EnglishWhere float32
	// SureOnly routes to Other only the lines of blocks whose language
	// the identifier is sure of (engine/detect/lang.SureTrigrams, or the
	// request's hint); the others stay with English.
	SureOnly bool
}

// NewRouted returns a detector that reads English lines with en and the
// lines in other languages with other; both stay owned by the caller.
func NewRouted(en, other *Detector, o RoutedOptions) *Routed {
	return &Routed{English: en, Other: other, o: o}
}

// Name identifies the detector in spans and errors: the NER model's.
func (r *Routed) Name() string { return "ner" }

// Detect reads every line with English: the language of p's lines is
// not known.
func (r *Routed) Detect(ctx context.Context, p *page.Page) ([]page.Span, error) {
	return r.English.Detect(ctx, p)
}

// DetectLangs is Detect told the language of each line of p (in
// p.Lines() order): its ISO 639-1 code ("" when it cannot be told) and
// whether the identifier is sure of it.
func (r *Routed) DetectLangs(ctx context.Context, p *page.Page, lineLang func(line int) (code string, sure bool)) ([]page.Span, error) {
	lines := p.Lines()
	other := make([]bool, len(lines))
	n := 0
	for li := range lines {
		c, sure := lineLang(li)
		if c != "" && c != "en" && (sure || !r.o.SureOnly) {
			other[li] = true
			n++
		}
	}
	if n == 0 {
		return r.English.Detect(ctx, p)
	}
	var en []bool // English's lines; nil: all
	if len(r.o.EnglishAlso) == 0 && r.o.EnglishWhere <= 0 {
		en = make([]bool, len(lines))
		for li := range lines {
			en[li] = !other[li]
		}
	}
	var (
		wg           sync.WaitGroup
		enSp, otSp   []page.Span
		enErr, otErr error
	)
	if n < len(lines) || en == nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			enSp, enErr = r.English.detectLines(ctx, p, en, nil)
		}()
	}
	var ent []float32
	if r.o.EnglishWhere > 0 {
		ent = make([]float32, len(p.Words))
	}
	otSp, otErr = r.Other.detectLines(ctx, p, other, ent)
	wg.Wait()
	if enErr != nil {
		return nil, enErr
	}
	if otErr != nil {
		return nil, otErr
	}
	out := otSp
	for _, s := range enSp {
		if !other[lineOf(lines, s.First)] {
			out = append(out, s)
			continue
		}
		if !slices.Contains(r.o.EnglishAlso, s.Category) && (r.o.EnglishWhere <= 0 || slices.Max(ent[s.First:s.Last+1]) < r.o.EnglishWhere) {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// lineOf is the index in lines (p.Lines()) of the line holding word w.
func lineOf(lines [][2]int, w int) int {
	i, _ := slices.BinarySearchFunc(lines, w, func(l [2]int, w int) int {
		switch {
		case l[1] <= w:
			return -1
		case l[0] > w:
			return 1
		}
		return 0
	})
	return i
}
