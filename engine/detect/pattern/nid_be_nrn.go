package pattern

// validBelgianNRN checks a Belgian national register number
// (rijksregisternummer / numéro de registre national, also the INSZ/NISS
// social-security number): eleven digits, YYMMDD of birth (month 00 when
// unknown; +20 or +40 for bis numbers), a serial of three, and a check of
// two: 97 - (first nine digits mod 97). For people born in 2000 or later
// the nine digits are prefixed with 2 (2000000000 + n) before the modulo.
func validBelgianNRN(c string) bool {
	if len(c) != 11 || !allDigits(c) {
		return false
	}
	month := atoiDigits(c[2:4]) % 20
	if atoiDigits(c[2:4]) > 52 || month > 12 || atoiDigits(c[4:6]) > 31 {
		return false
	}
	n := atoiDigits(c[:9])
	check := atoiDigits(c[9:])
	return check == 97-n%97 || check == 97-(2000000000+n)%97
}
