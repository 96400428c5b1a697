package pattern

import "testing"

// Letters derived as "TRWAGMYFPDXBNJZSQVHLCKE"[n mod 23]: 12345678 mod
// 23 = 14 → Z; 23 mod 23 = 0 → T; NIE X1234567 → 01234567 mod 23 = 19 →
// L; Y7654321 → 17654321 mod 23 = 4 → G; Z0000001 → 20000001 mod 23 = 6
// → Y.
func TestDNI(t *testing.T) {
	checkID(t, validDNI,
		[]string{"12345678Z", "00000023T"},
		[]string{"12345678A", "1234567Z", "X1234567L", "12345678"}, true)
}

func TestNIE(t *testing.T) {
	checkID(t, validNIE,
		[]string{"X1234567L", "Y7654321G", "Z0000001Y"},
		[]string{"X1234567M", "W1234567L", "12345678Z", "Y765432G"}, true)
}
