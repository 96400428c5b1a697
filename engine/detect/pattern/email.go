package pattern

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// FindEmails finds e-mail addresses: RFC-shaped ones ("jo@x.org", also
// glued to a label as in "Email:jo@x.org") by expanding around each '@',
// and obfuscated ones ("jo [at] x [dot] org", "jo(at)x.org",
// "jo @ x . org", and with a mail label nearby "jo dot e at x dot org").
func FindEmails(v *view.View) []page.Span {
	out := spansAround(v, "@", emailAround, page.Email, 0.95, "email")
	out = append(out, findObfuscatedEmails(v)...)
	out = append(out, findMisreadAts(v)...)
	return out
}

// misreadAts are what a recogniser reads for an '@' it misreads, seen in
// OCR of letterheads and small print ("bq(œfenwick-mills.co.uk"). None
// occurs inside a word of ordinary text, and the address around it must
// still have a valid shape.
var misreadAts = []string{"(œ", "(@", "©", "®"}

// findMisreadAts finds addresses whose '@' was read as one of
// misreadAts, glued to both its local part and its domain.
func findMisreadAts(v *view.View) []page.Span {
	var out []page.Span
	for _, at := range misreadAts {
		around := func(t string, a int) (int, int, bool) { return emailAroundAt(t, a, len(at)) }
		out = append(out, spansAround(v, at, around, page.Email, 0.85, "email-ocr")...)
	}
	return out
}

