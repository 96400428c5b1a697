package ocr

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/redactd/redactd/kernels"
	"github.com/redactd/redactd/models/ort"
	onnx "github.com/yalue/onnxruntime_go"
)

// Recogniser input geometry (PP-OCRv4 rec_image_shape 3,48,320).
const (
	recH      = 48
	recMinW   = 320 // narrower crops are padded to this width, as in training
	recStride = 8   // input pixels per output time step
	// recBudget bounds one model run to this many input columns (batch
	// size times padded width). On CPU the published recogniser's cost
	// per column grew with the batch (its elementwise ops' activations
	// left the caches: 81 ms per 1000 columns for one 320-wide line, 148
	// for sixteen, 196 for 32), so batches are cut into small runs; the
	// rewritten model setup installs (models/ocr/internal/fuse) costs
	// about 43 ms per 1000 columns from one 320-wide line to eight 160s
	// to one 1280. The output of a run is columns/8 x 6625 floats.
	recBudget = 1280
)

// crop is an 8-bit image at recogniser height.
type crop struct {
	pix []byte
	w   int
	ch  int
}

// cropQuad cuts q out of img at height 48 keeping its aspect ratio, with a
// supersampling prefilter when the line is reduced a lot.
func cropQuad(img Image, q Quad) (crop, bool) {
	h := q.Height()
	if h < 1 || q.Width() < 1 {
		return crop{}, false
	}
	w := max(int(math.Round(recH*q.Width()/h)), 4)
	m, ok := q.homography(float64(w), recH)
	if !ok {
		return crop{}, false
	}
	ss := min(max(int(math.Ceil(h/recH/1.5)), 1), 4)
	pix := make([]byte, w*recH*img.Channels)
	kernels.WarpPerspective(pix, w, recH, w*img.Channels, img.Pix, img.W, img.H, img.Stride, img.Channels, m, ss)
	return crop{pix: pix, w: w, ch: img.Channels}, true
}

// flip turns the crop by 180 degrees.
func (c crop) flip() crop {
	out := make([]byte, len(c.pix))
	kernels.Rotate(out, c.w*c.ch, c.pix, c.w, recH, c.w*c.ch, c.ch, 180)
	return crop{pix: out, w: c.w, ch: c.ch}
}

// sub returns columns x0..x1-1 of the crop (a copy).
func (c crop) sub(x0, x1 int) crop {
	w := x1 - x0
	out := make([]byte, w*recH*c.ch)
	for y := 0; y < recH; y++ {
		copy(out[y*w*c.ch:(y+1)*w*c.ch], c.pix[y*c.w*c.ch+x0*c.ch:y*c.w*c.ch+x1*c.ch])
	}
	return crop{pix: out, w: w, ch: c.ch}
}

// splitPoints cuts a crop wider than maxW into pieces at most maxW wide,
// each cut at the most uniform column (a gap between characters, for dark
// text on light paper or the reverse) in the last 40% of the piece.
func (c crop) splitPoints(maxW int) []int {
	cuts := []int{0}
	if c.w <= maxW {
		return append(cuts, c.w)
	}
	// Column variance over the middle rows, where glyphs are.
	v := make([]float64, c.w)
	for x := 0; x < c.w; x++ {
		var s, s2 float64
		n := 0
		for y := recH / 6; y < recH-recH/6; y++ {
			p := c.pix[y*c.w*c.ch+x*c.ch:]
			g := float64(p[0])
			if c.ch == 3 {
				g = (float64(p[0]) + float64(p[1]) + float64(p[2])) / 3
			}
			s += g
			s2 += g * g
			n++
		}
		m := s / float64(n)
		v[x] = s2/float64(n) - m*m
	}
	start := 0
	for c.w-start > maxW {
		lo, hi := start+maxW*6/10, start+maxW
		bx := hi - 1
		for x := hi - 1; x >= lo; x-- {
			if v[x] < v[bx] {
				bx = x
			}
		}
		// Cut in the middle of the run of equally uniform columns.
		l, r := bx, bx
		for l > lo && v[l-1] <= v[bx]+1 {
			l--
		}
		for r < hi-1 && v[r+1] <= v[bx]+1 {
			r++
		}
		cut := (l + r + 1) / 2
		cuts = append(cuts, cut)
		start = cut
	}
	return append(cuts, c.w)
}

