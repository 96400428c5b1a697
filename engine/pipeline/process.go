package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"sync"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/burn"
)

// pageResult is one page after burn and encode, waiting for the writer.
type pageResult struct {
	enc   *encodedPage
	masks []contract.Mask
	words []contract.Word
	w, h  float64 // page size in points
	err   error
	stats pageStats
}

// Per-page stages timed for the document's report.
const (
	stageRender = iota // load and render
	stageOCR
	stageDetect
	stageRelease // the release check: signs, and on pages with one, burn and OCR of the burned page
	stageEncode  // burn and encode
	stageVisual  // faces and codes in the page's pictures (visual.go), handwriting (hand.go)
	numStages
)

// stageNames are the report's timings_ms keys of the per-page stages.
var stageNames = [numStages]string{"render", "ocr", "detect", "release", "burn_encode", "visual"}

// pageStats is what one page tells the document's report.
type pageStats struct {
	ocr          bool
	blind        bool // OCR read the whole page, nothing known of it (readPixels)
	releaseReads int  // readings of the burned page by the release check
	t            [numStages]time.Duration

	// ink is the drawn ink the text layer left unexplained (readPixels'
	// regions, raster pixels; none on pages read whole), for handPage;
	// drawn, those of its regions outside the page's images: drawings,
	// where a code drawn as vectors lies, which visualPage looks at.
	ink, drawn []PixelRect
}

// Process implements contract.Processor.
func (p *Pipeline) Process(ctx context.Context, in contract.ProcessInput, out io.Writer, progress func(contract.Progress) error) (*contract.ProcessResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	src, err := p.open(in.Path, in.Kind)
	p.metrics.observe("open", start)
	opened := time.Since(start)
	if err != nil {
		return nil, err
	}
	defer src.Close()

	n := src.NumPages()
	if n == 0 {
		return nil, contract.DocErrorf("the document has no pages")
	}
	// The page limit is the job service's rule, applied once, when this
	// report gives it the count: a document over it is refused there.
	if err := progress(contract.Progress{Status: contract.StatusAnalyzing, PageCount: n}); err != nil {
		return nil, err
	}

	job := &pageJob{
		opts: detect.Options{Categories: in.Options.Categories, Included: in.Options.Included, Excluded: in.Options.Excluded,
			IgnoreDiacritics: p.cfg.TermsIgnoreDiacritics, Language: lang.Code(in.Options.Language)},
		keepWords: in.KeepWords,
	}
	if in.Fixed {
		job.fixed = fixedByPage(in.Masks)
	}
	w, err := newPDFWriter(out, p.cfg, p.metrics)
	if err != nil {
		return nil, err
	}

	results := make([]chan pageResult, n)
	for i := range results {
		results[i] = make(chan pageResult, 1)
	}
	doc := newDocState()
	slots := make(chan struct{}, p.window)
	var analysed sync.WaitGroup
	analysed.Add(n)
	redacting := make(chan struct{})
	go func() { analysed.Wait(); close(redacting) }()

	// Dispatcher: pages enter the pipeline in order, at most window at a time.
	go func() {
		for i := 0; i < n; i++ {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				for ; i < n; i++ {
					results[i] <- pageResult{err: ctx.Err()}
					analysed.Done()
				}
				return
			}
			p.submitPage(ctx, src, i, job, doc, results[i], analysed.Done)
		}
	}()

	res := &contract.ProcessResult{PageCount: n, Pages: make([]contract.PageInfo, 0, n),
		Timings: map[string]time.Duration{"open": opened}}
	var writing time.Duration
	reportedRedacting := false
	for i := 0; i < n; i++ {
		var r pageResult
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		<-slots
		if r.err != nil {
			cancel()
			return nil, r.err
		}
		if !reportedRedacting {
			select {
			case <-redacting:
				reportedRedacting = true
				if err := progress(contract.Progress{Status: contract.StatusRedacting, PageCount: n}); err != nil {
					return nil, err
				}
			default:
			}
		}
		t := time.Now()
		if err := w.writePage(r.enc); err != nil {
			return nil, err
		}
		p.metrics.observe("write", t)
		writing += time.Since(t)
		res.Masks = append(res.Masks, r.masks...)
		res.Words = append(res.Words, r.words...)
		res.Pages = append(res.Pages, contract.PageInfo{OCR: r.stats.ocr || r.stats.releaseReads > 0, Width: r.w, Height: r.h})
		for k, d := range r.stats.t {
			res.Timings[stageNames[k]] += d
		}
		st := contract.StatusAnalyzing
		if reportedRedacting {
			st = contract.StatusRedacting
		}
		if err := progress(contract.Progress{Status: st, PageCount: n, PagesDone: i + 1}); err != nil {
			return nil, err
		}
	}
	if !reportedRedacting {
		if err := progress(contract.Progress{Status: contract.StatusRedacting, PageCount: n}); err != nil {
			return nil, err
		}
	}
	if err := w.close(); err != nil {
		return nil, err
	}
	res.OutputBytes = w.bytes()
	res.Timings["write"] = writing
	// The time a document takes is observed once, by the engine, from
	// dequeue to terminal state (redactd_document_duration_seconds); the
	// pipeline's own share is in the result's timings and the stage metrics.
	res.Timings["total"] = time.Since(start)
	return res, nil
}

