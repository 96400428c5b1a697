package pipeline

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"math"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/malloc"
	"github.com/redactd/redactd/kernels"
	"github.com/redactd/redactd/models/batch"
	"github.com/redactd/redactd/models/hand"
	"github.com/redactd/redactd/models/ner"
	"github.com/redactd/redactd/models/ocr"
	"github.com/redactd/redactd/models/ort"
)

// Models are the loaded ONNX models a pipeline uses; Close releases them
// after the pipeline is closed.
type Models struct {
	NER *ner.Model
	// NERMulti, when not nil, reads the blocks in the six languages
	// besides English (Settings.NERModelMulti, DetectorsByLang).
	NERMulti *ner.Model
	OCR      *ocr.Engine
	Hand     *hand.Model
}

// Close releases the models.
func (m *Models) Close() error {
	var errs []error
	if m.Hand != nil {
		errs = append(errs, m.Hand.Close())
	}
	if m.OCR != nil {
		errs = append(errs, m.OCR.Close())
	}
	if m.NER != nil {
		errs = append(errs, m.NER.Close())
	}
	if m.NERMulti != nil {
		errs = append(errs, m.NERMulti.Close())
	}
	return errors.Join(errs...)
}

// LoadModels initialises ONNX Runtime on the configured device and loads
// the NER model and, unless OCR is off, the OCR models. All model runs
// share one lane of thread slots, so NER and OCR runs fill the cores
// between them without oversubscribing them.
func LoadModels(cfg Settings, met *Metrics) (*Models, error) {
	lib, err := ort.FindLibrary(cfg.ORTLib)
	if err != nil {
		return nil, fmt.Errorf("%w (run `make setup`, or set --ort-lib)", err)
	}
	if err := ort.Init(ort.Options{LibPath: lib, Device: cfg.Device, Threads: cfg.ORTThreads}); err != nil {
		return nil, err
	}
	// One slot per thread the models may keep busy (ort.CurrentSlots):
	// every model's runs hold slots of this lane while they run.
	lane := batch.NewLane(ort.CurrentSlots())
	m := &Models{}
	m.NER, err = ner.Load(cfg.NERModel, ner.Options{BatchSize: cfg.BatchSize, BatchWait: cfg.BatchWait, Lane: lane, Observe: met.batch, EntityProb: float32(cfg.NERRecall), PersonProb: float32(cfg.NERPersonRecall)})
	if err != nil {
		return nil, fmt.Errorf("ner model %q: %w", cfg.NERModel, err)
	}
	if !ner.Off(cfg.NERModelMulti) {
		// Its batches are counted apart (model="ner_multilingual"), so the
		// metrics tell how much of the NER work the non-English blocks are.
		observe := func(_ string, size int, took time.Duration) { met.batch("ner_multilingual", size, took) }
		m.NERMulti, err = ner.Load(cfg.NERModelMulti, ner.Options{BatchSize: cfg.BatchSize, BatchWait: cfg.BatchWait, Lane: lane, Observe: observe, EntityProb: float32(cfg.NERRecall), PersonProb: float32(cfg.NERMultiPersonRecall)})
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("ner model %q (ner-model-multilingual): %w", cfg.NERModelMulti, err)
		}
	}
	// The handwriting classifier is embedded and small: always loaded.
	if m.Hand, err = hand.Load(); err != nil {
		m.Close()
		return nil, err
	}
	if cfg.OCR != "off" {
		detBatch := 1 // ocr.Options.DetBatch: memory, not speed, on the CPU
		if cfg.Device == "cuda" {
			detBatch = 4 // as before on the GPU, where no measurement says otherwise
		}
		// One detector run at a time: the pipeline's other work fills the
		// second core, and a second run would cost 200 MiB of activations
		// at 16 scan jobs for no more pages a second (ocr.Options).
		m.OCR, err = ocr.New(cfg.ModelDir, ocr.Options{MaxSide: cfg.OCRMaxSide, Charset: cfg.OCRCharset, Model: cfg.OCRModel, BatchSize: cfg.BatchSize, BatchWait: cfg.BatchWait, DetBatch: detBatch, DetParallel: 1, Lane: lane, Observe: met.batch,
			ObserveColumns: func(n int) { met.ocrColumns.Add(float64(n)) }})
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("%w (run `make setup`, set --model-dir, or --ocr off)", err)
		}
	}
	return m, nil
}

