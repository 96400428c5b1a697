package pattern

// validBSN checks a Dutch citizen service number (burgerservicenummer):
// nine digits passing the "11-proof" with weights 9, 8, ..., 2 and -1 on
// the last digit. A random nine-digit number passes one time in eleven,
// and the company tax number (RSIN) uses the same test, so a BSN is only
// taken next to a label (see FindNationalIDs).
func validBSN(c string) bool {
	if len(c) != 9 || !allDigits(c) || c == "000000000" {
		return false
	}
	sum := 0
	for i := 0; i < 8; i++ {
		sum += int(c[i]-'0') * (9 - i)
	}
	sum -= int(c[8] - '0')
	return sum%11 == 0
}