// recReq is one crop to recognise.
type recReq struct{ c crop }

// sym is one decoded symbol: its class, the time steps it spans and its
// probability.
type sym struct {
	class  int32
	t0, t1 int32 // first and last time step
	p      float32
	// form is, for a letter with a mark below (markTwins), the share of
	// the pair's mass its kept form had over its steps (0.5 to 1): how
	// sure the recogniser was of comma or cedilla. 0 for other letters.
	form float32
}

// recResp is the decoded output for one crop.
type recResp struct {
	syms  []sym
	stepW float64 // crop pixels per time step
}

// rowKey buckets rows by width: everything up to the minimum width
// together, then buckets growing by 25%.
func rowKey(r rowReq) int {
	if r.row.w <= recMinW {
		return 0
	}
	return 1 + int(math.Log(float64(r.row.w)/recMinW)/math.Log(1.25))
}

// recParallelism is how many recogniser runs go at once, each on one
// intra-op thread: on the CPU, the process's ONNX Runtime thread count
// (engine/config ort-threads, by default one per CPU) capped by
// GOMAXPROCS; on CUDA one. The recogniser's many small operators scale
// poorly across threads: on one thread it costs about 43 CPU-ms per 1000
// input columns, on two about 59, so two single-threaded runs at once
// read about 1.25 times as many lines per second as one two-threaded run
// (26-27 against 33-34 ms of wall time per 1000 columns on two cores).
// Tying the count to the thread setting (ort.Options.Slots) keeps the
// recogniser within the cores the process was given, like every other
// session: each chunk holds one slot of the shared Lane while it runs.
func recParallelism(cfg ort.Options, procs int) int { return cfg.Slots(procs) }

// Narrow crops (single words, numbers, table cells) would each be padded
// to recMinW columns, as in training, and padding was a fifth of the
// columns the recogniser computed on the shared documents' pages. Instead
// they share rows: side by side, recGap blank columns apart, up to
// recPackW columns, each crop's characters decoded from its own time
// steps. The model reads a row as it reads a line of words.
const (
	recGap   = 16  // blank columns between crops sharing a row (a multiple of recStride)
	recPackW = 640 // widest row of narrow crops
)

// recSlot places crop req of a run at column x of its row.
type recSlot struct{ req, x int }

// recRow is one row of a recogniser run: one crop, or narrow crops side
// by side, padded to w columns.
type recRow struct {
	slots []recSlot
	w     int
}

// packRows lays reqs out in rows, in order: a crop at least recMinW wide
// has a row of its own, narrower ones fill shared rows.
func packRows(reqs []recReq) []recRow {
	var rows []recRow
	open, used := -1, 0 // the shared row being filled and its columns
	for i, r := range reqs {
		w := (r.c.w + recStride - 1) / recStride * recStride
		switch {
		case r.c.w >= recMinW:
			rows = append(rows, recRow{slots: []recSlot{{i, 0}}, w: padW(r.c.w)})
			continue
		case open >= 0 && used+recGap+w <= recPackW:
			rows[open].slots = append(rows[open].slots, recSlot{i, used + recGap})
			used += recGap + w
		default:
			rows = append(rows, recRow{slots: []recSlot{{i, 0}}})
			open, used = len(rows)-1, w
		}
		rows[open].w = padW(used)
	}
	return rows
}

// singleRows gives every crop a row of its own, as wide as wmax.
func singleRows(n, wmax int) []recRow {
	rows := make([]recRow, n)
	for i := range rows {
		rows[i] = recRow{slots: []recSlot{{i, 0}}, w: wmax}
	}
	return rows
}