// The routed NER detector is told each line's language by detect.Run.
var _ detect.LangDetector = (*ner.Routed)(nil)

// Detectors are what the pipeline runs on a page: the recognizers and the
// NER model m, which reads windows in capitals three ways
// (ner.DetectorOptions.LowerCase, from the gazetteer). The evaluation
// (models/ner/internal/nereval) and the detection decisions' tests call
// it too, so that they score what the service masks. met, when not nil,
// counts the model's windows.
func Detectors(m *ner.Model, met *Metrics) ([]detect.Detector, error) {
	return DetectorsByLang(m, nil, ner.RoutedOptions{}, met)
}

// DetectorsByLang are Detectors with a second NER model, other, for the
// blocks in the six languages besides English (ner.Routed: English
// blocks, and blocks whose language cannot be told, stay with m); other
// nil is Detectors.
func DetectorsByLang(m, other *ner.Model, ro ner.RoutedOptions, met *Metrics) ([]detect.Detector, error) {
	rs, err := detect.Recognizers()
	if err != nil {
		return nil, err
	}
	gz, err := gazetteer.Get()
	if err != nil {
		return nil, err
	}
	o := ner.DetectorOptions{LowerCase: gz.LowerCase}
	if met != nil {
		o.ObserveWindows = met.nerRead
	}
	if other == nil {
		return append(rs, ner.NewDetector(m, o)), nil
	}
	return append(rs, ner.NewRouted(ner.NewDetector(m, o), ner.NewDetector(other, o), ro)), nil
}

// Open builds the complete pipeline of cfg: recognizers, the NER model and
// OCR. It is what `redactd serve`, the demo and the end-to-end tests run.
// Closing the returned Pipeline also releases its models.
func Open(cfg Settings, log *slog.Logger, reg prometheus.Registerer) (*Pipeline, error) {
	met, err := NewMetrics(reg)
	if err != nil {
		return nil, fmt.Errorf("pipeline: metrics: %w", err)
	}
	m, err := LoadModels(cfg, met)
	if err != nil {
		return nil, err
	}
	ds, err := DetectorsByLang(m.NER, m.NERMulti, ner.RoutedOptions{EnglishWhere: float32(cfg.NERMultiEnglish), Route: ner.DefaultRouting}, met)
	if err != nil {
		m.Close()
		return nil, err
	}
	deps := Deps{Detectors: ds, Log: log, Metrics: met, Hand: m.Hand}
	if m.OCR != nil {
		deps.OCR = ocrAdapter{m.OCR}
		if log != nil {
			log.Info("ocr recogniser", "model", ocr.Describe(cfg.OCRModel))
		}
	}
	p, err := New(cfg, deps)
	if err != nil {
		m.Close()
		return nil, err
	}
	p.models = m
	if log != nil {
		// Set when the program loaded (package malloc); 0: left to glibc.
		log.Info("c allocator", "arena_limit", malloc.ArenaLimit())
	}
	return p, nil
}

// ocrAdapter turns models/ocr lines into page words (quads in raster
// pixels; the pipeline scales them to points).
type ocrAdapter struct{ e *ocr.Engine }

// regionMargin is the blank paper put around a region before it is read
// (at least regionMarginMin pixels, or half the region's height): the
// text detector finds a one-line image of text only with paper around it.
const regionMarginMin = 32

// smallRegion is the height in pixels under which a region is read at
// twice its scale: the text detector misses letters a few pixels tall,
// as a picture of 6-pt print is at 150 dpi, all the more in light gray.
const smallRegion = 64

