package pattern

import "testing"

// Controls derived in Python: B1234567: even places 2+4+6 = 12, odd
// places 2,6,10,14 → 2+6+1+5 = 14; 26 → 4 (letter D): B12345674 and
// B1234567D.
func TestCIF(t *testing.T) {
	checkID(t, validCIF,
		[]string{"B12345674", "B1234567D", "A58222159"},
		[]string{"B12345675", "X12345674", "12345678Z"}, true)
}
