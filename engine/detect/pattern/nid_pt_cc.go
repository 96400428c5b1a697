package pattern

// validCartaoCidadao checks the document number of a Portuguese citizen
// card (Cartão de Cidadão): the eight-digit civil identification number,
// its check digit, two letters (the card's version) and a final check
// digit. The final check is the published one (Agência para a
// Modernização Administrativa, "Validação de Número de Documento do
// Cartão de Cidadão"): reading right to left from the last character,
// every second value is doubled and reduced by 9 when above 9, letters
// counting A=10 ... Z=35, and the sum must be a multiple of 10.
func validCartaoCidadao(c string) bool {
	if len(c) != 12 || !allDigits(c[:9]) || !IsLetterByte(c[9]) || !IsLetterByte(c[10]) || !isDigitByte(c[11]) {
		return false
	}
	sum := 0
	for i := 0; i < 12; i++ {
		v, ok := alnumValue(c[11-i])
		if !ok {
			return false
		}
		if i%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}
