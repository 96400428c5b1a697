package pattern

import "testing"

// No check digit: only the layout and the letters HMRC never issues.
func TestNINO(t *testing.T) {
	checkID(t, validNINO,
		[]string{"AB123456C", "JG103759A", "ZX999999D"},
		[]string{
			"AB123456E",                           // suffix past D
			"DA123456A",                           // D first
			"QQ123456C",                           // Q first (the form of HMRC's examples, never issued)
			"AO123456A",                           // O second
			"GB123456A", "NK123456A", "ZZ123456A", // never issued
			"AB12345C", "A1234567C",
		}, false)
}
