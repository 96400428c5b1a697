package server

import (
	"strings"
	"testing"
)

func TestRequestID(t *testing.T) {
	keep := []string{"abc", "A-b_9", strings.Repeat("x", 64)}
	for _, in := range keep {
		if got := requestID([]byte(in)); got != in {
			t.Errorf("requestID(%q) = %q, want it kept", in, got)
		}
	}
	replace := []string{"", strings.Repeat("x", 65), "a b", "a\nb", "<script>", "é", "a/b", "a.b"}
	for _, in := range replace {
		got := requestID([]byte(in))
		if got == in || !validRequestID([]byte(got)) || len(got) != 32 {
			t.Errorf("requestID(%q) = %q, want a fresh 32-char id", in, got)
		}
	}
	if a, b := newRequestID(), newRequestID(); a == b {
		t.Fatal("two generated ids are equal")
	}
}
