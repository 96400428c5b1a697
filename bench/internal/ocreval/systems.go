package ocreval

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/redactd/redactd/bench/internal/peers"
	"github.com/redactd/redactd/models/ocr"
)

// Run is one system's reading of the pages: the words it found on each,
// and the wall time from the first page read from disk to the last one
// recognised.
type Run struct {
	Name, Version, How string
	Missing, Err       string // not installed; failed
	Pages              int
	Wall               time.Duration
	// CPU is the processor time (user and system) the system used: the
	// bench process's own for redactd, its child processes' for
	// Tesseract. Unlike Wall it barely depends on other work sharing the
	// machine.
	CPU   time.Duration
	Words [][]Word // by page
}

// PagesPerSec is pages over wall time (0 when it did not run).
func (r Run) PagesPerSec() float64 {
	if r.Missing != "" || r.Err != "" || r.Wall <= 0 {
		return 0
	}
	return float64(r.Pages) / r.Wall.Seconds()
}

// Evaluate scores a run against the pages' truth, in all and by page.
func Evaluate(pages []*Page, r Run) (total Tally, byPage []Tally) {
	if r.Missing != "" || r.Err != "" || len(r.Words) != len(pages) {
		return Tally{}, nil
	}
	byPage = make([]Tally, len(pages))
	for i, p := range pages {
		byPage[i] = Score(p.Lines, r.Words[i])
		total.Add(byPage[i])
	}
	return total, byPage
}

// Redactd reads the pages with e, inFlight pages at a time (the pipeline
// has several pages waiting on OCR at once, whose lines share
// recognition batches). Each page is read from its PNG file and decoded
// inside the timed span, as Tesseract must do too. Before timing, one
// unmeasured call on a corner of the first page warms ONNX Runtime up.
func Redactd(ctx context.Context, e *ocr.Engine, pages []*Page, inFlight int) Run {
	r := Run{Name: "redactd OCR (models/ocr)",
		How: fmt.Sprintf("in process: ocr.New(models, ocr.Options{}) (character set latin, the default) after ort.Init with the server's defaults, Recognize on each decoded PNG, %d pages in flight; the engine's own lane, so detector runs go one a CPU (the server runs one at a time beside its other work: ocr.Options.DetParallel)", inFlight)}
	if len(pages) > 0 {
		img, err := load(pages[0].PNG)
		if err == nil {
			_, err = e.Recognize(ctx, img, image.Rect(0, 0, img.W, img.H/4))
		}
		if err != nil {
			r.Err = "warm-up: " + err.Error()
			return r
		}
	}
	r.Words = make([][]Word, len(pages))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan int)
	cpu0 := cpuTime(syscall.RUSAGE_SELF)
	start := time.Now()
	for range max(inFlight, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ws, err := recognize(ctx, e, pages[i].PNG)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("%s: %w", pages[i].Name, err)
					}
					mu.Unlock()
					continue
				}
				r.Words[i] = ws
			}
		}()
	}
	for i := range pages {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	r.Wall = time.Since(start)
	r.CPU = cpuTime(syscall.RUSAGE_SELF) - cpu0
	if first == nil {
		first = ctx.Err()
	}
	if first != nil {
		r.Err = first.Error()
		return r
	}
	r.Pages = len(pages)
	return r
}

func recognize(ctx context.Context, e *ocr.Engine, path string) ([]Word, error) {
	img, err := load(path)
	if err != nil {
		return nil, err
	}
	lines, err := e.Recognize(ctx, img, image.Rectangle{})
	if err != nil {
		return nil, err
	}
	var out []Word
	for _, l := range lines {
		for _, w := range l.Words {
			x0, y0, x1, y1 := w.Quad.Bounds()
			out = append(out, Word{Text: w.Text, Box: Box{x0, y0, x1, y1}})
		}
	}
	return out, nil
}

// load decodes a PNG into a gray ocr.Image.
func load(path string) (ocr.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return ocr.Image{}, err
	}
	defer f.Close()
	m, err := png.Decode(bufio.NewReader(f))
	if err != nil {
		return ocr.Image{}, fmt.Errorf("%s: %w", path, err)
	}
	g, ok := m.(*image.Gray)
	if !ok {
		g = image.NewGray(m.Bounds())
		draw.Draw(g, g.Rect, m, m.Bounds().Min, draw.Src)
	}
	return ocr.Image{W: g.Rect.Dx(), H: g.Rect.Dy(), Channels: 1, Stride: g.Stride, Pix: g.Pix}, nil
}

// Tesseract reads the pages with Tesseract (see peers.TesseractPNG),
// workers processes at a time, and parses the words of its TSV output.
func Tesseract(ctx context.Context, pages []*Page, workers int) Run {
	pngs := make([]string, len(pages))
	outs := make([]string, len(pages))
	for i, p := range pages {
		pngs[i] = p.PNG
		outs[i] = strings.TrimSuffix(p.PNG, ".png") + ".tess"
	}
	cpu0 := cpuTime(syscall.RUSAGE_CHILDREN)
	res := peers.TesseractPNG(ctx, pngs, outs, workers)
	r := Run{Name: res.Name, Version: res.Version, How: res.Command, Missing: res.Missing, Err: res.Err, Pages: res.Pages, Wall: res.Wall,
		CPU: cpuTime(syscall.RUSAGE_CHILDREN) - cpu0}
	if r.Missing != "" || r.Err != "" {
		return r
	}
	r.Words = make([][]Word, len(pages))
	for i := range pages {
		ws, err := readTSV(outs[i] + ".tsv")
		if err != nil {
			r.Err = err.Error()
			return r
		}
		r.Words[i] = ws
	}
	return r
}

// cpuTime is the user and system time of the process (RUSAGE_SELF) or of
// its children waited for (RUSAGE_CHILDREN), 0 when unknown.
func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func readTSV(path string) ([]Word, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseTSV(string(b))
}

// ParseTSV returns the words (level 5 rows with text) of Tesseract's TSV
// output: level, page, block, paragraph, line and word numbers, left,
// top, width, height, confidence, text.
func ParseTSV(s string) ([]Word, error) {
	var out []Word
	for n, line := range strings.Split(s, "\n") {
		if n == 0 || line == "" {
			continue // header
		}
		f := strings.Split(strings.TrimRight(line, "\r"), "\t")
		if len(f) < 12 {
			return nil, fmt.Errorf("tesseract tsv line %d: %d fields, want 12", n+1, len(f))
		}
		if f[0] != "5" || strings.TrimSpace(f[11]) == "" {
			continue
		}
		var v [4]float64
		for k := range v {
			x, err := strconv.Atoi(f[6+k])
			if err != nil {
				return nil, fmt.Errorf("tesseract tsv line %d: %w", n+1, err)
			}
			v[k] = float64(x)
		}
		out = append(out, Word{Text: strings.TrimSpace(f[11]), Box: Box{v[0], v[1], v[0] + v[2], v[1] + v[3]}})
	}
	return out, nil
}
