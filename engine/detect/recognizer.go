package detect

import (
	"context"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/page"
)

// recognizer adapts a function over a View to Detector and ViewDetector.
type recognizer struct {
	name string
	fn   func(v *View) []page.Span
}

func (r *recognizer) Name() string { return r.name }

func (r *recognizer) Detect(ctx context.Context, p *page.Page) ([]page.Span, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.fn(PageView(p)), nil
}

func (r *recognizer) DetectView(v *View) []page.Span { return r.fn(v) }

var (
	recOnce sync.Once
	recs    []Detector
	recErr  error
)

// Recognizers returns the pattern recognizers: Email, PhoneNumber, IBAN,
// CreditCard, Date, Address, Person and Organization. They are built once
// (regular expressions compiled, gazetteers loaded) and shared; all are
// safe for concurrent use.
func Recognizers() ([]Detector, error) {
	recOnce.Do(func() {
		gz, err := gazetteer.Get()
		if err != nil {
			recErr = err
			return
		}
		recs = []Detector{
			&recognizer{"email", findEmails},
			&recognizer{"phone", findPhones},
			&recognizer{"iban", findIBANs},
			&recognizer{"credit-card", findCards},
			&recognizer{"date", findDates},
			&recognizer{"address", newAddressFinder(gz).find},
			&recognizer{"name-gazetteer", newNameFinder(gz).find},
			&recognizer{"org-legal-form", newOrgFinder(gz).find},
		}
	})
	// A copy, so that callers may append their own detectors (the NER
	// model) without writing into the shared slice.
	return slices.Clone(recs), recErr
}

// Small character helpers shared by the recognizers.

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isAlnumByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// wordCharBefore reports whether the rune ending at s[:i] is a letter or
// digit: i is then not at a word boundary.
func wordCharBefore(s string, i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWordRune(r)
}

// wordCharAt reports whether the rune starting at s[i:] is a letter or digit.
func wordCharAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWordRune(r)
}

// core returns word i of v without leading and trailing punctuation, as a
// byte range of Text.
func (v *View) core(i int) (int, int) { return int(v.cs[i]), int(v.ce[i]) }

// coreSpan is the span of words first..last (view indices) without the
// punctuation before the first and after the last.
func (v *View) coreSpan(first, last int, c page.Category, score float32, rec string) (page.Span, bool) {
	s, _ := v.core(first)
	_, e := v.core(last)
	if s >= e {
		return v.WordSpan(first, last, c, score, rec), true
	}
	return v.Span(s, e, c, score, rec)
}

// coreLower is word i's core in lower case.
func (v *View) coreLower(i int) string {
	s, e := v.core(i)
	return v.Lower[s:e]
}

// coreText is word i's core as written.
func (v *View) coreText(i int) string {
	s, e := v.core(i)
	return v.Text[s:e]
}

// isCapitalised reports whether w starts with an upper-case letter.
func isCapitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// isAllUpper reports whether w has letters and all of them are upper case.
func isAllUpper(w string) bool {
	letters := false
	for _, r := range w {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters = true
		}
	}
	return letters
}

// hasDigit reports whether s contains an ASCII digit.
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// lineContext reports whether any of words occurs (as a whole word, lower
// case) on word i's line or the line before it. Recognizers use it to
// accept weaker matches next to a label such as "Tel." or "Address:".
func (v *View) lineContext(i int, words map[string]bool) bool {
	k := v.LineOf(i)
	from, _ := v.Line(max(0, k-1))
	_, to := v.Line(k)
	for j := from; j < to; j++ {
		w := v.WordLower(j)
		if words[w] {
			return true
		}
		// Labels glued to punctuation or to the value: "tel.:", "phone:+1".
		s, e := 0, len(w)
		for s < e && !isWordByteStart(w[s]) {
			s++
		}
		t := s
		for t < e && (w[t] >= 'a' && w[t] <= 'z' || w[t] >= 0x80 || w[t] == '-') {
			t++
		}
		if t > s && words[w[s:t]] {
			return true
		}
	}
	return false
}

func isWordByteStart(b byte) bool { return b >= 'a' && b <= 'z' || b >= 0x80 }
