package ocr

// Describe names the recogniser Options.Model picks ("" for the
// default), for logs and `redactd doctor`. redactd-latin runs its int8
// copy (latin/rec.onnx) on every CPU: its weights hold 7-bit values
// (train/quantize.py), so ONNX Runtime sums them exactly with VNNI and
// without it, and every machine reads the same.
func Describe(model string) string {
	if model == "" {
		model = DefaultModel
	}
	if model == ModelLatin {
		return model + ", int8 with 7-bit weights"
	}
	return model
}
