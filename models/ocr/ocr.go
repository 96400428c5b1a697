// Package ocr reads text from page images with PaddleOCR's PP-OCRv4
// models (text detection, direction classification, recognition) on ONNX
// Runtime, with the pre- and post-processing written in Go.
//
// For one image, Recognize
//  1. bounds the part that differs from the paper (4x4 block means, see
//     ink.go), resizes that part at the image's scale (longest side of the
//     image at most Options.MaxSide, sides multiples of 32), normalises it
//     and runs the DB text detector: blank margins cost nothing. On the CPU
//     the detector runs on one intra-op thread, pages side by side, each
//     run holding one slot of the shared lane (see New);
//  2. turns the probability map into line quadrilaterals: threshold 0.3,
//     8-connected components, minimum-area rotated rectangle, box score
//     (mean probability inside, at least 0.6), unclip by ratio 1.5, mapped
//     back to the image's pixels;
//  3. finds the page's orientation: when most long boxes are vertical the
//     page was scanned sideways. A horizontal page whose longest lines the
//     direction classifier finds upright is taken as is; otherwise the
//     longest lines are read both ways up and the recogniser's confidence
//     decides (the classifier alone misjudges many Latin lines, giving
//     p(180) = 0.99 to upright ones). A turned page is rotated upright and
//     detected again;
//  4. cuts every line out with a perspective warp at height 48 and its own
//     width (lines wider than Options.MaxLineWidth are split at gaps) and
//     recognises them in batches of similar width shared with every other
//     page in flight; a line read with low confidence is read again turned
//     180 degrees (an upside-down label on an upright page) and the better
//     reading kept. On the CPU a batch's runs go to the recogniser as
//     several concurrent single-threaded runs, one per ONNX Runtime
//     intra-op thread the process was given (see recParallelism): the
//     model's runs scale poorly across threads;
//  5. decodes CTC greedily, keeping each character's time steps so every
//     word, and every character, gets its own quadrilateral inside the
//     line's; blank gaps in the crop's ink fix the spaces the recogniser
//     drops or invents (see spaces.go).
//
// Results are in the pixel coordinates of the image passed in, whatever
// the page's orientation.
package ocr

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redactd/redactd/kernels"
	"github.com/redactd/redactd/models/batch"
	"github.com/redactd/redactd/models/ort"
)

// Image is an 8-bit interleaved bitmap, gray (1 channel) or RGB (3), rows
// of Stride bytes; engine/page.Raster has the same layout.
type Image struct {
	W, H     int
	Channels int
	Stride   int
	Pix      []byte
}

func (im Image) validate() error {
	switch {
	case im.Channels != 1 && im.Channels != 3:
		return fmt.Errorf("ocr: image has %d channels, want 1 or 3", im.Channels)
	case im.W <= 0 || im.H <= 0:
		return fmt.Errorf("ocr: empty image %dx%d", im.W, im.H)
	case im.Stride < im.W*im.Channels:
		return fmt.Errorf("ocr: stride %d shorter than a row of %d pixels", im.Stride, im.W)
	case len(im.Pix) < (im.H-1)*im.Stride+im.W*im.Channels:
		return fmt.Errorf("ocr: %d bytes of pixels for a %dx%d image", len(im.Pix), im.W, im.H)
	}
	return nil
}

// sub returns the view of r (already clipped to im).
func (im Image) sub(r image.Rectangle) Image {
	off := r.Min.Y*im.Stride + r.Min.X*im.Channels
	end := (r.Max.Y-1)*im.Stride + r.Max.X*im.Channels
	return Image{W: r.Dx(), H: r.Dy(), Channels: im.Channels, Stride: im.Stride, Pix: im.Pix[off:end]}
}

// Line is one recognised text line.
type Line struct {
	Quad  Quad
	Text  string
	Conf  float32 // mean probability of the line's characters
	Words []Word
}

// Word is a run of non-space characters of a line.
type Word struct {
	Text string
	Quad Quad
	Conf float32
	// Chars has one quad per rune of Text.
	Chars []Quad
	minP  float32 // the lowest probability of its characters
}

