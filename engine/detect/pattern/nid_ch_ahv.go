package pattern

// validAHV checks a Swiss social-security number (AHV/AVS number since
// 2008): 13 digits, the country prefix 756, and an EAN-13 check digit
// (weights 1, 3 alternating from the left; the check makes the weighted
// sum a multiple of 10).
func validAHV(c string) bool {
	if len(c) != 13 || !allDigits(c) || c[:3] != "756" {
		return false
	}
	sum := 0
	for i := 0; i < 12; i++ {
		w := 1
		if i%2 == 1 {
			w = 3
		}
		sum += int(c[i]-'0') * w
	}
	return (10-sum%10)%10 == int(c[12]-'0')
}
