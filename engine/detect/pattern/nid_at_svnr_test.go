package pattern

import "testing"

// By hand: 123x010180: 1·3+2·7+3·9+0·5+1·8+0·4+1·2+8·1+0·6 = 62, 62 mod 11
// = 7 → 1237010180 (the usual example "1237 010180"); 456x150575 → 6.
func TestAustrianSVNR(t *testing.T) {
	checkID(t, validAustrianSVNR,
		[]string{"1237010180", "4566150575"},
		[]string{
			"1238010180", // wrong check
			"0237010180", // serial starting with 0
			"1237320180", // day 32
			"1237011380", // month 13
			"123701018",
		}, true)
}
