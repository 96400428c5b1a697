package ner

import (
	"context"
	"slices"
	"sync"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
)

// Routed reads each line of a page with one of two detectors, chosen by
// the language of the line's block (issue 46): English lines, and lines
// whose language cannot be told well enough (RoutedOptions.Route), with
// English (the built-in English model); lines in the other languages
// (de, fr, es, it, nl, pt) with Other (a multilingual model). A page all
// of whose lines are English is read exactly as English alone reads it;
// on any page each model runs once, over the windows of its own lines.
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
	// Route says which blocks the identifier's reading sends to Other;
	// the zero value sends every block told as one of the six other
	// languages (NewRouted's callers pass DefaultRouting).
	Route Routing
}

// Routing says how sure the language identifier must be of a block's
// language before Other reads it. English stays the default: a block
// the identifier tells as German by a hair (a line of English names and
// hashtags) or that fits none of the seven languages well (a tweet in
// Tagalog or Indonesian, which the identifier must still call one of
// its seven) is read by the model the English floors were set on. A
// block whose language the request's hint decided (lang.Result.Hinted)
// goes to Other whatever its figures: the caller said so.
type Routing struct {
	// MinTrigrams is the fewest trigrams (lang.Result.Trigrams) a block
	// must have been told from; lang.SureTrigrams is about six words.
	MinTrigrams int
	// MinOverEnglish is how far the block's language must beat English
	// (lang.Result.OverEnglish, in mean log-likelihood per trigram).
	MinOverEnglish float64
	// MinFit is how well the block must fit its language
	// (lang.Result.Fit: about -7 on prose in one of the seven languages,
	// under -8.5 on text in none of them); 0 is no bound.
	MinFit float64
}

// DefaultRouting is the routing the service uses, chosen on the dev
// splits with the distilled candidate as Other (docs/languages.md,
// "Which blocks the multilingual model reads"): against routing every
// told block, English dev figures falling by more than 0.01 go from 6
// to 1, what the other languages gained is kept but for a few
// precision figures, and the test gate's failing figures go from 15 to
// 7 (read once).
var DefaultRouting = Routing{MinTrigrams: 10, MinOverEnglish: 0.2, MinFit: -8.3}

// Other reports whether a block the identifier read as res goes to the
// multilingual model.
func (rt Routing) Other(res lang.Result) bool {
	if res.Lang == lang.Unknown || res.Lang == lang.English {
		return false
	}
	if res.Hinted {
		return true
	}
	return res.Trigrams >= rt.MinTrigrams && res.OverEnglish >= rt.MinOverEnglish &&
		(rt.MinFit == 0 || res.Fit >= rt.MinFit)
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

// DetectLangs is Detect told what the language identifier read in the
// block of each line of p (in p.Lines() order); RoutedOptions.Route
// sends each line to a model.
func (r *Routed) DetectLangs(ctx context.Context, p *page.Page, lineLang func(line int) lang.Result) ([]page.Span, error) {
	lines := p.Lines()
	other := make([]bool, len(lines))
	n := 0
	for li := range lines {
		if r.o.Route.Other(lineLang(li)) {
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