func (a ocrAdapter) Recognize(ctx context.Context, r *page.Raster, region PixelRect, h ReadHints) ([]page.Word, error) {
	img := ocr.Image{W: r.W, H: r.H, Channels: r.Channels, Stride: r.Stride, Pix: r.Pix}
	var dx, dy float64
	s := 1.0 // raster pixels per pixel of img
	if !region.Empty() {
		region = PixelRect{max(region.X0, 0), max(region.Y0, 0), min(region.X1, r.W), min(region.Y1, r.H)}
		if region.Empty() {
			return nil, nil
		}
		m := max(regionMarginMin, (region.Y1-region.Y0)/2)
		img = padded(r, region, m)
		dx, dy = float64(region.X0-m), float64(region.Y0-m)
		if region.Y1-region.Y0 < smallRegion {
			img, s = doubled(img), 0.5
		}
	}
	pageQuad := func(q ocr.Quad) page.Quad {
		pt := func(p ocr.Point) page.Point { return page.Point{X: p.X*s + dx, Y: p.Y*s + dy} }
		return page.Quad{UL: pt(q.UL), UR: pt(q.UR), LL: pt(q.LL), LR: pt(q.LR)}
	}
	hints := ocr.Hints{Upright: h.Upright}
	if h.Known != nil {
		hints.Known = func(q ocr.Quad) bool { return h.Known(pixelBounds(pageQuad(q))) }
	}
	lines, err := a.e.RecognizeWith(ctx, img, image.Rectangle{}, hints)
	if err != nil {
		return nil, err
	}
	var words []page.Word
	for li, l := range lines {
		for _, w := range l.Words {
			pw := page.Word{Text: w.Text, Quad: pageQuad(w.Quad), Line: li, Source: page.SourceOCR, Conf: w.Conf}
			if len(w.Chars) > 0 {
				pw.Chars = make([]page.Quad, len(w.Chars))
				for k, c := range w.Chars {
					pw.Chars[k] = pageQuad(c)
				}
			}
			words = append(words, pw)
		}
	}
	words = regroupOCR(words, r)
	if h.DPI > 0 {
		words, err = a.readCombs(ctx, img, h.DPI/s, words, pageQuad)
	}
	return words, err
}

// pixelBounds is the smallest pixel rectangle holding q (raster pixels).
func pixelBounds(q page.Quad) PixelRect {
	b := q.Bounds()
	return PixelRect{int(math.Floor(b.X0)), int(math.Floor(b.Y0)), int(math.Ceil(b.X1)), int(math.Ceil(b.Y1))}
}

// padded copies region of r into a new image with m pixels of white
// paper on every side.
func padded(r *page.Raster, region PixelRect, m int) ocr.Image {
	w, h, ch := region.X1-region.X0+2*m, region.Y1-region.Y0+2*m, r.Channels
	pix := make([]byte, w*h*ch)
	for i := range pix {
		pix[i] = 255
	}
	for y := region.Y0; y < region.Y1; y++ {
		src := r.Pix[y*r.Stride+region.X0*ch : y*r.Stride+region.X1*ch]
		copy(pix[((y-region.Y0+m)*w+m)*ch:], src)
	}
	return ocr.Image{W: w, H: h, Channels: ch, Stride: w * ch, Pix: pix}
}

func (a ocrAdapter) ReadBoxes(ctx context.Context, r *page.Raster, quads []page.Quad) (string, int, error) {
	img := ocr.Image{W: r.W, H: r.H, Channels: r.Channels, Stride: r.Stride, Pix: r.Pix}
	qs := make([]ocr.Quad, len(quads))
	for i, q := range quads {
		pt := func(p page.Point) ocr.Point { return ocr.Point{X: p.X, Y: p.Y} }
		qs[i] = ocr.Quad{UL: pt(q.UL), UR: pt(q.UR), LL: pt(q.LL), LR: pt(q.LR)}
	}
	return a.e.ReadBoxes(ctx, img, qs)
}

// doubled is img at twice its size (bilinear).
func doubled(img ocr.Image) ocr.Image {
	out := ocr.Image{W: 2 * img.W, H: 2 * img.H, Channels: img.Channels}
	out.Stride = out.W * out.Channels
	out.Pix = make([]byte, out.Stride*out.H)
	kernels.ResizeBilinear(out.Pix, out.W, out.H, out.Stride, img.Pix, img.W, img.H, img.Stride, img.Channels)
	return out
}
