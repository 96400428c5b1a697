package pattern

import "strconv"

// validNSS checks a Spanish social-security number (número de la
// Seguridad Social, NSS or NAF, "NASS" in clinical records): a province
// of two digits (01-53, or 66 and over for numbers the Treasury gives
// outside the provinces), an order number of eight digits and a key of
// two, the remainder mod 97 of the province and order number read as one
// number, where an order number under 10 000 000 is read without its
// leading zero (province × 10^7 + order number): the Treasury's own
// quirk, which every published validator keeps.
func validNSS(c string) bool {
	if len(c) != 12 || !allDigits(c) {
		return false
	}
	prov, _ := strconv.Atoi(c[:2])
	if prov == 0 || prov > 53 && prov < 66 {
		return false
	}
	order, _ := strconv.ParseUint(c[2:10], 10, 64)
	key, _ := strconv.Atoi(c[10:])
	n := uint64(prov)*100_000_000 + order
	if order < 10_000_000 {
		n = uint64(prov)*10_000_000 + order
	}
	return key == int(n%97)
}
