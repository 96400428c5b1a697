package pattern

import "strconv"

// validNIR checks a French social-security number (numéro d'inscription
// au répertoire, NIR): sex (1, 2, or 3, 4, 7, 8 for provisional numbers),
// year, month (01-12, 20-42 or 50-99 where the month is unknown), a
// département of two digits or 2A/2B (Corsica), commune, order number and
// a key of two digits, 97 - (first 13 digits mod 97). For Corsica the
// key is computed with 2A read as 19 and 2B as 18 (INSEE; the same as
// reading the letter as 0 and subtracting 1 000 000 or 2 000 000).
func validNIR(c string) bool {
	if len(c) != 15 {
		return false
	}
	body := c[:13]
	switch c[5:7] {
	case "2A":
		body = body[:5] + "19" + body[7:]
	case "2B":
		body = body[:5] + "18" + body[7:]
	}
	if !allDigits(body) || !allDigits(c[13:]) {
		return false
	}
	switch body[0] {
	case '1', '2', '3', '4', '7', '8':
	default:
		return false
	}
	month, _ := strconv.Atoi(body[3:5])
	if month == 0 || month > 12 && month < 20 || month > 42 && month < 50 {
		return false
	}
	n, _ := strconv.ParseUint(body, 10, 64)
	key, _ := strconv.Atoi(c[13:])
	return key == 97-int(n%97)
}
