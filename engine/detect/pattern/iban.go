package pattern

import (
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// ibanLengths is the length of an IBAN in each country that issues them
// (SWIFT IBAN registry).
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
	"IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
	"LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
	"NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
	"RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
	"SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

func IsLetterByte(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func upperByte(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// FindIBANs finds IBANs written compactly or in groups of four separated
// by single spaces, in any letter case: a known country code, the
// country's length and the ISO 7064 mod-97 check.
func FindIBANs(v *view.View) []page.Span {
	t := v.Text
	var out []page.Span
	for i := 0; i+4 <= len(t); i++ {
		if !IsLetterByte(t[i]) || !IsLetterByte(t[i+1]) || !view.IsDigit(t[i+2]) || !view.IsDigit(t[i+3]) || view.WordCharBefore(t, i) {
			continue
		}
		n, ok := ibanLengths[string([]byte{upperByte(t[i]), upperByte(t[i+1])})]
		if !ok {
			continue
		}
		e, ok := ibanRun(t, i, n)
		if !ok {
			continue
		}
		if sp, ok := v.Span(i, e, page.IBAN, 0.95, "iban"); ok {
			out = append(out, sp)
		}
		i = e - 1
	}
	return out
}

// ibanRun collects n alphanumerics from t[i:], allowing one space (or
// dash) between any two of them after the country code and checks what it
// collected; it returns the end of the IBAN in t. Groups are usually of
// four, but OCR splits and joins them where the print's spacing misleads
// it ("NL91 ABNA 04171 64300"); the exact length and the mod-97 check keep
// the looser grouping from matching anything else.
func ibanRun(t string, i, n int) (int, bool) {
	var buf [34]byte
	k := 0
	j := i
	for j < len(t) && k < n {
		c := t[j]
		switch {
		case view.IsAlnumByte(c):
			buf[k] = upperByte(c)
			k++
			j++
		case (c == ' ' || c == '-') && k >= 4 && j+1 < len(t) && view.IsAlnumByte(t[j+1]) && view.IsAlnumByte(t[j-1]):
			j++
		default:
			return 0, false
		}
	}
	if k != n || view.WordCharAt(t, j) {
		return 0, false
	}
	return j, ibanChecksum(buf[:n])
}

// ibanChecksum is the mod-97 check of ISO 13616: move the first four
// characters to the end, read letters as 10..35, and the number must be
// 1 modulo 97. The BBAN must be alphanumeric with digits after the check.
func ibanChecksum(s []byte) bool {
	for _, c := range s[2:4] {
		if !view.IsDigit(c) {
			return false
		}
	}
	rem := 0
	add := func(c byte) bool {
		switch {
		case view.IsDigit(c):
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A'+10)) % 97
		default:
			return false
		}
		return true
	}
	for _, c := range s[4:] {
		if !add(c) {
			return false
		}
	}
	for _, c := range s[:4] {
		add(c)
	}
	return rem == 1
}
