package pattern

import "strings"

// idCardAlphabet is the alphabet of the German identity card's document
// number since November 2010 (Personalausweisverordnung): digits and the
// consonants that cannot be confused with a digit.
const idCardAlphabet = "0123456789CFGHJKLMNPRTVWXYZ"

// validIDCard checks a German identity card (Personalausweis) number as
// the machine-readable zone writes it: nine characters and a check digit
// computed as in ICAO 9303 (values 0-9 for digits, 10-35 for A-Z, weights
// 7, 3, 1 repeating, sum mod 10). One random 10-character code in ten
// passes the check, so a bare number must also look like the card's
// number: first a letter of the alphabet, every character from it, and a
// digit among the nine (older all-digit numbers are masked after a label).
func validIDCard(c string) bool {
	if len(c) != 10 || !mrzCheckOK(c) {
		return false
	}
	if !strings.ContainsRune(idCardAlphabet[10:], rune(c[0])) {
		return false
	}
	for i := 0; i < 9; i++ {
		if !strings.ContainsRune(idCardAlphabet, rune(c[i])) {
			return false
		}
	}
	return strings.ContainsAny(c[1:9], "0123456789")
}

// mrzCheckOK checks the last character of c as the ICAO 9303 check digit
// of the others.
func mrzCheckOK(c string) bool {
	n := len(c) - 1
	if n < 1 || !isDigitByte(c[n]) {
		return false
	}
	weights := [3]int{7, 3, 1}
	sum := 0
	for i := 0; i < n; i++ {
		v, ok := alnumValue(c[i])
		if !ok {
			return false
		}
		sum += v * weights[i%3]
	}
	return sum%10 == int(c[n]-'0')
}

// alnumValue is 0-9 for a digit and 10-35 for an upper-case letter.
func alnumValue(b byte) (int, bool) {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0'), true
	case b >= 'A' && b <= 'Z':
		return int(b-'A') + 10, true
	}
	return 0, false
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }
