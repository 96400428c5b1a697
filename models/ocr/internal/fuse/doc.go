// Package fuse rewrites the PaddleOCR ONNX models (PP-OCRv4 detection and
// recognition, mobile v2.0 direction classifier, as exported by
// paddle2onnx) into equivalent graphs that ONNX Runtime runs at about
// half the CPU cost, without changing what they compute beyond float
// rounding.
//
// The exported graphs spell out, around every convolution of the
// PP-LCNetV3 backbone, a learnable affine map (Mul and Add by scalars), a
// hard-swish decomposed into Add, Clip, Mul and Div, and a second affine
// map. ONNX Runtime fuses none of it: each op is a pass over a large
// activation, and the ops it cannot run in its blocked (NCHWc) layout
// force layout conversions around every convolution. Rewrite
//
//   - folds the affine ops after a Conv or ConvTranspose (and
//     BatchNormalization) into its weights and bias;
//   - writes the hard-swish as x*HardSigmoid(x), which ONNX Runtime fuses
//     into the convolution before it as a HardSwish activation;
//   - folds the affine map before a convolution into it when it pads
//     nothing, and otherwise its scale, keeping the shift as a depthwise
//     1x1 convolution (see foldAffineConv);
//   - drops Mul by 1 and writes x+x*h as x*(1+h).
//
// The ONNX protobuf is read and written with protowire, without
// generated code: fields the rewrite does not touch are copied byte for
// byte, and an unchanged model encodes to its original bytes. All
// arithmetic is float64 with explicit roundings, so the output is the
// same on every machine (deploy/setup.sh pins its SHA-256).
package fuse

// File rewrites one encoded model and returns the new encoding.
func File(b []byte) ([]byte, Stats, error) {
	m, err := Decode(b)
	if err != nil {
		return nil, Stats{}, err
	}
	st, err := Rewrite(m)
	if err != nil {
		return nil, st, err
	}
	return m.Encode(), st, nil
}
