package pattern

// validSteuerID checks a German tax identification number
// (Steueridentifikationsnummer, § 139b AO): 11 digits, no leading zero;
// among the first ten exactly one digit occurs more than once, two or
// three times, and a digit that occurs three times does not fill three
// neighbouring places; the last is the ISO 7064 MOD 11,10 check digit.
// The repetition rule is what makes a bare 11-digit number evidence:
// about one random number in 25 has it, one in 250 with the check.
func validSteuerID(c string) bool {
	if len(c) != 11 || !allDigits(c) || c[0] == '0' {
		return false
	}
	var count [10]int
	for i := 0; i < 10; i++ {
		count[c[i]-'0']++
	}
	repeated := -1
	for d, n := range count {
		if n > 1 {
			if repeated >= 0 || n > 3 {
				return false
			}
			repeated = d
		}
	}
	if repeated < 0 {
		return false
	}
	if count[repeated] == 3 {
		r := byte('0' + repeated)
		for i := 0; i+2 < 10; i++ {
			if c[i] == r && c[i+1] == r && c[i+2] == r {
				return false
			}
		}
	}
	return iso7064Mod11_10(c[:10]) == int(c[10]-'0')
}

// iso7064Mod11_10 is the check digit of ISO 7064 MOD 11,10 over digits.
func iso7064Mod11_10(digits string) int {
	product := 10
	for i := 0; i < len(digits); i++ {
		sum := (int(digits[i]-'0') + product) % 10
		if sum == 0 {
			sum = 10
		}
		product = 2 * sum % 11
	}
	return (11 - product) % 10
}

// allDigits reports whether s is made of ASCII digits only.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
