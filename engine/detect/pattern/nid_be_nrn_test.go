package pattern

import "testing"

// Checks derived as 97 - (first nine mod 97): 850730033 → 28 (the usual
// example 85.07.30-033.28); born in 2000 or later, 2000000000 + n:
// 010101123 → 01, 120315987 → 29.
func TestBelgianNRN(t *testing.T) {
	checkID(t, validBelgianNRN,
		[]string{"85073003328", "01010112301", "12031598729"},
		[]string{"85073003327", "85133003328", "85073203328", "8507300332"}, true)
}