// Options tune an Engine; zero values mean the defaults.
type Options struct {
	// MaxSide is the longest side of the image fed to the detector
	// (default 1536; engine/config ocr-max-side).
	MaxSide int
	// BatchSize is the most text lines per recognition batch (default 64).
	BatchSize int
	// DetBatch is the most page images per detector run (default 1). On
	// the CPU a batch saves nothing (the convolutions over a 1536-pixel
	// page keep the cores busy alone) and its activations grow with it:
	// the bench's scan corpus at 8 concurrent jobs peaked at 1258 MiB RSS
	// with batches of 4 and 705 MiB with 1, at the same pages/s. A GPU
	// may want more.
	DetBatch int
	// BatchWait is how long a request waits for its batch to fill
	// (default 3ms).
	BatchWait time.Duration
	// MaxLineWidth is the widest line crop, in pixels at height 48, fed
	// to the recogniser in one piece; wider lines are split at gaps
	// (default 960: the published recogniser's cost per column grew with
	// width, 92 ms per 1000 columns at 640 against 115 at 1600 on one
	// core; the rewritten one setup installs costs about 43 at any width
	// or batch, so the default stays for the readings it gives).
	MaxLineWidth int
	// MinConf drops lines recognised with a lower mean confidence
	// (default 0.3).
	MinConf float32
	// Model is the recogniser: ModelLatin or ModelPPOCRv4 (default
	// DefaultModel; see model.go).
	Model string
	// Charset is the characters PP-OCRv4's recogniser chooses among:
	// CharsetLatin (the default) or CharsetAll (see dict.go). ModelLatin
	// reads its own Latin set whatever this says.
	Charset string
	// DetParallel is how many detector runs may go at once on the CPU,
	// each on one thread holding one lane slot (default: every slot of the
	// lane). A second run beside the first doubles the detector's
	// activation memory (about 200 MiB at 16 concurrent scan jobs); a
	// process whose other work fills the second core anyway (the
	// pipeline: MuPDF, NER, encoding) reads as many pages a second with 1.
	DetParallel int
	// Lane, when set, is the pool of thread slots shared with other
	// models' batchers, so their runs take turns on the cores; by default
	// the three OCR models share one of ort.CurrentSlots slots.
	Lane *batch.Lane
	// Observe, when set, is told of every batch the three models run.
	Observe batch.Observer
	// ObserveColumns, when set, is told of the input columns (at height
	// 48, padding included) of every recogniser batch: the recogniser's
	// work, most of OCR's.
	ObserveColumns func(columns int)
	// NoCrossRead keeps ModelLatin from reading its doubtful lines with
	// PP-OCRv4 too (cross.go); by default it does, where PP-OCRv4's
	// recogniser is installed.
	NoCrossRead bool
}

func (o *Options) defaults() {
	if o.MaxSide <= 0 {
		o.MaxSide = 1536
	}
	o.MaxSide = max(o.MaxSide, 64)
	if o.BatchSize <= 0 {
		o.BatchSize = 64
	}
	if o.DetBatch <= 0 {
		o.DetBatch = 1
	}
	if o.BatchWait <= 0 {
		o.BatchWait = 3 * time.Millisecond
	}
	if o.MaxLineWidth <= 0 {
		o.MaxLineWidth = 960
	}
	o.MaxLineWidth = max(o.MaxLineWidth, 320)
	if o.MinConf == 0 {
		o.MinConf = 0.3
	}
	if o.Charset == "" {
		o.Charset = CharsetLatin
	}
	if o.Model == "" {
		o.Model = DefaultModel
	}
}

// Engine runs the three OCR models. It is safe for concurrent use: many
// pages may be recognised at once and their lines share batches.
type Engine struct {
	opts Options
	dict []string // CTC classes: index 0 is the blank
	twin []int32  // markTwins(dict)
	prof recProfile

	det, cls, rec  *ort.Session
	detB           *batch.Batcher[detReq, detResp]
	clsB           *batch.Batcher[clsReq, clsResp]
	recB           *batch.Batcher[rowReq, []recResp]
	recPar         int           // concurrent single-threaded recogniser runs (see recParallelism)
	cross          *Engine       // PP-OCRv4's reader of doubtful lines (cross.go), or nil
	chars          map[rune]bool // a cross reader's characters (cross.go)
	detLUT, recLUT *kernels.NormLUT
	closeErr       error
	closeOnce      sync.Once
	closed         chan struct{}
	dir            string

	// linesRead and linesCrossRead count the lines readLines read and
	// those it read with e.cross too (tests and benchmarks report them).
	linesRead, linesCrossRead atomic.Int64
}

// Model file names inside the model directory (deploy/setup.sh).
const (
	detFile  = "det.onnx"
	clsFile  = "cls.onnx"
	recFile  = "rec.onnx"
	dictFile = "ppocr_keys_v1.txt"
)

