package pattern

// validNIFPerson checks a Portuguese tax number (número de identificação
// fiscal) of a person: nine digits whose last is 11 - (sum of the others
// weighted 9..2 mod 11), 0 where that gives 10 or 11, and whose first
// digits say a person: 1, 2 or 3 (residents) or 45 (non-residents).
// Numbers starting 5, 6, 7, 8 or 9 are companies, public bodies, estates
// and the like (NIPC): not a person's ID even though they validate.
func validNIFPerson(c string) bool {
	if !validNIF(c) {
		return false
	}
	return c[0] >= '1' && c[0] <= '3' || c[:2] == "45"
}

// validNIF is the check digit alone, for persons and companies.
func validNIF(c string) bool {
	if len(c) != 9 || !allDigits(c) {
		return false
	}
	sum := 0
	for i := 0; i < 8; i++ {
		sum += int(c[i]-'0') * (9 - i)
	}
	check := 11 - sum%11
	if check >= 10 {
		check = 0
	}
	return check == int(c[8]-'0')
}
