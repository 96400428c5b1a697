package pattern

import "strings"

// validCIF checks a Spanish company tax code (código de identificación
// fiscal, now the NIF of a legal person): a letter for the kind of
// entity, seven digits and a control character. The control is
// (10 - s mod 10) mod 10, where s sums the digits in even places (2nd,
// 4th, 6th) and the digit sums of twice those in odd places; it is
// written as a digit or as the letter "JABCDEFGHI"[control]. It is not a
// person's ID: FindNationalIDs uses it only to leave a company's number
// behind a personal label ("NIF: B12345674") unmasked.
func validCIF(c string) bool {
	if len(c) != 9 || strings.IndexByte("ABCDEFGHJNPQRSUVW", c[0]) < 0 || !allDigits(c[1:8]) {
		return false
	}
	sum := 0
	for i := 1; i < 8; i++ {
		d := int(c[i] - '0')
		if i%2 == 1 {
			d *= 2
			d = d/10 + d%10
		}
		sum += d
	}
	control := (10 - sum%10) % 10
	return c[8] == byte('0'+control) || c[8] == "JABCDEFGHI"[control]
}
