package pattern

import (
	"sort"
	"strings"
	"sync"

	"github.com/nyaruka/phonenumbers"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// phoneRegions are the numbering plans national-format numbers are tried
// against; numbers written with +CC or 00CC are checked against their own.
var phoneRegions = []string{"US", "GB", "DE", "FR", "ES", "IT", "NL", "PT", "CA", "IN", "AU", "BR"}

// phoneContext are labels that make a merely possible number (right length
// for its plan, but not in an allocated range, or unformatted) a phone
// number when they appear on its line or the line before.
var phoneContext = gazetteer.MustWords("labels", "phone")

// notPhoneLabel are words before a number that say it is something else;
// so does the label of a person's ID (isPersonalLabel).
var notPhoneLabel = gazetteer.MustWords("labels", "not-phone")

// FindPhones scans each line for phone-shaped runs (digits with spaces,
// dots, dashes, slashes and parentheses, optionally starting with + and
// followed by an extension), drops those that are dates, year ranges,
// amounts, card numbers or thousands-grouped numbers, and keeps those that
// libphonenumber says are valid in one of phoneRegions (or possible, next
// to a phone label).
func FindPhones(v *view.View) []page.Span {
	t := v.Text
	var out []page.Span
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !view.IsDigit(c) && c != '+' && c != '(' {
			continue
		}
		if view.WordCharBefore(t, i) || i > 0 && strings.IndexByte("+.,/-", t[i-1]) >= 0 && i > 1 && view.IsDigit(t[i-2]) {
			// Inside a word or a longer number: skip the rest of it.
			for i < len(t) && (view.IsAlnumByte(t[i]) || strings.IndexByte(".,/-", t[i]) >= 0) {
				i++
			}
			continue
		}
		s, e, digits := phoneRun(t, i)
		if e <= s {
			continue
		}
		i = e - 1
		if digits < 6 || digits > 15 {
			continue
		}
		ext := phoneExtension(v.Lower, e)
		cand := t[s:e]
		if notPhone(t, s, e, cand) {
			continue
		}
		if w := v.WordAt(s); w > 0 && v.LineOf(w-1) == v.LineOf(w) && (notPhoneLabel[strings.TrimSuffix(v.CoreLower(w-1), ".")] || isPersonalLabel(v.CoreText(w-1))) {
			continue
		}
		score, labelled := phoneScore(v, s, cand, phoneLabelBefore(v, s, e))
		if score == 0 || isThousands(cand) && !(labelled && score >= 0.6) {
			// Digits grouped by threes are an amount ("12 345 678")
			// unless a phone label says otherwise and the plan agrees
			// ("Teléfono: 912 345 678").
			continue
		}
		if sp, ok := v.Span(s, e+ext, page.PhoneNumber, score, "phone"); ok {
			out = append(out, sp)
		}
		i = e + ext - 1
	}
	return out
}

// phoneRun returns the phone-shaped run starting at t[i] and its digit
// count. Separators (one space, '-', '.', '/') must sit between digits or
// brackets; the run never crosses a line break.
func phoneRun(t string, i int) (s, e, digits int) {
	s = i
	j := i
	if t[j] == '+' {
		if j+1 >= len(t) || !view.IsDigit(t[j+1]) {
			return 0, 0, 0
		}
		j++
	}
	open := 0
	lastDigit := s
scan:
	for j < len(t) && digits <= 17 {
		c := t[j]
		switch {
		case view.IsDigit(c):
			digits++
			lastDigit = j + 1
		case c == '(' && open == 0 && j+1 < len(t) && (view.IsDigit(t[j+1]) || t[j+1] == '+'):
			open++
		case c == ')' && open > 0 && view.IsDigit(t[j-1]):
			open--
			lastDigit = j + 1
		case (c == ' ' || c == '-' || c == '.' || c == '/') && j+1 < len(t) &&
			(view.IsDigit(t[j+1]) || t[j+1] == '(') && (view.IsDigit(t[j-1]) || t[j-1] == ')'):
		default:
			break scan
		}
		j++
	}
	e = lastDigit
	// An opening bracket never closed belongs to the text, not the number.
	if strings.Count(t[s:e], "(") != strings.Count(t[s:e], ")") {
		if t[s] == '(' && strings.Count(t[s:e], "(") == strings.Count(t[s:e], ")")+1 {
			s++
		} else {
			return 0, 0, 0
		}
	}
	// A run must end where a word ends: "12345678abc" is a reference.
	if view.WordCharAt(t, e) && !(e < len(t) && (t[e] == 'x' || t[e] == 'X') && e+1 < len(t) && view.IsDigit(t[e+1])) {
		return 0, 0, 0
	}
	return s, e, digits
}