// ModelDir resolves the directory holding the OCR files: dir itself, or
// dir/ocr, or, when dir is empty, ocr/ under ort.FindModelDir.
func ModelDir(dir string) (string, error) {
	if dir == "" {
		root, err := ort.FindModelDir("")
		if err != nil {
			return "", err
		}
		dir = root
	}
	for _, d := range []string{dir, filepath.Join(dir, "ocr")} {
		if _, err := os.Stat(filepath.Join(d, detFile)); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("ocr: no %s in %s or %s (run `make setup`)", detFile, dir, filepath.Join(dir, "ocr"))
}

// New loads the models from modelDir (see ModelDir). It initialises the
// ONNX Runtime environment with defaults if nothing did before.
func New(modelDir string, opts Options) (*Engine, error) {
	opts.defaults()
	if err := CheckCharset(opts.Charset); err != nil {
		return nil, err
	}
	if err := CheckModel(opts.Model); err != nil {
		return nil, err
	}
	dir, err := ModelDir(modelDir)
	if err != nil {
		return nil, err
	}
	if !ort.Initialized() {
		if err := ort.Init(ort.Options{}); err != nil {
			return nil, err
		}
	}
	var dict []string
	if opts.Model == ModelPPOCRv4 {
		if dict, err = loadDict(filepath.Join(dir, dictFile)); err != nil {
			return nil, err
		}
	}
	e := &Engine{
		opts:   opts,
		prof:   profileOf(opts.Model),
		dict:   dict, // ModelLatin's is set by openLatinRec
		dir:    dir,
		detLUT: kernels.NewNormLUT([3]float32{0.485, 0.456, 0.406}, [3]float32{0.229, 0.224, 0.225}),
		recLUT: kernels.NewNormLUT([3]float32{0.5, 0.5, 0.5}, [3]float32{0.5, 0.5, 0.5}),
		closed: make(chan struct{}),
	}
	open := func(file string, extra ...ort.SessionOption) (*ort.Session, error) {
		p := filepath.Join(dir, file)
		in, out, err := ort.ModelIO(p)
		if err != nil {
			return nil, err
		}
		if len(in) != 1 || len(out) != 1 {
			return nil, fmt.Errorf("ocr: %s: want one input and one output, have %d and %d", p, len(in), len(out))
		}
		// Page images and text lines come in many shapes: see
		// ort.WithoutMemPattern.
		so := append([]ort.SessionOption{ort.WithoutMemPattern()}, extra...)
		return ort.NewSession(p, []string{in[0].Name}, []string{out[0].Name}, so...)
	}
	// The recogniser runs as recPar concurrent single-threaded runs.
	cfg, _ := ort.Current()
	e.recPar = recParallelism(cfg, runtime.GOMAXPROCS(0))
	if e.opts.Lane == nil {
		e.opts.Lane = batch.NewLane(e.recPar)
	}
	var recOpts []ort.SessionOption
	if e.recPar > 1 {
		recOpts = append(recOpts, ort.WithIntraOpThreads(1))
	}
	// On the CPU the detector and the direction classifier run
	// single-threaded too, one slot a run (runSlots), the detector as many
	// runs at once as the lane has slots unless DetParallel says fewer: two
	// one-thread detector runs side by side read about a tenth more pages
	// a second than one two-thread run (its parallel loops wait for their
	// slowest thread; bench/PROFILE.md), and a run that needed the whole
	// lane would wait for every slot, first in line, while the slots
	// already free stayed idle behind it.
	detPar, runSlots := 1, 0 // one run at a time, on the whole lane
	if e.recPar > 1 {
		detPar, runSlots = e.opts.Lane.Size(), 1
		if opts.DetParallel > 0 {
			detPar = min(opts.DetParallel, detPar)
		}
	}
	if e.det, err = open(detFile, ort.WithIntraOpThreads(runSlots)); err == nil {
		if e.cls, err = open(clsFile, ort.WithIntraOpThreads(runSlots)); err == nil {
			if e.rec, err = e.openRec(open, recOpts); err == nil {
				err = e.openCross(open, recOpts)
			}
		}
	}
	if err != nil {
		e.closeSessions()
		return nil, err
	}
	e.twin = markTwins(e.dict)
	lane := e.opts.Lane
	e.detB = batch.New("ocr_det", e.runDet, batch.Options[detReq]{
		MaxBatch: opts.DetBatch, MaxWait: opts.BatchWait, Key: detKey, Lane: lane, Slots: runSlots, Parallel: detPar, Observe: opts.Observe,
	})
	e.clsB = batch.New("ocr_cls", e.runCls, batch.Options[clsReq]{
		MaxBatch: opts.BatchSize, MaxWait: opts.BatchWait, Lane: lane, Slots: runSlots, Parallel: lane.Overlap(), Observe: opts.Observe,
	})
	e.recB = batch.New("ocr_rec", e.runBatch, batch.Options[rowReq]{
		MaxBatch: opts.BatchSize, MaxWait: opts.BatchWait, Key: rowKey, Lane: lane, Spread: true, Parallel: lane.Overlap(), Observe: opts.Observe,
	})
	return e, nil
}

// openRec opens the recogniser opts.Model names: the embedded
// redactd-latin, or PP-OCRv4's from the model directory, checked against
// its dictionary and narrowed to opts.Charset.
func (e *Engine) openRec(open func(string, ...ort.SessionOption) (*ort.Session, error), so []ort.SessionOption) (*ort.Session, error) {
	if e.opts.Model == ModelLatin {
		return e.openLatinRec(so)
	}
	if err := e.checkRecClasses(); err != nil {
		return nil, err
	}
	if e.opts.Charset == CharsetAll {
		return open(recFile, so...)
	}
	return e.openNarrowRec(so)
}

func (e *Engine) closeSessions() {
	ss := []*ort.Session{e.det, e.cls, e.rec}
	if e.cross != nil {
		ss = append(ss, e.cross.rec)
	}
	for _, s := range ss {
		if s != nil {
			if err := s.Close(); err != nil && e.closeErr == nil {
				e.closeErr = err
			}
		}
	}
}

// Close finishes queued work and releases the models. It is safe to call
// more than once; Recognize afterwards returns ErrClosed.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		close(e.closed)
		e.detB.Close()
		e.clsB.Close()
		e.recB.Close()
		if e.cross != nil {
			e.cross.recB.Close()
		}
		e.closeSessions()
	})
	return e.closeErr
}

