package jobs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/redactd/redactd/engine/demo"
	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/page"
)

// demoCache holds the one real run of the demo sample; a failed run is
// not cached, so the next call tries again.
type demoCache struct {
	mu     sync.Mutex
	result *DemoResult
	pdf    []byte
}

var demoRuns sync.Map // *core (one per Engine) → *demoCache

// Demo redacts the built-in synthetic sample (engine/demo) with the real
// processor on first use and describes that run: the categories found,
// one example per category, and whether each example's words ended fully
// under masks. Later calls return the cached run. Status is "completed".
func (api *API) Demo(ctx context.Context) (*DemoResult, []byte, error) {
	if api.proc == nil {
		return nil, nil, errorf(ErrUnavailable, "", "demo not available in admin mode")
	}
	v, _ := demoRuns.LoadOrStore(api.core, &demoCache{})
	c := v.(*demoCache)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.result != nil {
		return c.result, c.pdf, nil
	}
	res, pdf, err := api.runDemo(ctx)
	if err != nil {
		api.log.Error("demo run failed", "err", err)
		return nil, nil, errorf(ErrUnavailable, "", "demo run failed")
	}
	c.result, c.pdf = res, pdf
	return res, pdf, nil
}

func (api *API) runDemo(ctx context.Context) (*DemoResult, []byte, error) {
	sample, err := demo.Load()
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp(api.files.root(), ".demo-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "sample.pdf")
	if err := os.WriteFile(in, demo.SamplePDF, 0o600); err != nil {
		return nil, nil, err
	}
	start := time.Now()
	var out bytes.Buffer
	res, err := api.proc.Process(ctx, ProcessInput{DocID: "demo", Path: in, Kind: imagein.KindPDF.String(), Options: Options{Categories: page.Categories}},
		&out, func(Progress) error { return nil })
	if err != nil {
		return nil, nil, err
	}
	outPath := filepath.Join(dir, "out.pdf")
	if err := os.WriteFile(outPath, out.Bytes(), 0o600); err != nil {
		return nil, nil, err
	}
	if err := api.verify(outPath); err != nil {
		return nil, nil, fmt.Errorf("demo output failed verification: %w", err)
	}
	r := &DemoResult{Status: "completed", SampleInput: sample.Text}
	masked := 0
	for _, ex := range sample.Examples {
		m := covered(ex.Boxes, res.Masks)
		if m {
			masked++
		}
		r.DetectedPII = append(r.DetectedPII, DemoDetection{Category: string(ex.Category), Example: ex.Text, Masked: m})
	}
	r.Message = fmt.Sprintf("Redacted the synthetic sample (%d page) in %d ms: %d of %d example values masked.",
		res.PageCount, time.Since(start).Milliseconds(), masked, len(sample.Examples))
	return r, out.Bytes(), nil
}

// covered reports whether every box lies under the masks of page 0,
// checked on a grid of points inside each box (masks may overlap, so
// areas cannot simply be summed).
func covered(boxes []page.Rect, masks []Mask) bool {
	const steps = 8
	for _, b := range boxes {
		for i := 0; i <= steps; i++ {
			for j := 0; j <= steps; j++ {
				x := b.X0 + (b.X1-b.X0)*float64(i)/steps
				y := b.Y0 + (b.Y1-b.Y0)*float64(j)/steps
				if !underMask(x, y, masks) {
					return false
				}
			}
		}
	}
	return true
}

func underMask(x, y float64, masks []Mask) bool {
	for _, m := range masks {
		if m.Page == 0 && x >= m.Box.X0 && x <= m.Box.X1 && y >= m.Box.Y0 && y <= m.Box.Y1 {
			return true
		}
	}
	return false
}
