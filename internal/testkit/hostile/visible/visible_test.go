package visible

import "testing"

func TestApproxContains(t *testing.T) {
	for _, c := range []struct {
		text, pat string
		k         int
		want      bool
	}{
		{"clientcressidadunwoody", "cressidadunwoody", 0, true},
		{"clientcr3ss1dadunw00dy", "cressidadunwoody", 3, false},
		{"clientcr3ss1dadunw00dy", "cressidadunwoody", 5, true},
		{"nothing", "dunwoody", 1, false},
		{"dunwoodv", "dunwoody", 1, true},
	} {
		if got := approxContains(c.text, c.pat, c.k); got != c.want {
			t.Errorf("approxContains(%q, %q, %d) = %v", c.text, c.pat, c.k, got)
		}
	}
}
