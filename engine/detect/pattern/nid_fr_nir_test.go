package pattern

import "testing"

// Keys derived in Python as 97 - (n mod 97): 1841276451089 → 46 (the
// issue's example "1 84 12 76 451 089 46"); Corsica with 2A read as 19:
// 2900519004123 → 52, with 2B read as 18: 2900518004123 → 79.
func TestNIR(t *testing.T) {
	checkID(t, validNIR,
		[]string{"184127645108946", "290052A00412352", "290052B00412379"},
		[]string{
			"184127645108947", // wrong key
			"290052A00412379", // the 2B key on a 2A number
			"584127645108946", // sex digit 5
			"184137645108946", // month 13 (and key)
			"18412764510894",  // too short
		}, true)
}
