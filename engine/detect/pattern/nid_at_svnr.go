package pattern

// validAustrianSVNR checks an Austrian social-security number
// (Versicherungsnummer): a serial of three digits (not starting with 0),
// a check digit, and the birth date DDMMYY. The check is the sum of the
// other nine digits weighted 3, 7, 9, 5, 8, 4, 2, 1, 6, mod 11; a serial
// whose sum gives 10 is never issued. The date keeps a bare 10-digit
// number from passing one time in eleven: with it about one in 300 does.
func validAustrianSVNR(c string) bool {
	if len(c) != 10 || !allDigits(c) || c[0] == '0' {
		return false
	}
	day, month := atoiDigits(c[4:6]), atoiDigits(c[6:8])
	if day < 1 || day > 31 || month < 1 || month > 12 {
		return false
	}
	weights := [10]int{3, 7, 9, 0, 5, 8, 4, 2, 1, 6}
	sum := 0
	for i := 0; i < 10; i++ {
		sum += int(c[i]-'0') * weights[i]
	}
	return sum%11 == int(c[3]-'0')
}
