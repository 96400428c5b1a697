package ocr

import (
	"context"
	"fmt"

	"github.com/redactd/redactd/kernels"
	onnx "github.com/yalue/onnxruntime_go"
)

// Direction classifier input (PaddleOCR cls_image_shape 3,48,192): a line
// is squeezed to at most 192 pixels wide and padded on the right.
const clsW = 192

type clsReq struct{ c crop }

// clsResp is the probability that the line is upside down.
type clsResp struct{ p180 float32 }

// prepareCls squeezes a recogniser crop to the classifier's width.
func prepareCls(c crop) clsReq {
	if c.w <= clsW {
		return clsReq{c: c}
	}
	pix := make([]byte, clsW*recH*c.ch)
	kernels.ResizeBilinear(pix, clsW, recH, clsW*c.ch, c.pix, c.w, recH, c.w*c.ch, c.ch)
	return clsReq{c: crop{pix: pix, w: clsW, ch: c.ch}}
}

func (e *Engine) runCls(_ context.Context, reqs []clsReq) ([]clsResp, error) {
	n := len(reqs)
	plane := recH * clsW
	in := make([]float32, n*3*plane)
	for i, r := range reqs {
		kernels.NormalizeCHW(in[i*3*plane:], clsW, recH, r.c.pix, r.c.w, recH, r.c.w*r.c.ch, r.c.ch, e.recLUT, true)
	}
	x, err := onnx.NewTensor(onnx.NewShape(int64(n), 3, recH, clsW), in)
	if err != nil {
		return nil, fmt.Errorf("ocr: classifier input: %w", err)
	}
	defer x.Destroy()
	probs := make([]float32, n*2)
	y, err := onnx.NewTensor(onnx.NewShape(int64(n), 2), probs)
	if err != nil {
		return nil, fmt.Errorf("ocr: classifier output: %w", err)
	}
	defer y.Destroy()
	if err := e.cls.Run([]onnx.Value{x}, []onnx.Value{y}); err != nil {
		return nil, err
	}
	out := make([]clsResp, n)
	for i := range out {
		out[i].p180 = probs[2*i+1]
	}
	return out, nil
}

// classify returns, for each crop, the probability it is upside down.
func (e *Engine) classify(ctx context.Context, crops []crop) ([]float32, error) {
	reqs := make([]clsReq, len(crops))
	for i, c := range crops {
		reqs[i] = prepareCls(c)
	}
	resps, err := e.clsB.DoAll(ctx, reqs)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(resps))
	for i, r := range resps {
		out[i] = r.p180
	}
	return out, nil
}
