package pattern

import "testing"

// checkID runs valid over the known-valid numbers (each must pass) and the
// known-invalid ones (each must fail). With mutate it also changes each
// digit of every valid number in turn to the next digit: a check digit
// worth the name catches every such single error.
func checkID(t *testing.T, valid func(string) bool, good, bad []string, mutate bool) {
	t.Helper()
	for _, s := range good {
		if !valid(s) {
			t.Errorf("%s: want valid", s)
		}
		if !mutate {
			continue
		}
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				continue
			}
			m := []byte(s)
			m[i] = '0' + (s[i]-'0'+1)%10
			if valid(string(m)) {
				t.Errorf("%s (digit %d of %s changed): want invalid", m, i+1, s)
			}
		}
	}
	for _, s := range bad {
		if valid(s) {
			t.Errorf("%s: want invalid", s)
		}
	}
}
