package pattern

import "testing"

func TestIsAmount(t *testing.T) {
	for w, want := range map[string]bool{
		"€": true, "$4.11": true, "399,00": true, "5,39": true, "1.234,56": true, "1,234.56": true, "21%": true,
		"(€12)": true, "£": true, "29.99": true,
		"12": false, "2010": false, "40-42": false, "21.05.14": false, "98109-5210": false, "Apt.": false, "%": false,
		"3,5": false, "12a": false,
	} {
		if got := IsAmount(w); got != want {
			t.Errorf("IsAmount(%q) = %v, want %v", w, got, want)
		}
	}
}
