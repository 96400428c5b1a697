// Package eval measures detectors against labelled text at word level:
// per category and overall precision, recall and F2 (recall weighted
// twice as much as precision, because a missed name leaks and an extra
// mask only costs readability).
//
// The labelled data is Microsoft presidio-research's synthetic corpus
// (generated_large.json); LoadPresidio maps its entity types to redactd's
// categories (see PresidioCategories). Words inside entities of other
// types (LOCATION, US_SSN, ...) are left out of the counts: masking them is
// neither asked for nor harmful.
//
// The pattern recognizers alone are strong on the validated categories
// (Email, PhoneNumber, IBAN, CreditCard, Date) and weak on Person,
// Organization and Address, which need the NER model (models/ner); its
// detector is evaluated the same way by adding it to the detector list.
package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/page"
)

// PresidioCategories maps presidio-research entity types to categories.
// Types not listed (LOCATION, US_SSN, US_DRIVER_LICENSE, DOMAIN_NAME,
// IP_ADDRESS, TITLE, PREFIX, NRP, ...) are ignored: their words count
// neither for nor against a detector.
var PresidioCategories = map[string]page.Category{
	"PERSON":         page.Person,
	"EMAIL_ADDRESS":  page.Email,
	"PHONE_NUMBER":   page.PhoneNumber,
	"ADDRESS":        page.Address,
	"STREET_ADDRESS": page.Address,
	"ORGANIZATION":   page.Organization,
	"DATE_TIME":      page.Date,
	"IBAN_CODE":      page.IBAN,
	"CREDIT_CARD":    page.CreditCard,
}

// Record is one labelled text.
type Record struct {
	Text  string
	Spans []Gold
	// Doc names the document the record comes from (a file, and the
	// document's number in it), for Pages; "" when unknown.
	Doc string
}

// Gold is a labelled entity: bytes [Start, End) of the record's text, of
// Category, or ignored when Category is "".
type Gold struct {
	Start, End int
	Type       string
	Category   page.Category
}

type presidioRecord struct {
	FullText string `json:"full_text"`
	Spans    []struct {
		EntityType string `json:"entity_type"`
		Start      int    `json:"start_position"`
		End        int    `json:"end_position"`
	} `json:"spans"`
}

// LoadPresidio reads a presidio-research JSON file (a list of records
// with full_text and spans whose positions count characters).
func LoadPresidio(path string) ([]Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	var raw []presidioRecord
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", path, err)
	}
	out := make([]Record, 0, len(raw))
	for i, r := range raw {
		byteAt := runeOffsets(r.FullText)
		rec := Record{Text: r.FullText}
		for _, s := range r.Spans {
			if s.Start < 0 || s.End < s.Start || s.End >= len(byteAt) {
				return nil, fmt.Errorf("eval: %s: record %d: span %d-%d outside text", path, i, s.Start, s.End)
			}
			rec.Spans = append(rec.Spans, Gold{Start: byteAt[s.Start], End: byteAt[s.End], Type: s.EntityType, Category: PresidioCategories[s.EntityType]})
		}
		out = append(out, rec)
	}
	return out, nil
}

// runeOffsets maps each character index of s (and len) to its byte offset.
func runeOffsets(s string) []int {
	out := make([]int, 0, utf8.RuneCountInString(s)+1)
	for i := range s {
		out = append(out, i)
	}
	return append(out, len(s))
}

// Counts are word-level outcomes.
type Counts struct{ TP, FP, FN int }