// submitPage runs one page through render → analyse → encode, delivering
// exactly one result on done (and calling analysed once) whatever happens.
// Once a worker starts on it, the page runs under its own deadline
// (page-timeout), so one hostile page cannot hold a worker forever; time
// spent queued or waiting for the pixel budget does not count.
func (p *Pipeline) submitPage(ctx context.Context, src source, i int, job *pageJob, doc *docState, done chan<- pageResult, analysed func()) {
	pctx, cancel := ctx, context.CancelFunc(func() {})
	var once, delivered sync.Once
	markAnalysed := func() { once.Do(analysed) }
	deliver := func(r pageResult) {
		delivered.Do(func() {
			if r.err != nil && errors.Is(pctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
				r.err = contract.DocErrorf(fmt.Sprintf("page %d took longer than %v to process", i+1, p.cfg.PageTimeout))
			}
			cancel()
			markAnalysed()
			done <- r
		})
	}
	fail := func(err error) { deliver(pageResult{err: err}) }
	var pg *page.Page
	var pix int64
	release := func() { p.releasePage(pg, pix); pg, pix = nil, 0 }
	guard := func(stage string, fn func()) func() {
		return func() {
			defer func() {
				if v := recover(); v != nil {
					p.log.Error("pipeline: panic", "stage", stage, "page", i, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
					release()
					fail(contract.DocErrorf(fmt.Sprintf("page %d could not be processed", i+1)))
				}
			}()
			fn()
		}
	}
	submit := func(pool interface{ Submit(func()) error }, stage string, fn func()) {
		if err := pool.Submit(guard(stage, fn)); err != nil {
			release()
			fail(fmt.Errorf("pipeline: submit %s: %w", stage, err))
		}
	}

	var st pageStats
	submit(p.render, "render", func() {
		if p.cfg.PageTimeout > 0 {
			pctx, cancel = context.WithTimeout(ctx, p.cfg.PageTimeout)
		}
		var err error
		t := time.Now()
		pg, pix, err = p.loadAndRender(ctx, pctx, src, i)
		st.t[stageRender] = time.Since(t)
		if err != nil {
			fail(err)
			return
		}
		if job.fixed != nil {
			// A fixed mask set: no words to read, nothing to detect.
			markAnalysed()
			submit(p.encode, "encode", func() {
				t := time.Now()
				r := p.burnFixedAndEncode(pg, job.fixed[i])
				st.t[stageEncode] = time.Since(t)
				r.stats = st
				release()
				deliver(r)
			})
			return
		}
		submit(p.analyse, "analyse", func() {
			spans, err := p.analysePage(pctx, pg, job.opts, doc, &st)
			if err != nil {
				release()
				fail(err)
				return
			}
			t := time.Now()
			vis, _, err := p.visualPage(pctx, pg, job.opts, st.drawn)
			if err == nil {
				var hw []burn.Box
				hw, _, err = p.handPage(pctx, pg, job.opts, st.ink)
				vis = append(vis, hw...)
			}
			st.t[stageVisual] = time.Since(t)
			if err != nil {
				release()
				fail(err)
				return
			}
			markAnalysed()
			// The release check: a page showing a sign is burned here
			// and its burned pixels read (release.go); others are burned
			// with their encoding, as always.
			var burned []burn.Box
			t = time.Now()
			signs, at := p.checkRelease(pg)
			if st.blind {
				// Every glyph was read from the pixels and detected
				// already: the layer's broken words hid nothing.
				signs = 0
			}
			if signs != 0 {
				burned, err = p.releaseCheck(pctx, pg, p.burnSpans(pg, spans, vis), signs, at, job.opts, &st)
			}
			st.t[stageRelease] = time.Since(t)
			p.metrics.observe("release", t)
			if err != nil {
				release()
				fail(err)
				return
			}
			submit(p.encode, "encode", func() {
				t := time.Now()
				var r pageResult
				if signs != 0 {
					r = p.encodeBurned(pg, burned)
				} else {
					r = p.encodeBurned(pg, p.burnSpans(pg, spans, vis))
				}
				if job.keepWords {
					r.words = pageWords(pg)
				}
				st.t[stageEncode] = time.Since(t)
				r.stats = st
				release()
				deliver(r)
			})
		})
	})
}

// loadAndRender loads page i and renders it at the configured dpi (lower
// when the page would exceed the pixel limit), holding its pixels from
// the process-wide budget until releasePage.
//
// Waiting for the budget honours ctx (the document's); the work itself
// honours pctx (the page's deadline).
func (p *Pipeline) loadAndRender(ctx, pctx context.Context, src source, i int) (*page.Page, int64, error) {
	t := time.Now()
	lp, err := src.Load(pctx, i)
	if err != nil {
		return nil, 0, err
	}
	defer lp.Close()
	w, h := lp.Size()
	dpi, err := p.pageDPI(i, w, h)
	if err != nil {
		return nil, 0, err
	}
	// The budget covers the raster and, for image files, the decoded
	// source image, which can be much larger than the raster.
	need := min(max(pixelsAt(w, h, dpi), lp.DecodePixels()), p.maxPix)
	if err := p.pixels.Acquire(ctx, need); err != nil {
		return nil, 0, err
	}
	p.metrics.pixelsInFlight.Add(float64(need))
	pg := &page.Page{Index: i, Width: w, Height: h, DPI: dpi, Words: lp.Words(), ImageRegions: lp.ImageRegions(), HiddenText: lp.HiddenTextRegions()}
	p.metrics.observe("load", t)
	t = time.Now()
	r, err := lp.Render(pctx, dpi, p.cfg.MaxPagePixels)
	p.metrics.observe("render", t)
	if err != nil {
		p.releasePage(pg, need)
		return nil, 0, err
	}
	pg.Raster = r
	return pg, need, nil
}

// minDPI is the lowest resolution a very large page is written at before
// it is refused: below it, ordinary text is no longer legible.
const minDPI = 18

// pageDPI is the resolution page i of w x h points is rendered at: the
// configured dpi, or less when the raster would exceed max-page-pixels.
// Sizes are checked in floating point, so absurd MediaBoxes cannot
// overflow the pixel count.
func (p *Pipeline) pageDPI(i int, w, h float64) (float64, error) {
	if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return 0, contract.DocErrorf(fmt.Sprintf("page %d has an invalid size", i+1))
	}
	dpi := p.cfg.DPI
	limit := float64(p.cfg.MaxPagePixels)
	px := (w*dpi/72 + 1) * (h*dpi/72 + 1)
	if px <= limit {
		return dpi, nil
	}
	// Very large pages are written at a lower resolution rather than
	// refused; the margin absorbs the renderer rounding sizes up.
	dpi *= math.Sqrt(limit/px) * 0.99
	if dpi < minDPI {
		return 0, contract.DocErrorf(fmt.Sprintf("page %d is too large (%.0f x %.0f pt)", i+1, w, h))
	}
	return dpi, nil
}

func (p *Pipeline) releasePage(pg *page.Page, pix int64) {
	if pg != nil && pg.Raster != nil {
		pg.Raster.Release()
		pg.Raster = nil
	}
	if pix > 0 {
		p.pixels.Release(pix)
		p.metrics.pixelsInFlight.Sub(float64(pix))
	}
}

func pixelsAt(w, h, dpi float64) int64 {
	return int64(w*dpi/72+1) * int64(h*dpi/72+1)
}