var extPrefixes = []string{"extension", "ext.", "ext", "x", "#", "poste", "durchwahl", "dw", "int."}

// phoneExtension returns the length of an extension ("x818", " ext. 12",
// " #123") starting at l[e:], or 0.
func phoneExtension(l string, e int) int {
	j := e
	if j < len(l) && l[j] == ' ' {
		j++
	}
	rest := l[j:min(len(l), j+14)]
	for _, p := range extPrefixes {
		if !strings.HasPrefix(rest, p) {
			continue
		}
		k := j + len(p)
		if k < len(l) && l[k] == ' ' && (p != "x" || j > e) {
			// "ext. 12", and "x 42" when the x stands apart from the number.
			k++
		}
		d := k
		for d < len(l) && d-k < 6 && view.IsDigit(l[d]) {
			d++
		}
		if d == k || view.WordCharAt(l, d) {
			return 0
		}
		return d - e
	}
	return 0
}

// notPhone rejects runs of the right length that are something else.
func notPhone(t string, s, e int, cand string) bool {
	// A clock time follows: "2021-03-04 14:56" made the run swallow "14".
	if e < len(t) && t[e] == ':' {
		return true
	}
	for _, part := range strings.Split(cand, " ") {
		if _, ok := parseNumericDate(part); ok {
			return true
		}
	}
	if isYearRange(cand) {
		return true
	}
	// Amounts: a currency sign or code, or a percent sign, next to it.
	before := strings.TrimRight(t[max(0, s-4):s], " ")
	if strings.HasSuffix(before, "$") || strings.HasSuffix(before, "€") || strings.HasSuffix(before, "£") || strings.HasSuffix(before, "¥") {
		return true
	}
	after := strings.TrimLeft(t[e:min(len(t), e+5)], " ")
	for _, c := range []string{"€", "$", "£", "%", "EUR", "USD", "GBP", "CHF"} {
		if strings.HasPrefix(after, c) {
			return true
		}
	}
	d := phonenumbers.NormalizeDigitsOnly(cand)
	// A card number is never written after a "+" ("+49 (0)89 441053-45"
	// reads as a 13-digit Visa number).
	if len(d) >= 13 && cand[0] != '+' && isCardNumber(d) {
		return true
	}
	return false
}

// isYearRange matches "1990-2000" and "1990 - 2000".
func isYearRange(c string) bool {
	c = strings.ReplaceAll(c, " ", "")
	if len(c) != 9 || (c[4] != '-' && c[4] != '/') {
		return false
	}
	y := func(s string) bool { return (s[:2] == "19" || s[:2] == "20") && AllDigits(s) }
	return y(c[:4]) && y(c[5:])
}

