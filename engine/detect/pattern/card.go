package pattern

import (
	"strconv"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// FindCards finds payment card numbers: 12-19 digits, compact or in
// groups separated by one kind of separator (space or dash), that pass
// the Luhn check and fall in an issuer's range with one of its lengths.
func FindCards(v *view.View) []page.Span {
	t := v.Text
	var out []page.Span
	var buf [24]byte
	for i := 0; i < len(t); i++ {
		if !view.IsDigit(t[i]) {
			continue
		}
		if view.WordCharBefore(t, i) || i > 1 && (t[i-1] == '.' || t[i-1] == ',' || t[i-1] == '-') && view.IsDigit(t[i-2]) {
			for i < len(t) && (view.IsDigit(t[i]) || IsLetterByte(t[i])) {
				i++
			}
			continue
		}
		start, n, j := i, 0, i
		var sep byte
		for j < len(t) && n < len(buf) {
			c := t[j]
			if view.IsDigit(c) {
				buf[n] = c
				n++
				j++
				continue
			}
			if (c == ' ' || c == '-') && (sep == 0 || sep == c) && j+1 < len(t) && view.IsDigit(t[j+1]) {
				sep = c
				j++
				continue
			}
			break
		}
		end := j
		i = end - 1
		if n < 12 || n > 19 || view.WordCharAt(t, end) || end < len(t) && (t[end] == '.' || t[end] == ',') && end+1 < len(t) && view.IsDigit(t[end+1]) {
			continue
		}
		if !isCardNumber(string(buf[:n])) {
			continue
		}
		if sp, ok := v.Span(start, end, page.CreditCard, 0.9, "credit-card"); ok {
			out = append(out, sp)
		}
	}
	return out
}

// isCardNumber checks the issuer ranges and lengths and the Luhn digit.
func isCardNumber(d string) bool {
	return cardIssuer(d) != "" && luhn(d)
}

// cardIssuer names the scheme whose ranges and lengths d fits, or "".
func cardIssuer(d string) string {
	n := len(d)
	p := func(k int) int {
		if k > n {
			return -1
		}
		v, _ := strconv.Atoi(d[:k])
		return v
	}
	switch {
	case d[0] == '4' && (n == 13 || n == 16 || n == 19):
		return "visa"
	case (p(2) >= 51 && p(2) <= 55 || p(4) >= 2221 && p(4) <= 2720) && n == 16:
		return "mastercard"
	case (p(2) == 34 || p(2) == 37) && n == 15:
		return "amex"
	case (p(4) == 6011 || p(3) >= 644 && p(3) <= 649 || p(2) == 65 || p(6) >= 622126 && p(6) <= 622925) && n >= 16 && n <= 19:
		return "discover"
	case p(4) >= 3528 && p(4) <= 3589 && n >= 16 && n <= 19:
		return "jcb"
	case (p(3) >= 300 && p(3) <= 305 || p(4) == 3095 || p(2) == 36 || p(2) == 38 || p(2) == 39) && n >= 14 && n <= 19:
		return "diners"
	case p(2) == 62 && n >= 16 && n <= 19:
		return "unionpay"
	case (p(4) == 5018 || p(4) == 5020 || p(4) == 5038 || p(4) == 5893 || p(4) == 6304 || p(4) == 6759 ||
		p(4) == 6761 || p(4) == 6762 || p(4) == 6763 || p(2) == 50 || p(2) >= 56 && p(2) <= 69) && n >= 12 && n <= 19:
		return "maestro"
	}
	return ""
}

// luhn is the mod-10 check digit test of ISO/IEC 7812.
func luhn(d string) bool {
	sum, dbl := 0, false
	for i := len(d) - 1; i >= 0; i-- {
		c := int(d[i] - '0')
		if c < 0 || c > 9 {
			return false
		}
		if dbl {
			c *= 2
			if c > 9 {
				c -= 9
			}
		}
		sum += c
		dbl = !dbl
	}
	return sum%10 == 0
}
