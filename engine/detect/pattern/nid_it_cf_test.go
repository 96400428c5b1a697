package pattern

import "testing"

// Check letters derived in Python from the ministry's tables (odd places
// by the odd table, even places by value, sum mod 26): RSSMRA85T10A562 →
// S (the usual example, Mario Rossi); its omocodia RSSMRA85T10A56N (the
// last digit 2 written N) → H; BNCLRA92M55H501 (a woman: day 15 + 40) → M.
func TestCodiceFiscale(t *testing.T) {
	checkID(t, validCodiceFiscale,
		[]string{"RSSMRA85T10A562S", "RSSMRA85T10A56NH", "BNCLRA92M55H501M"},
		[]string{
			"RSSMRA85T10A562T", // wrong check letter
			"RSSMRA85Z10A562S", // Z is no month letter
			"RSSMRA85T10A56AS", // A cannot stand for a digit
			"RSSMRA85T35A562S", // day 35
			"RSSMRA85T10A562",  // too short
		}, true)
}
