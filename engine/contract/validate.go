package contract

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
)

// Field names of the redaction options, as the interface spells them.
// Errors name these, with an index for one term ("pii_included_terms[3]").
const (
	FieldCategories = "pii_categories"
	FieldIncluded   = "pii_included_terms"
	FieldExcluded   = "pii_excluded_terms"
)

// MaxTermRunes bounds one included or excluded term, in characters (runes)
// after trimming, as docs/behaviour.md promises: 256 accented letters are as
// acceptable as 256 ASCII ones.
const MaxTermRunes = 256

// Limits are the configurable bounds the request rules apply
// (Options.Validate, and the file rules of request.go). Each is
// required: a zero bound refuses rather than allowing unbounded input.
type Limits struct {
	// MaxTerms is the most entries in each term list.
	MaxTerms int
	// MaxFiles is the most files in one job.
	MaxFiles int
	// MaxFileBytes is the largest file, in bytes.
	MaxFileBytes int64
}

// FieldError is a caller error in one request field: Field names it
// ("pii_categories", "pii_included_terms[3]") and Msg says what is wrong.
// Msg never holds a term, since terms are often personal data; an unknown
// category name is echoed, cut short, because it is a label, not content.
// The HTTP layer, the admin CLI and the engine map it by type: an invalid
// request (400), or, with TooLarge, a file announced larger than the
// limit (413).
type FieldError struct {
	Field    string
	Msg      string
	TooLarge bool
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Validate is the one set of rules for redaction options, shared by the
// HTTP layer, the admin CLI and the engine so a request cannot pass one
// and fail the other. It checks categories (known names; duplicates
// dropped, order kept) and each term list (at most lim.MaxTerms entries;
// each valid UTF-8, free of control characters, not blank and at most
// MaxTermRunes characters once trimmed), and the language hint
// (CheckLanguage; "auto" becomes ""), and returns the options with terms
// trimmed. A nil list stays nil ("not given": the account default
// applies); an empty list stays empty ("none"). The error is a
// *FieldError.
func (o Options) Validate(lim Limits) (Options, error) {
	var err error
	if o.Categories, err = validateCategories(o.Categories); err != nil {
		return Options{}, err
	}
	if o.Included, err = validateTerms(FieldIncluded, o.Included, lim.MaxTerms); err != nil {
		return Options{}, err
	}
	if o.Excluded, err = validateTerms(FieldExcluded, o.Excluded, lim.MaxTerms); err != nil {
		return Options{}, err
	}
	if o.Language != "" {
		if o.Language, err = CheckLanguage(o.Language); err != nil {
			return Options{}, err
		}
	}
	return o, nil
}

func validateCategories(cats []page.Category) ([]page.Category, error) {
	if cats == nil {
		return nil, nil
	}
	out := make([]page.Category, 0, min(len(cats), len(page.Categories)))
	for _, c := range cats {
		pc, ok := page.ParseCategory(string(c))
		if !ok {
			return nil, &FieldError{Field: FieldCategories, Msg: fmt.Sprintf("unknown category %s (known: %s)", QuoteName(string(c), 40), categoryList())}
		}
		if !containsCategory(out, pc) {
			out = append(out, pc)
		}
	}
	return out, nil
}

func containsCategory(cats []page.Category, c page.Category) bool {
	for _, x := range cats {
		if x == c {
			return true
		}
	}
	return false
}

// validateTerms checks one term list and returns it trimmed. Control
// characters are looked for before trimming, so a term ending in a
// newline is refused rather than silently changed.
func validateTerms(field string, terms []string, max int) ([]string, error) {
	if terms == nil {
		return nil, nil
	}
	if len(terms) > max {
		return nil, &FieldError{Field: field, Msg: fmt.Sprintf("at most %d terms", max)}
	}
	out := make([]string, len(terms))
	for i, t := range terms {
		if msg := termProblem(t); msg != "" {
			return nil, &FieldError{Field: fmt.Sprintf("%s[%d]", field, i), Msg: msg}
		}
		out[i] = strings.TrimSpace(t)
	}
	return out, nil
}

// termProblem says what is wrong with one term, or "" when nothing is.
func termProblem(t string) string {
	switch {
	case !utf8.ValidString(t):
		return "not valid UTF-8"
	case strings.IndexFunc(t, unicode.IsControl) >= 0:
		return "contains control characters"
	}
	t = strings.TrimSpace(t)
	switch {
	case t == "":
		return "empty term"
	case utf8.RuneCountInString(t) > MaxTermRunes:
		return fmt.Sprintf("longer than %d characters", MaxTermRunes)
	}
	return ""
}

// QuoteName quotes a caller-supplied name for an error message, cut to
// max bytes on a rune boundary so a hostile name cannot bloat the answer.
// Invalid UTF-8 becomes "_".
func QuoteName(s string, max int) string {
	s = strings.ToValidUTF8(s, "_")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

func categoryList() string {
	names := make([]string, len(page.Categories))
	for i, c := range page.Categories {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}
