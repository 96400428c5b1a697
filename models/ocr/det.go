package ocr

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/redactd/redactd/kernels"
	onnx "github.com/yalue/onnxruntime_go"
)

// DB post-processing parameters, PaddleOCR's defaults for PP-OCRv4.
const (
	detThresh    = 0.3  // probability above which a pixel is text
	detBoxThresh = 0.6  // least mean probability inside a box
	detUnclip    = 1.5  // box growth: area*ratio/perimeter on each side
	detMinSize   = 3    // shortest box side before unclipping, map pixels
	detMaxBoxes  = 1000 // candidates examined per image
)

// detReq is one image resized for the detector (w, h multiples of 32).
type detReq struct {
	pix    []byte
	w, h   int
	ch     int
	srcW   int // size of the image it came from
	srcH   int
	scaleX float64 // source pixels per map pixel
	scaleY float64
}

// detResp is one image's probability map, a part of its run's output
// buffer; release hands the part back (detOutput) once it is read.
type detResp struct {
	prob []float32
	out  *detOutput
}

// release hands r's part of its run's output back; the buffer returns to
// detOutputs when every image of the run has released its part. A part
// never released (its caller gone) leaves the buffer to the collector.
func (r detResp) release() {
	if r.out != nil && r.out.left.Add(-1) == 0 {
		detOutputs.Put(r.out.buf)
	}
}

// detOutput is a detector run's output buffer, shared by the run's
// images (left of them still read it).
type detOutput struct {
	buf  *[]float32
	left atomic.Int32
}

// detOutputs recycles the detector's output buffers (a float a detector
// pixel: 5 MB for a scan page). The model writes every float of its
// output, so a recycled buffer needs no clearing.
var detOutputs sync.Pool // of *[]float32

// detKey batches only images of identical size.
func detKey(r detReq) int { return r.w<<16 | r.h }

// detScale is the detector's scale for a w x h page: its longest side at
// most maxSide pixels.
func detScale(w, h, maxSide int) float64 {
	if m := max(w, h); m > maxSide {
		return float64(maxSide) / float64(m)
	}
	return 1
}

// detSize is the detector input size for a w x h image at scale, each
// side rounded to a multiple of 32 (at least 32).
func detSize(w, h int, scale float64) (int, int) {
	r := func(v int) int { return max(32, int(math.Round(float64(v)*scale/32))*32) }
	return r(w), r(h)
}

// prepareDet resizes img for the detector at scale.
func (e *Engine) prepareDet(img Image, scale float64) detReq {
	w, h := detSize(img.W, img.H, scale)
	pix := make([]byte, w*h*img.Channels)
	kernels.ResizeBilinear(pix, w, h, w*img.Channels, img.Pix, img.W, img.H, img.Stride, img.Channels)
	return detReq{
		pix: pix, w: w, h: h, ch: img.Channels, srcW: img.W, srcH: img.H,
		scaleX: float64(img.W) / float64(w), scaleY: float64(img.H) / float64(h),
	}
}

// detInputs recycles the detector's input tensors (22 MB for a full page
// at MaxSide 1536; pooledFloats). A run writes every float of its input
// before reading it, so a recycled buffer needs no clearing: reusing one
// spares the zeroing and the page faults of a fresh allocation a page.
var detInputs sync.Pool // of *[]float32

// runDet is the detector batcher's run function.
func (e *Engine) runDet(_ context.Context, reqs []detReq) ([]detResp, error) {
	n, w, h := len(reqs), reqs[0].w, reqs[0].h
	plane := w * h
	buf := pooledFloats(&detInputs, n*3*plane)
	defer detInputs.Put(buf)
	in := *buf
	for i, r := range reqs {
		kernels.NormalizeCHW(in[i*3*plane:], w, h, r.pix, w, h, w*r.ch, r.ch, e.detLUT, true)
	}
	x, err := onnx.NewTensor(onnx.NewShape(int64(n), 3, int64(h), int64(w)), in)
	if err != nil {
		return nil, fmt.Errorf("ocr: detector input: %w", err)
	}
	defer x.Destroy()
	outBuf := pooledFloats(&detOutputs, n*plane)
	outData := *outBuf
	y, err := onnx.NewTensor(onnx.NewShape(int64(n), 1, int64(h), int64(w)), outData)
	if err != nil {
		return nil, fmt.Errorf("ocr: detector output: %w", err)
	}
	defer y.Destroy()
	if err := e.det.Run([]onnx.Value{x}, []onnx.Value{y}); err != nil {
		return nil, err
	}
	shared := &detOutput{buf: outBuf}
	shared.left.Store(int32(n))
	out := make([]detResp, n)
	for i := range out {
		out[i] = detResp{prob: outData[i*plane : (i+1)*plane : (i+1)*plane], out: shared}
	}
	return out, nil
}

