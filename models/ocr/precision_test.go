package ocr

import (
	"bytes"
	"strings"
	"testing"
)

// TestInt8OnlyWhereExact holds the rule of precision.go: the int8 copy
// only on a CPU with VNNI, the float copy, a different file, elsewhere.
func TestInt8OnlyWhereExact(t *testing.T) {
	for _, c := range []struct {
		avx512VNNI, avxVNNI, want bool
	}{{false, false, false}, {true, false, true}, {false, true, true}, {true, true, true}} {
		if got := int8Exact(c.avx512VNNI, c.avxVNNI); got != c.want {
			t.Errorf("int8Exact(avx512vnni=%v, avxvnni=%v) = %v, want %v", c.avx512VNNI, c.avxVNNI, got, c.want)
		}
	}
	if bytes.Equal(latinRec, latinRecFloat) || len(latinRecFloat) <= len(latinRec) {
		t.Fatalf("latin/rec.onnx (%d bytes) and rec.float.onnx (%d bytes): want a smaller int8 copy beside the float model",
			len(latinRec), len(latinRecFloat))
	}
	want := latinRecFloat
	if LatinPrecision() == PrecisionInt8 {
		want = latinRec
	}
	if !bytes.Equal(latinModel(), want) {
		t.Errorf("latinModel() is not the %s copy", LatinPrecision())
	}
	t.Logf("this CPU runs the %s copy of %s", LatinPrecision(), ModelLatin)
}

func TestDescribe(t *testing.T) {
	if got := Describe(ModelPPOCRv4); got != ModelPPOCRv4 {
		t.Errorf("Describe(%q) = %q", ModelPPOCRv4, got)
	}
	got := Describe("")
	if !strings.HasPrefix(got, ModelLatin+", "+LatinPrecision()+" copy") {
		t.Errorf("Describe(\"\") = %q, want the default recogniser and its copy (%s)", got, LatinPrecision())
	}
}