// What a crop reads must not depend on what else is read at the same
// time. The recogniser's LSTM carries context across the crops that share
// a row and across the padding after a crop, and which pages' crops meet
// in a batch depends on timing: when rows were packed and padded batch by
// batch, a page read among others read with other confidences than alone,
// and the bench's comparison of two recognisers moved by a word between
// identical runs. So a read packs its own crops into rows (packRows over
// one page's pieces, in reading order) and batches rows, not crops, and a
// row is padded to its own width only: rows of one model run all have the
// same width. The model's cost is per input column (recBudget), so
// running rows of other widths apart costs only the per-run overhead and
// saves the columns that padding to a batch's widest row cost.

// rowReq is one request of the recogniser's batcher: a row that packRows
// laid out over the crops of one read.
type rowReq struct {
	reqs []recReq // the read's crops; row's slots index them
	row  recRow
}

// runBatch is the recogniser batcher's run function: each row's crops
// decoded, in the row's slot order.
func (e *Engine) runBatch(_ context.Context, batch []rowReq) ([][]recResp, error) {
	var reqs []recReq
	rows := make([]recRow, len(batch))
	for i, b := range batch {
		rows[i] = recRow{w: b.row.w, slots: make([]recSlot, len(b.row.slots))}
		for k, sl := range b.row.slots {
			rows[i].slots[k] = recSlot{req: len(reqs), x: sl.x}
			reqs = append(reqs, b.reqs[sl.req])
		}
	}
	flat, err := e.runRows(reqs, rows)
	if err != nil {
		return nil, err
	}
	out := make([][]recResp, len(batch))
	for i, r := range rows {
		out[i] = make([]recResp, len(r.slots))
		for k, sl := range r.slots {
			out[i][k] = flat[sl.req]
		}
	}
	return out, nil
}

// runRows runs rows (of crops in reqs) in chunks of rows of one width,
// each within recBudget, up to e.recPar at once, each holding one of the
// lane's slots (batch.Lane.Spread), and decodes each crop greedily. A
// chunk holds rows of one width only, so no row is padded beyond its own
// width, and neither rows nor chunks depend on recPar.
func (e *Engine) runRows(reqs []recReq, rows []recRow) ([]recResp, error) {
	out := make([]recResp, len(reqs))
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rows[a].w - rows[b].w })
	var chunks [][]recRow
	for i := 0; i < len(order); {
		w := rows[order[i]].w
		c := []recRow{rows[order[i]]}
		for i++; i < len(order) && rows[order[i]].w == w && (len(c)+1)*w <= recBudget; i++ {
			c = append(c, rows[order[i]])
		}
		chunks = append(chunks, c)
	}
	if e.opts.ObserveColumns != nil {
		cols := 0
		for _, r := range rows {
			cols += r.w
		}
		e.opts.ObserveColumns(cols)
	}
	err := e.opts.Lane.Spread(e.recPar, len(chunks), func(k int) error {
		return e.recChunk(reqs, chunks[k], out, chunks[k][0].w)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// padW is the tensor width for a crop: at least recMinW, a multiple of 8.
func padW(w int) int { return max(recMinW, (w+recStride-1)/recStride*recStride) }

// recChunk runs rows (of crops in reqs) padded to wmax and decodes each
// crop from its own time steps into out.
func (e *Engine) recChunk(reqs []recReq, rows []recRow, out []recResp, wmax int) error {
	probs, err := e.recProbs(reqs, rows, wmax)
	if err != nil {
		return err
	}
	defer recOutputs.Put(&probs)
	steps := wmax / recStride
	classes := len(e.dict)
	// Decode in parallel: the model is idle meanwhile.
	var wg sync.WaitGroup
	for i, row := range rows {
		for _, sl := range row.slots {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := i*steps + sl.x/recStride
				valid := min(steps-sl.x/recStride, (reqs[sl.req].c.w+recStride-1)/recStride)
				out[sl.req] = recResp{
					syms:  ctcDecode(probs[t0*classes:(t0+valid)*classes], classes, e.twin),
					stepW: float64(wmax) / float64(steps),
				}
			}()
		}
	}
	wg.Wait()
	return nil
}

// recInputs and recOutputs recycle the recogniser's input and output
// tensors (of *[]float32). A page's runs allocated about 30 MB of them
// (37 921 input columns a page on the bench's scans, at most recBudget a
// run), all garbage a run later: the collector's work and fresh pages
// every run. A run is at most recBudget columns wide but for a single
// wider line, so the buffers stay small.
var recInputs, recOutputs sync.Pool

// pooledFloats is a buffer of n floats from pool, or a new one when the
// pool has none large enough; its contents are whatever the last user
// left. Put it back with pool.Put once nothing reads it.
func pooledFloats(pool *sync.Pool, n int) *[]float32 {
	if b, ok := pool.Get().(*[]float32); ok && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]float32, n)
	return &b
}

