package pattern

import "testing"

// 11-proof by hand: 123456782: 1·9+2·8+3·7+4·6+5·5+6·4+7·3+8·2-2 = 154 =
// 14·11; 111222333: 9+8+7+12+10+8+9+6-3 = 66 = 6·11.
func TestBSN(t *testing.T) {
	checkID(t, validBSN,
		[]string{"123456782", "111222333"},
		[]string{"123456783", "000000000", "12345678", "1234567820"}, true)
}
