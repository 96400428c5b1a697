package pattern

import "strings"

// validNINO checks the layout of a UK National Insurance number (HMRC
// National Insurance Manual NIM39110): two prefix letters, six digits and
// a suffix A-D. Neither prefix letter is D, F, I, Q, U or V, the second
// is not O, and BG, GB, KN, NK, NT, TN and ZZ are never issued. It has no
// check digit, so it is only taken next to a label.
func validNINO(c string) bool {
	if len(c) != 9 || !IsLetterByte(c[0]) || !IsLetterByte(c[1]) || !allDigits(c[2:8]) {
		return false
	}
	if strings.IndexByte("DFIQUV", c[0]) >= 0 || strings.IndexByte("DFIQUVO", c[1]) >= 0 {
		return false
	}
	switch c[:2] {
	case "BG", "GB", "KN", "NK", "NT", "TN", "ZZ":
		return false
	}
	return c[8] >= 'A' && c[8] <= 'D'
}