// detBox is a detected text region in source pixels with its score.
type detBox struct {
	r     rect // in source pixels
	score float64
}

// detect runs the detector on the inked part of img (see inkBounds) at
// img's scale and returns text boxes in img's pixels.
func (e *Engine) detect(ctx context.Context, img Image) ([]detBox, error) {
	ink := inkBounds(img)
	req := e.prepareDet(img.sub(ink), detScale(img.W, img.H, e.opts.MaxSide))
	resp, err := e.detB.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	boxes := dbBoxes(resp.prob, req)
	resp.release()
	for i := range boxes {
		boxes[i].r.C.X += float64(ink.Min.X)
		boxes[i].r.C.Y += float64(ink.Min.Y)
	}
	sortBoxes(boxes)
	return boxes, nil
}

// dbBoxes is DB post-processing: components of the thresholded map become
// minimum-area rectangles, scored, grown by the unclip ratio and mapped to
// source pixels.
func dbBoxes(prob []float32, req detReq) []detBox {
	comps := kernels.Components(prob, req.w, req.h, detThresh, 4)
	if len(comps) > detMaxBoxes {
		// Keep the largest candidates.
		slices.SortStableFunc(comps, func(a, b kernels.Component) int { return b.Area - a.Area })
		comps = comps[:detMaxBoxes]
	}
	var out []detBox
	pts := make([]Point, 0, 256)
	for _, c := range comps {
		pts = pts[:0]
		// Pixel corners of each run's ends span the component's outline.
		for _, r := range c.Runs {
			y0, y1 := float64(r.Y), float64(r.Y+1)
			pts = append(pts, Point{float64(r.X0), y0}, Point{float64(r.X1), y0},
				Point{float64(r.X0), y1}, Point{float64(r.X1), y1})
		}
		hull := convexHull(pts)
		box := minAreaRect(hull)
		if box.S < detMinSize {
			continue
		}
		q := box.quad()
		score := kernels.QuadMean(prob, req.w, req.h, [][2]float64{
			{q.UL.X, q.UL.Y}, {q.UR.X, q.UR.Y}, {q.LR.X, q.LR.Y}, {q.LL.X, q.LL.Y}})
		if score < detBoxThresh {
			continue
		}
		// Unclip: offsetting a rectangle outwards by d grows each side by 2d.
		d := box.L * box.S * detUnclip / (2 * (box.L + box.S))
		box.L += 2 * d
		box.S += 2 * d
		if box.S < detMinSize+2 {
			continue
		}
		out = append(out, detBox{r: toSource(box, req), score: score})
	}
	return out
}

// toSource maps a rectangle on the detector map to source pixels (the two
// axes may scale slightly differently after rounding to multiples of 32)
// and clips it to the image.
func toSource(r rect, req detReq) rect {
	q := r.quad().mapPoints(func(p Point) Point {
		return Point{
			math.Max(0, math.Min(p.X*req.scaleX, float64(req.srcW))),
			math.Max(0, math.Min(p.Y*req.scaleY, float64(req.srcH))),
		}
	})
	return minAreaRect(convexHull([]Point{q.UL, q.UR, q.LR, q.LL}))
}

// sortBoxes orders boxes for reading: rows top to bottom (a box joins a
// row when its centre lies within half a line height of the row's first
// box), and left to right within a row.
func sortBoxes(boxes []detBox) {
	slices.SortStableFunc(boxes, func(a, b detBox) int { return cmp.Compare(a.r.C.Y, b.r.C.Y) })
	for i := 0; i < len(boxes); {
		j := i + 1
		for j < len(boxes) && boxes[j].r.C.Y-boxes[i].r.C.Y < math.Min(boxes[i].r.S, boxes[j].r.S)/2 {
			j++
		}
		slices.SortStableFunc(boxes[i:j], func(a, b detBox) int {
			return cmp.Compare(a.r.C.X-a.r.L/2, b.r.C.X-b.r.L/2)
		})
		i = j
	}
}
