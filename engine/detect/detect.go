// Package detect finds personal data on a page: it runs detectors (the
// recognizers and the NER model of models/ner, which implements Detector),
// applies the context rules to what they find, applies the caller's
// category filter and excluded terms, and adds the caller's included terms.
//
// It is the framework of three packages:
//
//   - engine/detect/view: View, the page's words as one text whose byte
//     offsets map back to words and rune offsets, and the word and span
//     helpers every recognizer and rule shares;
//   - engine/detect/pattern: the validated pattern recognizers (e-mail,
//     phone, IBAN, card, national ID, date);
//   - engine/detect/rules: the context rules, the gazetteer recognizers of
//     addresses, names and organizations and the registry of trim, grow
//     and drop steps (Rules) that Run applies after the detectors.
//
// Recognizers validate what they match (checksums, calendars, numbering
// plans, gazetteers), because a redaction service that masks every number
// is as useless as one that masks none. Person, Organization and Address
// need the NER model for good recall; the gazetteer recognizers only help
// it.
package detect

//go:generate go run ./internal/gen -out gazetteer/data

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/detect/rules"
	"github.com/redactd/redactd/engine/detect/view"
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

// LangDetector is a blocking detector that reads each line of a page
// according to its language (models/ner's Routed: a model per language
// group). Run tells it the language of each line's block (View.Lang, the
// request's hint where the identifier is not sure) before it starts it.
type LangDetector interface {
	Detector
	// DetectLangs is Detect told what lang.Identify told of each line's
	// block (lines in p.Lines() order): its language (lang.Unknown where
	// the block has too few letters), how surely, and whether the
	// request's hint decided it (lang.Result.Hinted).
	DetectLangs(ctx context.Context, p *page.Page, lineLang func(line int) lang.Result) ([]page.Span, error)
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
	// Language is the request's language hint (the job's `language`; "" is
	// `auto`): the language of each block that lang.Identify cannot tell
	// surely (view.SetLangHint). Blocks it can tell keep their own.
	Language lang.Code
}

// Run runs ds on p and returns the final spans, sorted by position. The
// steps after the detectors are the registry's rules (Rules,
// engine/detect/rules; rules.Apply),
// applied in order:
//
//   - the NER model's spans start past words no entity begins with
//     ("What's", "him"; trimLeadingFunctionWords);
//   - spans of one category that overlap are merged into one covering
//     their union, with the highest score (and that detector's name);
//   - spans of different categories that overlap are all kept: recall comes
//     first, the mask is the union anyway, and the category filter must not
//     lose an Address because a model called the same words a Person;
//   - spans grow over their context: honorifics, initials and listed
//     names around a person, an organization's words, the rest of an
//     address (the grow parts of Rules);
//   - a capitalised name word that a Person span holds is masked, as a
//     Person, wherever else it stands on the page uncovered and after no
//     determiner (repeatNames);
//   - the NER model's Address spans that hold a money amount and nothing
//     only an address holds (invoice rows) are dropped (dropAmountRows);
//   - the NER model's Person spans of ordinary words that stand alone
//     ("Summary", "Charges" as table labels), and its Address spans of
//     ordinary words and numbers ("45 Closure Temporary"), are dropped
//     (dropCommonWordSpans);
//   - Person spans that are the stem of a negated verb ("Don" of "Don't")
//     are dropped;
//   - Person spans that are a known town or country after a locative
//     ("lives in London") are dropped: a place name alone is no one's
//     (dropPlaceNames);
//   - Person spans of one adjective of nationality, region, language or
//     faith ("a Dutch passenger") are dropped (dropNationalities);
//   - Person spans made only of titles ("Mr President") are dropped
//     (dropTitleOnly);
//   - Person spans are cut at the "and", "or", "&" or "und" between two
//     of their words, so that listed names stay masked and the word
//     listing them does not (splitListedNames);
//   - categories not in opts.Categories are dropped;
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
	v.SetLangHint(opts.Language)

	// Blocking detectors first, in their own goroutines.
	type result struct {
		spans []page.Span
		err   error
		name  string
	}
	var (
		wg      sync.WaitGroup
		results = make([]result, len(ds))
		langs   func(line int) lang.Result
	)
	for i, d := range ds {
		if _, ok := d.(ViewDetector); ok {
			continue
		}
		ld, byLang := d.(LangDetector)
		if byLang && langs == nil {
			langs = lineLangs(p, v)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s []page.Span
			var err error
			if byLang {
				s, err = ld.DetectLangs(ctx, p, langs)
			} else {
				s, err = d.Detect(ctx, p)
			}
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
	all, err := rules.Apply(p, v, validSpans(p, all), opts.DisabledRules)
	if err != nil {
		return nil, err
	}
	all = filterCategories(all, opts.Categories)
	if len(opts.Excluded) > 0 {
		all = dropExcluded(v, all, opts.Excluded, opts.IgnoreDiacritics)
	}
	all = append(all, view.Merge(findTerms(v, opts.Included, opts.IgnoreDiacritics, page.IncludedTerm, 1, "included-term"))...)
	view.SortSpans(all)
	return all, nil
}

// lineLangs tells the language of each line of p (p.Lines() order) from
// its block's (v.BlockLang), all told before it returns, so that a
// LangDetector may read it from its own goroutine.
func lineLangs(p *page.Page, v *View) func(line int) lang.Result {
	lines := p.Lines()
	res := make([]lang.Result, len(lines))
	for li, l := range lines {
		res[li] = v.BlockLang(v.BlockOf(l[0]))
	}
	return func(line int) lang.Result { return res[line] }
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
