package pattern

import "testing"

// Check digits by hand: 12345678: 1·9+2·8+...+8·2 = 156, 156 mod 11 = 2,
// 11-2 = 9 → 123456789; 45000000: 4·9+5·8 = 76, mod 11 = 10, 11-10 = 1 →
// 450000001. 501964843 (a company, NIPC) and 500000000 (sum 45, mod 11 =
// 1, check 10 → 0) validate but are not a person's.
func TestNIFPerson(t *testing.T) {
	checkID(t, validNIFPerson,
		[]string{"123456789", "450000001"},
		[]string{"123456788", "501964843", "500000000", "12345678"}, true)
	for _, s := range []string{"501964843", "500000000"} {
		if !validNIF(s) || validNIFPerson(s) {
			t.Errorf("%s: want a valid company NIF", s)
		}
	}
}
