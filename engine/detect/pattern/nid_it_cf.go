package pattern

import "strings"

// Italian codice fiscale of a person (DM 23 dicembre 1976): six letters
// of surname and name, two of the year, a month letter, two of the day
// (plus 40 for women), a letter and three digits of the place, and a
// check letter. Where two people would get the same code (omocodia) the
// digits are replaced from the right by the letters L M N P Q R S T U V
// (for 0-9), so each digit place may hold one of those letters.
var (
	// cfOdd is the value of a character in an odd place, indexed by
	// alnumValue (0-9, then A-Z).
	cfOdd       = [36]int{1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23}
	cfMonths    = "ABCDEHLMPRST"
	cfOmocodia  = "LMNPQRSTUV"
	cfDigitPlcs = [...]int{6, 7, 9, 10, 12, 13, 14}
)

// validCodiceFiscale checks the layout and the check letter: characters
// in odd places (1st, 3rd, ...) count by the odd table, the others by
// their value (0-9 for a digit, 0-25 for A-Z), and the check letter is
// the sum mod 26 as a letter.
func validCodiceFiscale(c string) bool {
	if len(c) != 16 {
		return false
	}
	for i := 0; i < 16; i++ {
		if !(c[i] >= 'A' && c[i] <= 'Z' || c[i] >= '0' && c[i] <= '9') {
			return false
		}
	}
	for _, i := range [...]int{0, 1, 2, 3, 4, 5, 8, 11, 15} {
		if !IsLetterByte(c[i]) {
			return false
		}
	}
	for _, i := range cfDigitPlcs {
		if !isDigitByte(c[i]) && strings.IndexByte(cfOmocodia, c[i]) < 0 {
			return false
		}
	}
	if strings.IndexByte(cfMonths, c[8]) < 0 {
		return false
	}
	day := cfDigit(c[9])*10 + cfDigit(c[10])
	if day < 1 || day > 31 && day < 41 || day > 71 {
		return false
	}
	sum := 0
	for i := 0; i < 15; i++ {
		v, _ := alnumValue(c[i])
		switch {
		case i%2 == 0:
			sum += cfOdd[v]
		case v >= 10:
			sum += v - 10 // even places: A-Z count 0-25, as digits 0-9 do
		default:
			sum += v
		}
	}
	return byte('A'+sum%26) == c[15]
}

// cfDigit reads a digit place, undoing omocodia.
func cfDigit(c byte) int {
	if isDigitByte(c) {
		return int(c - '0')
	}
	return strings.IndexByte(cfOmocodia, c)
}
