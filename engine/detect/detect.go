// Package detect finds personal data on a page: it runs detectors (the
// pattern recognizers of this package and the NER model of models/ner,
// which implements Detector), merges what they find, applies the caller's
// category filter and excluded terms, and adds the caller's included terms.
//
// Detectors see the page's words; View turns a run of lines into one text
// (words joined by spaces, lines by newlines) whose byte offsets map back
// to words and rune offsets, so a match inside "Email:jo@x.org" becomes a
// partial-word span.
//
// Recognizers validate what they match (checksums, calendars, numbering
// plans, gazetteers), because a redaction service that masks every number
// is as useless as one that masks none. Person, Organization and Address
// need the NER model for good recall; the gazetteer recognizers here only
// help it.
package detect

//go:generate go run ./internal/gen -out gazetteer/data

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/page"
)

// Detector finds spans of personal data on a page.
type Detector interface {
	Name() string
	// Detect returns spans on p. Implementations must be safe for
	// concurrent use; they may block (e.g. on a model batcher) and must
	// honour ctx.
	Detect(ctx context.Context, p *page.Page) ([]page.Span, error)
}

// ViewDetector is implemented by detectors that work on the text of the
// page and never block. Run builds the page's View once and hands it to
// every ViewDetector, synchronously, while blocking detectors run in their
// own goroutines.
type ViewDetector interface {
	Detector
	DetectView(v *View) []page.Span
}

// Options are a job's redaction settings, already resolved against the
// account defaults.
type Options struct {
	// Categories to keep. nil keeps every category; an empty non-nil
	// slice keeps none (only included terms are masked then).
	Categories []page.Category
	// Included terms are always masked (whole-word, compared in Unicode
	// NFC and case-folded form, across words and lines; diacritics count:
	// "Muller" is not "Müller", see terms.go), whatever Categories and
	// Excluded say.
	Included []string
	// Excluded terms are never masked: a detected span whose text lies
	// within an occurrence of an excluded term (matched as Included) is
	// dropped.
	Excluded []string
	// IgnoreDiacritics, when set, matches Included and Excluded terms
	// without their diacritics on both sides ("Muller" matches "Müller",
	// "Lukasz" "Łukasz"; engine/config terms-ignore-diacritics). Off by
	// default: it would also mask people whose names differ only by the
	// accent.
	IgnoreDiacritics bool
	// DisabledRules names rules of the registry (Rules) to skip. The
	// evaluation sets it to measure what each rule adds and costs
	// (nereval -ablate); the service never does.
	DisabledRules []string
}

// Run runs ds on p and returns the final spans, sorted by position. The
// steps after the detectors are the registry's rules (Rules, rules.go),
// applied in order:
//
//   - the NER model's spans start past words no entity begins with
//     ("What's", "him"; trimLeadingFunctionWords);
//   - spans of one category that overlap are merged into one covering
//     their union, with the highest score (and that detector's name);
//   - spans of different categories that overlap are all kept: recall comes
//     first, the mask is the union anyway, and the category filter must not
//     lose an Address because a model called the same words a Person;
//   - categories not in opts.Categories are dropped;
//   - the NER model's Address spans that hold a money amount and nothing
//     only an address holds (invoice rows) are dropped (dropAmountRows);
//   - the NER model's Person spans of ordinary words that stand alone
//     ("Summary", "Charges" as table labels), and its Address spans of
//     ordinary words and numbers ("45 Closure Permanent"), are dropped
//     (dropCommonWordSpans);
//   - Person spans that are the stem of a negated verb ("Don" of "Don't")
//     are dropped;
//   - Person spans that are a known town or country after a locative
//     ("lives in London") are dropped: a place name alone is no one's
//     (dropPlaceNames);
//   - Person spans made only of titles ("Mr President") are dropped
//     (dropTitleOnly);
//   - spans within an occurrence of an excluded term are dropped;
//   - included terms are added as IncludedTerm spans (score 1).
//
// A detector error aborts the run: a page whose detection failed must not
// be burnt as if it held nothing.
func Run(ctx context.Context, p *page.Page, ds []Detector, opts Options) ([]page.Span, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v := PageView(p)

	// Blocking detectors first, in their own goroutines.
	type result struct {
		spans []page.Span
		err   error
		name  string
	}
	var (
		wg      sync.WaitGroup
		results = make([]result, len(ds))
	)
	for i, d := range ds {
		if _, ok := d.(ViewDetector); ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := d.Detect(ctx, p)
			results[i] = result{spans: s, err: err, name: d.Name()}
		}()
	}
	var all []page.Span
	for _, d := range ds {
		if vd, ok := d.(ViewDetector); ok {
			all = append(all, vd.DetectView(v)...)
		}
	}
	wg.Wait()
	for _, r := range results {
		if r.err != nil {
			return nil, fmt.Errorf("detect: %s: %w", r.name, r.err)
		}
		all = append(all, r.spans...)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := growerOnce()
	if err != nil {
		return nil, err
	}
	rc := ruleContext{p: p, v: v, g: g}
	all = applyRules(rc, validSpans(p, all), true, opts.DisabledRules)
	all = applyRules(rc, Merge(all), false, opts.DisabledRules)
	all = filterCategories(all, opts.Categories)
	if len(opts.Excluded) > 0 {
		all = dropExcluded(v, all, opts.Excluded, opts.IgnoreDiacritics)
	}
	all = append(all, Merge(findTerms(v, opts.Included, opts.IgnoreDiacritics, page.IncludedTerm, 1, "included-term"))...)
	SortSpans(all)
	return all, nil
}

// startsAtContractionTail reports whether span s starts right after an
// apostrophe inside its first word and that word ends in a contraction's
// tail there.
func startsAtContractionTail(v *View, s page.Span) bool {
	f := s.First - v.First
	if f < 0 || f >= v.Len() {
		return false
	}
	r := []rune(v.WordText(f))
	if s.Start >= len(r) || r[s.Start-1] != '\'' && r[s.Start-1] != '’' {
		return false
	}
	tail := strings.TrimRight(string(r[s.Start:]), ".,;:!?\"'”’)")
	return contractionTails[strings.ToLower(tail)]
}

var growerOnce = sync.OnceValues(func() (*grower, error) {
	gz, err := gazetteer.Get()
	if err != nil {
		return nil, err
	}
	return newGrower(gz), nil
})

// validSpans drops spans that do not fit the page (a detector bug must not
// become an out-of-range index in the burner) and normalises rune offsets.
func validSpans(p *page.Page, ss []page.Span) []page.Span {
	out := ss[:0]
	for _, s := range ss {
		if s.First < 0 || s.Last >= len(p.Words) || s.First > s.Last || s.Start < 0 || s.End < 0 {
			continue
		}
		if s.First == s.Last && s.End != 0 && s.End <= s.Start {
			continue
		}
		out = append(out, s)
	}
	return out
}

// pos is a position between runes: word w, rune r; end positions of whole
// words use r = maxRune.
type pos struct{ w, r int }

const maxRune = int(^uint(0) >> 1)

func (a pos) less(b pos) bool { return a.w < b.w || a.w == b.w && a.r < b.r }

func spanStart(s page.Span) pos { return pos{s.First, s.Start} }

func spanEnd(s page.Span) pos {
	if s.End == 0 {
		return pos{s.Last, maxRune}
	}
	return pos{s.Last, s.End}
}

// Overlap reports whether a and b share at least one rune of one word.
func Overlap(a, b page.Span) bool {
	return spanStart(a).less(spanEnd(b)) && spanStart(b).less(spanEnd(a))
}

// Merge joins overlapping spans of the same category into their union,
// keeping the highest score and the name of the detector that gave it.
// Spans of different categories are left alone. The result is sorted.
func Merge(ss []page.Span) []page.Span {
	if len(ss) < 2 {
		return ss
	}
	// Category first, then position: overlapping spans of a category
	// become neighbours.
	slices.SortFunc(ss, func(a, b page.Span) int {
		if a.Category != b.Category {
			if a.Category < b.Category {
				return -1
			}
			return 1
		}
		return comparePos(a, b)
	})
	out := ss[:0]
	for _, s := range ss {
		if n := len(out); n > 0 && out[n-1].Category == s.Category && Overlap(out[n-1], s) {
			m := &out[n-1]
			if spanEnd(*m).less(spanEnd(s)) {
				m.Last, m.End = s.Last, s.End
			}
			if s.Score > m.Score {
				m.Score, m.Recognizer = s.Score, s.Recognizer
			}
			continue
		}
		out = append(out, s)
	}
	SortSpans(out)
	return out
}

// SortSpans orders spans by start, then end, then category.
func SortSpans(ss []page.Span) {
	slices.SortFunc(ss, func(a, b page.Span) int {
		if c := comparePos(a, b); c != 0 {
			return c
		}
		switch {
		case a.Category < b.Category:
			return -1
		case a.Category > b.Category:
			return 1
		}
		return 0
	})
}

// comparePos orders spans by start, then end.
func comparePos(a, b page.Span) int {
	as, bs := spanStart(a), spanStart(b)
	if as != bs {
		if as.less(bs) {
			return -1
		}
		return 1
	}
	ae, be := spanEnd(a), spanEnd(b)
	if ae != be {
		if ae.less(be) {
			return -1
		}
		return 1
	}
	return 0
}

func filterCategories(ss []page.Span, cats []page.Category) []page.Span {
	if cats == nil {
		return ss
	}
	out := ss[:0]
	for _, s := range ss {
		if slices.Contains(cats, s.Category) {
			out = append(out, s)
		}
	}
	return out
}

// contractions are the endings of negated verbs after an apostrophe:
// "Don't", "Won't", "Can't". Other endings follow names too: "Sarah'll",
// "John'd", "Cynthia's" hold a name.
var contractions = []string{"'t", "’t", "n't", "n’t"}

// contractionTails are what follows the apostrophe of a contraction.
var contractionTails = map[string]bool{"t": true, "s": true, "ll": true, "re": true, "ve": true, "d": true, "m": true}

// dropContractions drops Person spans that end inside a word right before
// a contraction's ending: the model reads "Don" in "Don't", but a
// contraction is no name. It also drops Person spans that start at the
// tail of a contraction ("t worry" of "Don't worry"), never at the rest
// of a name after an apostrophe ("Brien" of "O'Brien").
func dropContractions(v *View, ss []page.Span) []page.Span {
	out := ss[:0]
	for _, s := range ss {
		if s.Category == page.Person && s.Start > 0 && startsAtContractionTail(v, s) {
			continue
		}
		if s.Category == page.Person && s.First == s.Last && s.End != 0 {
			if _, e, ok := v.ByteRange(s); ok {
				_, we := v.WordRange(s.Last - v.First)
				rest := strings.TrimRight(v.Text[e:we], ".,;:!?\"'”’)")
				if slices.Contains(contractions, strings.ToLower(rest)) {
					continue
				}
			}
		}
		out = append(out, s)
	}
	return out
}
