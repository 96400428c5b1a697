package ocr

import (
	_ "embed" // both copies of the project's recogniser ship inside the binary

	"golang.org/x/sys/cpu"
)

// The embedded redactd-latin comes in two copies: latin/rec.onnx, whose
// convolutions are int8 (train/quantize.py), and latin/rec.float.onnx, the
// float model it was quantised from. ONNX Runtime runs the int8
// convolutions as integer dot products of uint8 activations and int8
// weights. With VNNI (AVX-512 VNNI, or AVX-VNNI) those sums are exact; on
// x86 CPUs with AVX2 alone they are summed in pairs into 16 bits, which
// saturates with weights that use the full int8 range, and the copy reads
// worse than the float model: on an AVX2-only EPYC the name gate fell from
// 98% to 94% and TestInt8ReadsAsFloat found 0.6-1.1% of the characters
// different. So the int8 copy is served only where the CPU sums exactly,
// and the float copy everywhere else (slower, reading as measured).

//go:embed latin/rec.float.onnx
var latinRecFloat []byte

// Recogniser precisions (LatinPrecision).
const (
	PrecisionInt8  = "int8"
	PrecisionFloat = "float32"
)

// int8Exact reports whether ONNX Runtime's integer convolutions sum
// exactly on a CPU with these features (see above).
func int8Exact(avx512VNNI, avxVNNI bool) bool { return avx512VNNI || avxVNNI }

// LatinPrecision is the precision of the redactd-latin copy this machine
// runs: PrecisionInt8 where its CPU has VNNI, PrecisionFloat otherwise.
func LatinPrecision() string {
	if int8Exact(cpu.X86.HasAVX512VNNI, cpu.X86.HasAVXVNNI) {
		return PrecisionInt8
	}
	return PrecisionFloat
}

// latinModel returns the redactd-latin copy this machine runs.
func latinModel() []byte {
	if LatinPrecision() == PrecisionInt8 {
		return latinRec
	}
	return latinRecFloat
}

// Describe names the recogniser Options.Model picks ("" for the
// default) and, for redactd-latin, the copy this machine runs, for logs
// and `redactd doctor`: "redactd-latin, float32 copy: this CPU has no
// VNNI".
func Describe(model string) string {
	if model == "" {
		model = DefaultModel
	}
	if model != ModelLatin {
		return model
	}
	if p := LatinPrecision(); p != PrecisionInt8 {
		return model + ", " + p + " copy: this CPU has no VNNI"
	}
	return model + ", " + PrecisionInt8 + " copy"
}
