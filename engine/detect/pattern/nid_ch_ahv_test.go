package pattern

import "testing"

// EAN-13 by hand: 756123456789: 7+15+6+3+2+9+4+15+6+21+8+27 = 123 →
// (10-3) mod 10 = 7 (the "756.1234.5678.97"); in Python
// 756987654321 → 7, 756000000001 → 9.
func TestAHV(t *testing.T) {
	checkID(t, validAHV,
		[]string{"7561234567897", "7569876543217", "7560000000019"},
		[]string{"7561234567896", "7571234567897", "756123456789"}, true)
}