// Precision is TP/(TP+FP), 0 when nothing was predicted.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP/(TP+FN), 0 when nothing was to be found.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// F2 is the F-beta score with beta 2.
func (c Counts) F2() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 5 * p * r / (4*p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (c *Counts) add(o Counts) { c.TP += o.TP; c.FP += o.FP; c.FN += o.FN }

// Report is the outcome of an evaluation.
type Report struct {
	Detectors  []string
	Categories []page.Category // the categories counted
	Records    int
	Words      int // words counted (ignored ones left out)
	Ignored    int // words inside entities of unmapped types
	// PerCategory counts a word as TP for c when it is gold c and some
	// span of c covers it, FP when a span of c covers it and it is not
	// gold c, FN when it is gold c and no span of c covers it.
	PerCategory map[page.Category]Counts
	// Micro sums PerCategory.
	Micro Counts
	// Masking ignores categories: was a PII word masked at all, and was a
	// masked word PII? This is what a redacted page shows.
	Masking Counts
	// Elapsed is the wall time spent detecting (pages run concurrently),
	// for information only.
	Elapsed time.Duration
	// Misses and FalseHits hold a few examples per category for tuning
	// (filled when Options.Examples > 0).
	Misses, FalseHits map[page.Category][]string
}

// Options tune Evaluate.
type Options struct {
	// Examples is how many missed and false words to keep per category.
	Examples int
	// Categories limits the counts to the categories the corpus labels
	// (CoNLL has no dates); nil counts all.
	Categories []page.Category
	// DisabledRules are passed to detect.Run (ablation).
	DisabledRules []string
}

// Evaluate runs ds on every record, through detect.Run with all
// categories, and counts words.
func Evaluate(ctx context.Context, ds []detect.Detector, recs []Record, o Options) (Report, error) {
	cats := page.Categories
	if o.Categories != nil {
		cats = o.Categories
	}
	rep := Report{Records: len(recs), PerCategory: map[page.Category]Counts{}, Categories: cats,
		Misses: map[page.Category][]string{}, FalseHits: map[page.Category][]string{}}
	for _, d := range ds {
		rep.Detectors = append(rep.Detectors, d.Name())
	}
	// Pages are detected concurrently (the NER model batches them), then
	// counted in record order, so the examples kept are the same.
	runs := make([][]page.Span, len(recs))
	pages := make([]*page.Page, len(recs))
	offsets := make([][]int, len(recs))
	t0 := time.Now()
	err := parallel(ctx, len(recs), func(i int) error {
		p, offs := detect.PageFromText(recs[i].Text)
		spans, err := detect.Run(ctx, p, ds, detect.Options{Categories: cats, DisabledRules: o.DisabledRules})
		pages[i], offsets[i], runs[i] = p, offs, spans
		return err
	})
	rep.Elapsed = time.Since(t0)
	if err != nil {
		return rep, err
	}
	for ri, r := range recs {
		p, offs, spans := pages[ri], offsets[ri], runs[ri]
		pred := make([][]page.Category, len(p.Words))
		for _, s := range spans {
			for w := s.First; w <= s.Last; w++ {
				if !slices.Contains(pred[w], s.Category) {
					pred[w] = append(pred[w], s.Category)
				}
			}
		}
		for w, word := range p.Words {
			gold, ignored := goldOf(r.Spans, offs[w], offs[w]+len(word.Text))
			if ignored {
				rep.Ignored++
				continue
			}
			rep.Words++
			for _, c := range cats {
				hit := slices.Contains(pred[w], c)
				var cnt Counts
				switch {
				case gold == c && hit:
					cnt.TP = 1
				case gold == c:
					cnt.FN = 1
					rep.example(rep.Misses, c, o, r.Text, offs[w], len(word.Text))
				case hit:
					cnt.FP = 1
					rep.example(rep.FalseHits, c, o, r.Text, offs[w], len(word.Text))
				default:
					continue
				}
				pc := rep.PerCategory[c]
				pc.add(cnt)
				rep.PerCategory[c] = pc
				rep.Micro.add(cnt)
			}
			masked := len(pred[w]) > 0
			switch {
			case gold != "" && masked:
				rep.Masking.TP++
			case gold != "":
				rep.Masking.FN++
			case masked:
				rep.Masking.FP++
				rep.example(rep.FalseHits, OverRedacted, o, r.Text, offs[w], len(word.Text))
			}
		}
	}
	return rep, nil
}

func (r *Report) example(m map[page.Category][]string, c page.Category, o Options, text string, off, n int) {
	if len(m[c]) >= o.Examples {
		return
	}
	s, e := max(0, off-30), min(len(text), off+n+30)
	for s > 0 && !utf8.RuneStart(text[s]) {
		s--
	}
	for e < len(text) && !utf8.RuneStart(text[e]) {
		e++
	}
	m[c] = append(m[c], strings.ReplaceAll(text[s:off]+"[["+text[off:off+n]+"]]"+text[off+n:e], "\n", "⏎"))
}

// goldOf returns the category of the gold span overlapping [s, e), and
// whether the word lies in an ignored entity only.
func goldOf(spans []Gold, s, e int) (page.Category, bool) {
	ignored := false
	for _, g := range spans {
		if g.Start < e && s < g.End {
			if g.Category != "" {
				return g.Category, false
			}
			ignored = true
		}
	}
	return "", ignored
}

// OverRedacted keys, in Report.FalseHits, the examples of plain words
// masked under any category.
const OverRedacted page.Category = "(plain word)"

// OverRedaction is the share of plain words (no gold category) that were
// masked.
func (r Report) OverRedaction() float64 {
	return ratio(r.Masking.FP, r.Words-r.Masking.TP-r.Masking.FN)
}

// Markdown renders the report as a table.
func (r Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Detectors: %s. Records: %d, words counted: %d (ignored: %d).\n\n", strings.Join(r.Detectors, ", "), r.Records, r.Words, r.Ignored)
	b.WriteString("| category | gold words | TP | FP | FN | precision | recall | F2 |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, c Counts) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %.3f | %.3f | %.3f |\n", name, c.TP+c.FN, c.TP, c.FP, c.FN, c.Precision(), c.Recall(), c.F2())
	}
	for _, c := range r.Categories {
		row(string(c), r.PerCategory[c])
	}
	row("**all (micro)**", r.Micro)
	row("**masking (any category)**", r.Masking)
	return b.String()
}
