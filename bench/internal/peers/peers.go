// Package peers times the tools redactd is compared with, on the same
// files: `mutool draw` rasterising to PNG in one process; pdftoppm plus
// Tesseract at their best (OMP_THREAD_LIMIT=1, one process per core);
// OCRmyPDF; and Tesseract alone on PNG pages (the OCR comparison). A tool that is not installed gives a Result saying so.
package peers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/redactd/redactd/bench/internal/corpus"
)

// Result is one peer's run over a set of files.
type Result struct {
	Name    string
	Command string // how it was run, for the report
	Version string
	Missing string // why it did not run (tool not installed), or ""
	Err     string // first failure, if any
	Pages   int
	Wall    time.Duration
}

// PagesPerSecond is pages over wall time (0 when it did not run).
func (r Result) PagesPerSecond() float64 {
	if r.Missing != "" || r.Err != "" || r.Wall <= 0 {
		return 0
	}
	return float64(r.Pages) / r.Wall.Seconds()
}

// Mutool rasterises every file to PNGs at dpi with one mutool process at
// a time.
func Mutool(ctx context.Context, files []corpus.File, dpi float64, tmp string) Result {
	r := Result{Name: "mutool draw", Command: fmt.Sprintf("mutool draw -q -r %g -o OUT/p%%d.png FILE (one process, files in turn)", dpi)}
	if r.Missing = missing("mutool"); r.Missing != "" {
		return r
	}
	r.Version = version("mutool", "-v")
	start := time.Now()
	for i, f := range files {
		out := filepath.Join(tmp, fmt.Sprintf("mutool-%d", i))
		if err := os.MkdirAll(out, 0o755); err != nil {
			r.Err = err.Error()
			return r
		}
		if err := run(ctx, nil, "mutool", "draw", "-q", "-r", fmt.Sprint(dpi), "-o", filepath.Join(out, "p%d.png"), f.Path); err != nil {
			r.Err = err.Error()
			return r
		}
		r.Pages += f.Pages
		os.RemoveAll(out)
	}
	r.Wall = time.Since(start)
	return r
}

// Tesseract rasterises every file with pdftoppm at dpi (gray PNG) and
// reads every page with Tesseract into TSV (words with boxes, what a
// redactor needs), each tool single-threaded with workers processes at a
// time: pdftoppm over files, then tesseract over pages.
func Tesseract(ctx context.Context, files []corpus.File, dpi float64, workers int, tmp string) Result {
	r := Result{Name: "pdftoppm + tesseract",
		Command: fmt.Sprintf("pdftoppm -r %g -gray -png FILE OUT/p; OMP_THREAD_LIMIT=1 tesseract PAGE.png OUT -l eng tsv (%d processes at a time)", dpi, workers)}
	for _, tool := range []string{"pdftoppm", "tesseract"} {
		if r.Missing = missing(tool); r.Missing != "" {
			return r
		}
	}
	r.Version = version("tesseract", "--version") + "; " + version("pdftoppm", "-v")
	env := []string{"OMP_THREAD_LIMIT=1"}
	start := time.Now()
	dirs := make([]string, len(files))
	err := pool(ctx, workers, len(files), func(i int) error {
		dirs[i] = filepath.Join(tmp, fmt.Sprintf("tess-%d", i))
		if err := os.MkdirAll(dirs[i], 0o755); err != nil {
			return err
		}
		return run(ctx, nil, "pdftoppm", "-r", fmt.Sprint(dpi), "-gray", "-png", files[i].Path, filepath.Join(dirs[i], "p"))
	})
	var pngs []string
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "p*.png"))
		pngs = append(pngs, m...)
	}
	sort.Strings(pngs)
	if err == nil {
		err = pool(ctx, workers, len(pngs), func(i int) error {
			return run(ctx, env, "tesseract", pngs[i], strings.TrimSuffix(pngs[i], ".png"), "-l", "eng", "tsv")
		})
	}
	r.Wall = time.Since(start)
	for _, d := range dirs {
		os.RemoveAll(d)
	}
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Pages = len(pngs)
	return r
}

// TesseractPNG reads every PNG with Tesseract into TSV (words with
// boxes), single-threaded (OMP_THREAD_LIMIT=1), workers processes at a
// time, with the default page segmentation; the TSV of pngs[i] is written
// to outs[i]+".tsv". Pages counts the pages read.
func TesseractPNG(ctx context.Context, pngs, outs []string, workers int) Result {
	r := Result{Name: "tesseract",
		Command: fmt.Sprintf("OMP_THREAD_LIMIT=1 tesseract PAGE.png OUT -l eng tsv (%d processes at a time)", workers)}
	if r.Missing = missing("tesseract"); r.Missing != "" {
		return r
	}
	if len(pngs) != len(outs) {
		r.Err = fmt.Sprintf("%d images for %d outputs", len(pngs), len(outs))
		return r
	}
	r.Version = version("tesseract", "--version")
	env := []string{"OMP_THREAD_LIMIT=1"}
	start := time.Now()
	err := pool(ctx, workers, len(pngs), func(i int) error {
		return run(ctx, env, "tesseract", pngs[i], outs[i], "-l", "eng", "tsv")
	})
	r.Wall = time.Since(start)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Pages = len(pngs)
	return r
}

// OCRmyPDF makes every file searchable with OCRmyPDF, workers processes
// at a time, each with --jobs 1 (with many small files this beats one
// process with --jobs N, whose Python start-up is not parallel), output
// as a plain PDF without optimisation (the fastest settings); --force-ocr
// rasterises pages that have text instead of refusing them.
func OCRmyPDF(ctx context.Context, files []corpus.File, workers int, tmp string) Result {
	r := Result{Name: "ocrmypdf",
		Command: fmt.Sprintf("ocrmypdf -q --jobs 1 --output-type pdf --optimize 0 --force-ocr FILE OUT.pdf (%d processes at a time)", workers)}
	if r.Missing = missing("ocrmypdf"); r.Missing != "" {
		return r
	}
	r.Version = version("ocrmypdf", "--version")
	env := []string{"OMP_THREAD_LIMIT=1"}
	start := time.Now()
	err := pool(ctx, workers, len(files), func(i int) error {
		out := filepath.Join(tmp, fmt.Sprintf("ocrmypdf-%d.pdf", i))
		defer os.Remove(out)
		return run(ctx, env, "ocrmypdf", "-q", "--jobs", "1", "--output-type", "pdf", "--optimize", "0", "--force-ocr", files[i].Path, out)
	})
	r.Wall = time.Since(start)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	for _, f := range files {
		r.Pages += f.Pages
	}
	return r
}

// pool runs fn(0..n-1) on workers goroutines and returns the first error.
func pool(ctx context.Context, workers, n int, fn func(int) error) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	next := make(chan int)
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

func missing(tool string) string {
	if _, err := exec.LookPath(tool); err != nil {
		return tool + " not installed (run bench/setup.sh)"
	}
	return ""
}

func run(ctx context.Context, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 300 {
			msg = msg[:300] + "..."
		}
		return fmt.Errorf("%s: %w: %s", name, err, msg)
	}
	return nil
}

// version returns the first line a tool prints about its version.
func version(tool, flag string) string {
	out, _ := exec.Command(tool, flag).CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "warning") {
			return line
		}
	}
	return "unknown"
}
