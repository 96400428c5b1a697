package pattern

import "testing"

// Final check digits derived in Python by the published algorithm (right
// to left from the check digit, every second value doubled and reduced by
// 9 when above 9, A=10 ... Z=35, the sum a multiple of 10):
// 000000000ZZ → 4, 123456789ZX → 5, 154203556ZY → 7.
func TestCartaoCidadao(t *testing.T) {
	checkID(t, validCartaoCidadao,
		[]string{"000000000ZZ4", "123456789ZX5", "154203556ZY7"},
		[]string{"123456789ZX6", "123456789ZY5", "12345678ZX5", "1234567890X5"}, true)
}