// recProbs runs the recogniser on rows of crops from reqs, padded to
// width wmax, and returns its output, [len(rows)][wmax/8][classes]
// probabilities, in a buffer of recOutputs that the caller may put back
// once it has read it.
func (e *Engine) recProbs(reqs []recReq, rows []recRow, wmax int) ([]float32, error) {
	n := len(rows)
	plane := recH * wmax
	inBuf := pooledFloats(&recInputs, n*3*plane)
	defer recInputs.Put(inBuf)
	in := *inBuf
	clear(in) // zero is the normalised mid-gray padding
	for i, row := range rows {
		for _, sl := range row.slots {
			c := reqs[sl.req].c
			kernels.NormalizeCHW(in[i*3*plane+sl.x:], wmax, recH, c.pix, c.w, recH, c.w*c.ch, c.ch, e.recLUT, true)
		}
	}
	x, err := onnx.NewTensor(onnx.NewShape(int64(n), 3, recH, int64(wmax)), in)
	if err != nil {
		return nil, fmt.Errorf("ocr: recogniser input: %w", err)
	}
	defer x.Destroy()
	steps := wmax / recStride
	probs := *pooledFloats(&recOutputs, n*steps*len(e.dict))
	y, err := onnx.NewTensor(onnx.NewShape(int64(n), int64(steps), int64(len(e.dict))), probs)
	if err != nil {
		return nil, fmt.Errorf("ocr: recogniser output: %w", err)
	}
	defer y.Destroy()
	if err := e.rec.Run([]onnx.Value{x}, []onnx.Value{y}); err != nil {
		return nil, err
	}
	return probs, nil
}

// ctcDecode is greedy CTC decoding: the best class at every step, repeats
// merged, blanks (class 0) dropped. twin (markTwins, may be nil) pairs
// classes that differ only in their mark below: a pair competes with the
// other classes on its summed probability, its steps merge as one letter,
// and the letter takes the form with more probability over its steps.
func ctcDecode(probs []float32, classes int, twin []int32) []sym {
	var out []sym
	var own, other float32 // mass of the last symbol's class and of its twin
	prev := int32(-1)
	steps := len(probs) / classes
	for t := 0; t < steps; t++ {
		row := probs[t*classes : (t+1)*classes]
		best, bp := 0, row[0]
		for k, p := range row {
			if twin != nil && twin[k] >= 0 {
				p += row[twin[k]]
			}
			if p > bp {
				best, bp = k, p
			}
		}
		c := int32(best)
		if twin != nil && twin[c] >= 0 {
			c = min(c, twin[c]) // one class stands for the pair
		}
		switch {
		case c == prev && c != 0:
			s := &out[len(out)-1]
			s.t1 = int32(t)
			s.p = max(s.p, bp)
		case c != 0:
			out = append(out, sym{class: c, t0: int32(t), t1: int32(t), p: bp})
			own, other = 0, 0
		}
		if twin != nil && c != 0 && twin[c] >= 0 {
			s := &out[len(out)-1]
			own += row[c]
			other += row[twin[c]]
			s.class = c
			if other > own {
				s.class = twin[c]
			}
			if own+other > 0 {
				s.form = max(own, other) / (own + other)
			}
		}
		prev = c
	}
	return out
}
