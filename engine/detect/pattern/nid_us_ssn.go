package pattern

// validSSN checks the layout of a US Social Security number: area,
// group and serial (AAA-GG-SSSS), with the values the Social Security
// Administration never assigns: area 000, 666 or 900-999, group 00,
// serial 0000. It has no check digit, so it is only taken next to a label.
func validSSN(c string) bool {
	if len(c) != 9 || !allDigits(c) {
		return false
	}
	area := atoiDigits(c[:3])
	if area == 0 || area == 666 || area >= 900 {
		return false
	}
	return c[3:5] != "00" && c[5:] != "0000"
}
