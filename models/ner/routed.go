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
	// EnglishContext, when above 0 (with EnglishWhere and no
	// EnglishAlso), has English read, of the other languages' lines,
	// only the words to which Other gives at least EnglishWhere
	// probability, each with this many words on each side within its
	// line, every run of them as a line of its own, instead of every
	// line of the page: cheaper, but the English model then reads those
	// words out of their sentences, which changes what it finds (see
	// docs/languages.md).
	EnglishContext int
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
	if r.o.EnglishWhere > 0 && r.o.EnglishContext > 0 && len(r.o.EnglishAlso) == 0 {
		return r.englishWhere(ctx, p, lines, other)
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
	return r.merge(lines, other, enSp, otSp, ent), nil
}

// englishWhere is DetectLangs with EnglishWhere and EnglishContext (and
// no EnglishAlso): Other reads the other languages' lines first; English
// then reads the English lines and, of the others, only the words to
// which Other gives at least EnglishWhere entity probability (doubted
// words), each with EnglishContext words on each side within its line;
// each run of such words is read as a line of its own. An English span
// elsewhere in the other lines would be dropped whatever it is (none of
// its words reaches the probability), so English's reading of the rest
// is not needed, only the context it gave.
func (r *Routed) englishWhere(ctx context.Context, p *page.Page, lines [][2]int, other []bool) ([]page.Span, error) {
	ent := make([]float32, len(p.Words))
	otSp, err := r.Other.detectLines(ctx, p, other, ent)
	if err != nil {
		return nil, err
	}
	en := make([]bool, len(lines))
	words := make([]bool, len(p.Words))
	read := false
	for li, l := range lines {
		if !other[li] {
			en[li] = true
			for w := l[0]; w < l[1]; w++ {
				words[w] = true
			}
		}
		for w := l[0]; w < l[1] && other[li]; w++ {
			if ent[w] < r.o.EnglishWhere {
				continue
			}
			en[li] = true
			for c := max(l[0], w-r.o.EnglishContext); c < min(l[1], w+r.o.EnglishContext+1); c++ {
				words[c] = true
			}
		}
		read = read || en[li]
	}
	if !read {
		return otSp, nil
	}
	enSp, err := r.English.detectWords(ctx, p, en, words, nil)
	if err != nil {
		return nil, err
	}
	return r.merge(lines, other, enSp, otSp, ent), nil
}

// merge is Other's spans and those of English's kept: all in English's
// lines; in the other lines those of EnglishAlso's categories or, with
// ent (EnglishWhere), those Other gives a word at least EnglishWhere
// entity probability.
func (r *Routed) merge(lines [][2]int, other []bool, enSp, otSp []page.Span, ent []float32) []page.Span {
	out := otSp
	for _, s := range enSp {
		if !other[lineOf(lines, s.First)] {
			out = append(out, s)
			continue
		}
		if !slices.Contains(r.o.EnglishAlso, s.Category) && (ent == nil || slices.Max(ent[s.First:s.Last+1]) < r.o.EnglishWhere) {
			continue
		}
		out = append(out, s)
	}
	return out
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