// ErrClosed is returned by Recognize after Close.
var ErrClosed = errors.New("ocr: engine closed")

// Recognize reads the text of img, or of the part of it inside region
// when region is not empty (an image placed on a text page). Lines come
// in reading order, top to bottom, with quads in img's pixel coordinates.
func (e *Engine) Recognize(ctx context.Context, img Image, region image.Rectangle) ([]Line, error) {
	return e.RecognizeWith(ctx, img, region, Hints{})
}

// Hints are what a caller knows of an image before it is read, so that
// the recogniser's work, most of OCR's, goes to what is new.
type Hints struct {
	// Known, when not nil, is asked about every line the detector finds,
	// by its quad in the image's pixel coordinates: a line it reports
	// known (the caller has its text already, such as a text layer's
	// trusted words) is neither recognised nor used to judge the text's
	// orientation.
	Known func(Quad) bool
	// Upright says horizontal text is expected upright (a region of a
	// page whose text layer reads upright). Its lines are then read as
	// they stand, and those read with low confidence once more turned
	// over (as always), instead of first reading the longest both ways up
	// to judge the orientation. Vertical text is judged as ever.
	Upright bool
}

// RecognizeWith is Recognize with hints.
func (e *Engine) RecognizeWith(ctx context.Context, img Image, region image.Rectangle, h Hints) ([]Line, error) {
	if err := img.validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-e.closed:
		return nil, ErrClosed
	default:
	}
	full := image.Rect(0, 0, img.W, img.H)
	if region.Empty() {
		region = full
	}
	region = region.Intersect(full)
	if region.Dx() < 4 || region.Dy() < 4 {
		return nil, nil
	}
	off := func(p Point) Point { return Point{p.X + float64(region.Min.X), p.Y + float64(region.Min.Y)} }
	if known := h.Known; known != nil {
		h.Known = func(q Quad) bool { return known(q.mapPoints(off)) }
	}
	lines, err := e.recognize(ctx, img.sub(region), h)
	if err != nil {
		return nil, err
	}
	if region.Min != (image.Point{}) {
		for i := range lines {
			lines[i].shift(off)
		}
	}
	return lines, nil
}

// shift maps every quad of l through f.
func (l *Line) shift(f func(Point) Point) {
	l.Quad = l.Quad.mapPoints(f)
	for i := range l.Words {
		w := &l.Words[i]
		w.Quad = w.Quad.mapPoints(f)
		for j := range w.Chars {
			w.Chars[j] = w.Chars[j].mapPoints(f)
		}
	}
}
