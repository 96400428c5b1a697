package ocr

import "testing"

func TestDescribe(t *testing.T) {
	if got := Describe(ModelPPOCRv4); got != ModelPPOCRv4 {
		t.Errorf("Describe(%q) = %q", ModelPPOCRv4, got)
	}
	if got, want := Describe(""), ModelLatin+", int8 with 7-bit weights"; got != want {
		t.Errorf("Describe(\"\") = %q, want %q", got, want)
	}
}