func isLocalRune(r rune) bool {
	if r < utf8.RuneSelf {
		b := byte(r)
		return view.IsAlnumByte(b) || strings.IndexByte("._%+-'!#$&*=?^`{|}~", b) >= 0
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isDomainRune(r rune) bool {
	if r < utf8.RuneSelf {
		return view.IsAlnumByte(byte(r)) || r == '.' || r == '-'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// emailAround expands the '@' at t[at] to the address around it and
// validates its shape: local part of 1-64 characters not starting or
// ending with a dot, a domain of labels with a letters-only top level.
func emailAround(t string, at int) (int, int, bool) { return emailAroundAt(t, at, 1) }

// emailAroundAt is emailAround for an at-sign of n bytes at t[at].
func emailAroundAt(t string, at, n int) (int, int, bool) {
	s := at
	for s > 0 {
		r, n := utf8.DecodeLastRuneInString(t[:s])
		if !isLocalRune(r) {
			break
		}
		s -= n
	}
	// Quotes, dots and the like are not where an address begins.
	for s < at && strings.IndexByte(".'{|}~-=?^`!#$&*%+", t[s]) >= 0 {
		s++
	}
	e := domainEnd(t, at+n)
	local, domain := t[s:at], t[at+n:e]
	if len(local) == 0 || len(local) > 64 || strings.Contains(local, "..") || local[len(local)-1] == '.' {
		return 0, 0, false
	}
	if validDomain(domain) {
		return s, e, true
	}
	if e2, ok := splitDomain(t, at+n, e); ok {
		return s, e2, true
	}
	return 0, 0, false
}

// domainEnd is the end of the run of domain runes that starts at t[d],
// trailing dots and hyphens left out (a sentence's full stop).
func domainEnd(t string, d int) int {
	e := d
	for e < len(t) {
		r, n := utf8.DecodeRuneInString(t[e:])
		if !isDomainRune(r) {
			break
		}
		e += n
	}
	for e > d && (t[e-1] == '.' || t[e-1] == '-') {
		e--
	}
	return e
}

// splitDomain joins a domain that OCR broke with a space inside a word
// ("r.featherstone@exam ple.org": small print read by the recogniser,
// which puts spaces where letters stand apart). The domain t[d:e] has no
// valid top level; when one space follows and the next word, which must
// hold a dot, completes a valid domain, the address ends after that word.
func splitDomain(t string, d, e int) (int, bool) {
	if e >= len(t) || t[e] != ' ' || e == d {
		return 0, false
	}
	e2 := domainEnd(t, e+1)
	next := t[e+1 : e2]
	if !strings.Contains(next, ".") || !validDomain(t[d:e]+next) {
		return 0, false
	}
	return e2, true
}

// validDomain checks a host name with at least two labels whose last label
// (the top-level domain) is 2-24 letters or an IDN "xn--" label.
func validDomain(d string) bool {
	if len(d) < 4 || len(d) > 253 {
		return false
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(tld, "xn--") {
		return true
	}
	n := 0
	for _, r := range tld {
		if !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	return n >= 2 && n <= 24
}

// Obfuscated addresses. Bracketed separators ("[at]", "(dot)") are
// deliberate and need no context; the bare words " at " and " dot " do.
var (
	obfBracketed = regexp.MustCompile(`([\pL\pN][\pL\pN._%+\-]*(?: ?(?:\[ ?dot ?\]|\( ?dot ?\)|\{ ?dot ?\}|<dot>) ?[\pL\pN][\pL\pN._%+\-]*)*) ?(?:\[ ?(?:at|@) ?\]|\( ?(?:at|@) ?\)|\{ ?(?:at|@) ?\}|<at>) ?([\pL\pN][\pL\pN\-]*(?:(?: ?(?:\[ ?(?:dot|\.) ?\]|\( ?(?:dot|\.) ?\)|\{ ?dot ?\}|<dot>) ?|\.)[\pL\pN][\pL\pN\-]*)+)`)
	obfWords     = regexp.MustCompile(`([\pL\pN][\pL\pN._%+\-]*(?: dot [\pL\pN][\pL\pN._%+\-]*)*) at ([\pL\pN][\pL\pN\-]*(?: dot [\pL\pN][\pL\pN\-]*)+)`)
	// obfSpaced is an address with spaces around its '@' and dots
	// ("jane @ example . com"), which the RFC-shaped scan does not expand.
	obfSpaced   = regexp.MustCompile(`([\pL\pN][\pL\pN._%+\-]*(?: \. [\pL\pN][\pL\pN_%+\-]*)*) ?@ ?([\pL\pN][\pL\pN\-]*(?:(?: \. |\.)[\pL\pN][\pL\pN\-]*)+)`)
	mailContext = gazetteer.MustWords("labels", "email")
)

func findObfuscatedEmails(v *view.View) []page.Span {
	l := v.Lower
	bracketed := hasObfAt(l)
	words := strings.Contains(l, " dot ")
	spaced := hasSpacedAt(l)
	if !bracketed && !words && !spaced {
		return nil
	}
	var out []page.Span
	for k := 0; k < v.Lines(); k++ {
		ls, le := v.LineRange(k)
		line := l[ls:le]
		if bracketed && hasObfAt(line) {
			for _, m := range obfBracketed.FindAllStringSubmatchIndex(line, -1) {
				if validObfDomain(line[m[4]:m[5]]) {
					if sp, ok := v.Span(ls+m[0], ls+m[1], page.Email, 0.85, "email-obfuscated"); ok {
						out = append(out, sp)
					}
				}
			}
		}
		if words && strings.Contains(line, " dot ") {
			for p := 0; p < len(line); {
				m := obfWords.FindStringSubmatchIndex(line[p:])
				if m == nil {
					break
				}
				for i := range m {
					m[i] += p
				}
				if strings.HasPrefix(line[m[1]:], " at ") {
					// "me at jane dot doe at example dot com": what read
					// as a domain is the local part of the address.
					p = m[4]
					continue
				}
				p = m[1]
				f := v.WordAt(ls + m[0])
				if !validObfDomain(line[m[4]:m[5]]) || !v.LineContext(f, mailContext) {
					continue
				}
				if sp, ok := v.Span(ls+m[0], ls+m[1], page.Email, 0.7, "email-obfuscated"); ok {
					out = append(out, sp)
				}
			}
		}
		if spaced && hasSpacedAt(line) {
			for _, m := range obfSpaced.FindAllStringSubmatchIndex(line, -1) {
				if !strings.Contains(line[m[0]:m[1]], " ") || !validObfDomain(line[m[4]:m[5]]) {
					continue
				}
				if sp, ok := v.Span(ls+m[0], ls+m[1], page.Email, 0.8, "email-obfuscated"); ok {
					out = append(out, sp)
				}
			}
		}
	}
	return out
}

// hasSpacedAt reports whether s holds an '@' with a space beside it.
func hasSpacedAt(s string) bool { return strings.Contains(s, " @") || strings.Contains(s, "@ ") }

// hasObfAt reports whether s holds a bracketed "at" separator.
func hasObfAt(s string) bool {
	return strings.Contains(s, "at]") || strings.Contains(s, "at)") || strings.Contains(s, "at}") ||
		strings.Contains(s, "<at>") || strings.Contains(s, "@]") || strings.Contains(s, "@)")
}

// validObfDomain checks the domain of an obfuscated address once its
// separators are turned back into dots.
func validObfDomain(d string) bool {
	r := strings.NewReplacer(" dot ", ".", "[dot]", ".", "(dot)", ".", "{dot}", ".", "<dot>", ".",
		"[ dot ]", ".", "( dot )", ".", "{ dot }", ".", "[.]", ".", "(.)", ".", " ", "")
	return validDomain(r.Replace(d))
}
