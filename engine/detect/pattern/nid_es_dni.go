package pattern

// dniLetters maps the remainder mod 23 of a Spanish DNI or NIE number to
// its control letter (Ministerio del Interior, Real Decreto 1553/2005).
const dniLetters = "TRWAGMYFPDXBNJZSQVHLCKE"

// validDNI checks a Spanish national identity number (DNI): eight
// digits and the letter dniLetters[n mod 23].
func validDNI(c string) bool {
	if len(c) != 9 || !allDigits(c[:8]) {
		return false
	}
	return dniLetters[atoiDigits(c[:8])%23] == c[8]
}

// validNIE checks a Spanish foreigner's identity number (NIE): X, Y or Z,
// seven digits and a letter, checked as a DNI with X, Y, Z read as 0, 1, 2.
func validNIE(c string) bool {
	if len(c) != 9 || !allDigits(c[1:8]) {
		return false
	}
	var p int
	switch c[0] {
	case 'X':
		p = 0
	case 'Y':
		p = 1
	case 'Z':
		p = 2
	default:
		return false
	}
	return dniLetters[(p*10000000+atoiDigits(c[1:8]))%23] == c[8]
}

// atoiDigits reads a string of ASCII digits (at most 18) as a number.
func atoiDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
