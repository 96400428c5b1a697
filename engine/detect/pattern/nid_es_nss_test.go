package pattern

import "testing"

// Keys worked by hand: 28 12345678 → 2812345678 mod 97 = 40;
// 08 01234567 (order under 10^7) → 8×10^7 + 1234567 = 81234567 mod 97 =
// 74, where reading the digits as written (801234567) would give 17.
// Province 00 and 54-65 do not exist (12345678 mod 97 = 3,
// 6012345678 mod 97 = 13).
func TestNSS(t *testing.T) {
	checkID(t, validNSS,
		[]string{"281234567840", "080123456774"},
		[]string{"281234567841", "080123456717", "001234567803", "601234567813", "28123456784", "28123456784A"}, true)
}
