package rules

import "testing"

func TestBrandWithDigits(t *testing.T) {
	for w, want := range map[string]bool{"6sigma": true, "Ideas42": true, "Asset4": true,
		"1990s": false, "12th": false, "B2": false, "4QA": false, "A-4": false, "2020": false} {
		if got := brandWithDigits(w); got != want {
			t.Errorf("brandWithDigits(%q) = %v, want %v", w, got, want)
		}
	}
}
