package pattern

import "testing"

// The valid numbers were derived outside this code (a short Python script
// of the ISO 7064 MOD 11,10 loop: product 10; for each digit
// sum = (d + product) mod 10, 10 if 0; product = 2*sum mod 11; check =
// (11 - product) mod 10): 8609574271 → 9 (the BZSt's example number
// 86095742719), 1234567899 → 5.
func TestSteuerID(t *testing.T) {
	checkID(t, validSteuerID,
		[]string{"86095742719", "12345678995"},
		[]string{
			"86095742718", // wrong check digit
			"65129783400", // check right, but no digit repeats in the first ten
			"11112345670", // a digit four times
			"01234567899", // leading zero
			"8609574271",  // too short
			"8609574271X",
		}, true)
}