// isThousands matches numbers grouped by threes with dots or spaces as
// thousands separators: "1.234.567", "12 345 678".
func isThousands(c string) bool {
	for _, sep := range []string{".", " "} {
		parts := strings.Split(c, sep)
		if len(parts) < 3 || len(parts[0]) > 3 || !AllDigits(parts[0]) {
			continue
		}
		ok := true
		for _, p := range parts[1:] {
			if len(p) != 3 || !AllDigits(p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func AllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !view.IsDigit(s[i]) {
			return false
		}
	}
	return true
}

// phoneScore validates a candidate and scores it; 0 rejects it. ctx
// tells whether a phone label stands on its line or the line before.
// near says one stands right before the number (phoneLabelBefore): then a
// number no plan of phoneRegions allows is tried against every plan
// libphonenumber knows, in whatever grouping it is written ("Mobile: 723
// 813 266", "answering at 516 466 638": nine-digit plans of Poland, the
// Czech Republic, Portugal...).
func phoneScore(v *view.View, s int, cand string, near bool) (score float32, ctx bool) {
	digits := phonenumbers.NormalizeDigitsOnly(cand)
	formatted := len(digits) != len(cand)
	ctx = near || v.LineContext(v.WordAt(s), phoneContext) || emailOnLine(v, v.WordAt(s))
	if len(digits) < 7 && !ctx {
		return 0, ctx
	}
	var valid, possible bool
	switch {
	case cand[0] == '+':
		// "+49 (0)89 …": the trunk prefix in brackets is not dialled
		// from abroad.
		valid, possible = checkPhone("+"+phonenumbers.NormalizeDigitsOnly(strings.Replace(cand, "(0)", "", 1)), "ZZ")
	case strings.HasPrefix(digits, "00") && len(digits) > 9:
		valid, possible = checkPhone("+"+digits[2:], "ZZ")
	case strings.HasPrefix(digits, "011") && len(digits) > 10:
		valid, possible = checkPhone("+"+digits[3:], "ZZ")
	}
	if !valid {
		for _, r := range phoneRegions {
			if !plausible(r, digits) {
				continue
			}
			va, po := checkPhone(digits, r)
			valid = valid || va
			possible = possible || po
			if valid {
				break
			}
		}
	}
	if !valid && !possible && near && cand[0] != '+' && len(digits) >= 7 {
		possible = possibleAnywhere(digits)
	}
	switch {
	case valid && ctx:
		return 0.9, ctx
	case valid && formatted:
		return 0.8, ctx
	case possible && ctx:
		return 0.6, ctx
	case ctx && formatted && !groupedLikeAmount(cand):
		// Local and foreign numbers outside our numbering plans
		// ("785 8949", "(88) 684-334") next to a phone label.
		return 0.5, ctx
	}
	return 0, ctx
}

// emailOnLine reports whether an e-mail address stands on the line of
// word w: a line of contact details ("Consultas: ana@example.es o 933 791
// 251", "Contact: bob@example.com, 020 7946 0958"), where a number written
// like an amount is the phone number beside the address.
func emailOnLine(v *view.View, w int) bool {
	if w < 0 {
		return false
	}
	from, to := v.Line(v.LineOf(w))
	for j := from; j < to; j++ {
		l := v.WordLower(j)
		if at := strings.IndexByte(l, '@'); at > 0 && strings.Contains(l[at:], ".") {
			return true
		}
	}
	return false
}

// phoneLabelBefore reports whether a phone label stands within the three
// words before the number [s, e) on its line ("Mobile: 723 813 266",
// "call me on 516 466 638"), or "at" right before it after a word of
// contact ("not answering at 516 466 638", "reach me at ...") when no
// amount word follows the number ("at 12 345 678 each"). "Estimated at
// 516 466 638" has no contact word: it stays an amount.
func phoneLabelBefore(v *view.View, s, e int) bool {
	w := v.WordAt(s)
	if w <= 0 {
		return false
	}
	line := v.LineOf(w)
	for k := w - 1; k >= 0 && k >= w-3 && v.LineOf(k) == line; k-- {
		l := strings.TrimSuffix(v.CoreLower(k), ".")
		if phoneContext[l] {
			return true
		}
		if k == w-1 && l == "at" {
			if !contactBefore(v, k) {
				return false
			}
			last := v.WordAt(e - 1)
			if last+1 < v.Len() && v.LineOf(last+1) == line && amountAfter[strings.TrimSuffix(v.CoreLower(last+1), ".")] {
				return false
			}
			return !IsAmount(v.CoreText(w))
		}
	}
	return false
}

// contactBefore reports whether a phone label or a word of contact
// stands within the three words before word at on its line.
func contactBefore(v *view.View, at int) bool {
	for k := at - 1; k >= 0 && k >= at-3 && v.LineOf(k) == v.LineOf(at); k-- {
		l := strings.TrimSuffix(v.CoreLower(k), ".")
		if phoneContext[l] || contactWords[l] {
			return true
		}
	}
	return false
}

// contactWords before "at" make the number after it a phone number.
var contactWords = gazetteer.MustWords("context", "contact")

// amountAfter are words after a number that make it a quantity or price.
var amountAfter = gazetteer.MustWords("context", "amount-after")

// possibleAnywhere reports whether digits, in national format, have a
// length some numbering plan allows (libphonenumber's "possible number"
// in any region it knows). Only asked next to a phone label.
func possibleAnywhere(digits string) bool {
	for _, r := range allRegions() {
		if _, possible := checkPhone(digits, r); possible {
			return true
		}
	}
	return false
}

// allRegions are libphonenumber's regions in a fixed order.
var allRegions = sync.OnceValue(func() []string {
	var out []string
	for r := range phonenumbers.GetSupportedRegions() {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
})

// groupedLikeAmount matches "100 000" and "12.500": digits grouped by
// threes after the first group, as amounts are written.
func groupedLikeAmount(c string) bool {
	for _, sep := range []string{".", " ", ","} {
		parts := strings.Split(c, sep)
		if len(parts) < 2 || len(parts[0]) > 3 || !AllDigits(parts[0]) {
			continue
		}
		ok := true
		for _, p := range parts[1:] {
			ok = ok && len(p) == 3 && AllDigits(p)
		}
		if ok {
			return true
		}
	}
	return false
}

// plausible is a cheap check that digits could be a national-format
// number of region r, to spare libphonenumber's slow parser the rest.
func plausible(r, d string) bool {
	n := len(d)
	switch r {
	case "US", "CA":
		if n == 11 && d[0] == '1' {
			d, n = d[1:], 10
		}
		return n == 10 && d[0] >= '2' || n == 7 && d[0] >= '2'
	case "GB":
		return d[0] == '0' && (n == 10 || n == 11)
	case "DE":
		return d[0] == '0' && d[1] != '0' && n >= 6 && n <= 13
	case "FR":
		return d[0] == '0' && d[1] != '0' && n == 10
	case "ES":
		return n == 9 && d[0] >= '6'
	case "IT":
		return d[0] == '0' && n >= 6 && n <= 11 || d[0] == '3' && (n == 9 || n == 10)
	case "NL":
		return d[0] == '0' && n == 10
	case "PT":
		return n == 9 && (d[0] == '2' || d[0] == '9')
	case "IN":
		return n == 10 && d[0] >= '6' || d[0] == '0' && n == 11
	case "AU":
		return d[0] == '0' && n == 10 || n == 8 && d[0] >= '2'
	case "BR":
		return (n == 10 || n == 11) && d[0] != '0' || d[0] == '0' && (n == 11 || n == 12)
	}
	return false
}

// phoneCache remembers libphonenumber's verdicts: documents repeat their
// numbers (letterheads, footers) and each verdict costs ~20 µs.
var phoneCache struct {
	sync.Mutex
	m map[string]uint8
}

const phoneCacheMax = 1 << 14

func checkPhone(num, region string) (valid, possible bool) {
	key := region + num
	phoneCache.Lock()
	r, ok := phoneCache.m[key]
	phoneCache.Unlock()
	if !ok {
		if n, err := phonenumbers.Parse(num, region); err == nil {
			if phonenumbers.IsValidNumber(n) {
				r |= 1
			}
			if phonenumbers.IsPossibleNumber(n) {
				r |= 2
			}
		}
		phoneCache.Lock()
		if phoneCache.m == nil || len(phoneCache.m) >= phoneCacheMax {
			phoneCache.m = make(map[string]uint8)
		}
		phoneCache.m[key] = r
		phoneCache.Unlock()
	}
	return r&1 != 0, r&2 != 0
}
