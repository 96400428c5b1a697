package pattern

import "testing"

// Derived by hand with ICAO 9303 weights 7, 3, 1 (T=29, L=21, X=33):
// T22000129: 29·7+2·3+2+0+0+0+1·7+2·3+9 = 233 → 3 (the specimen card of
// 2010, "IDD<<T220001293"); L01X00T47: 21·7+0+1+33·7+0+0+29·7+4·3+7 =
// 601 → 1 (the specimen of 2019).
func TestIDCard(t *testing.T) {
	checkID(t, validIDCard,
		[]string{"T220001293", "L01X00T471"},
		[]string{
			"T220001294", // wrong check digit
			"A220001293", // A is not in the card's alphabet (and the check fails)
			"1220001293", // all digits: only after a label
			"LBBXBBTBB1", // no digit
			"L01X00T47",  // no check digit
		}, true)
}
