package ocr

import (
	"context"
	"flag"
	"fmt"
	"image"
	"math"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/models/ort"
)

var (
	verbose = flag.Bool("ocr.verbose", false, "log recognised text and box errors")
	trace   = flag.Bool("ocr.trace", false, "print the pipeline's decisions")
	// benchModel picks the recogniser BenchmarkRecognizePage reads with.
	benchModel = flag.String("ocr.model", DefaultModel, "recogniser of BenchmarkRecognizePage: "+ModelPPOCRv4+" or "+ModelLatin)
	// benchNoCross reads BenchmarkRecognizePage's page without
	// cross-reading (Options.NoCrossRead).
	benchNoCross = flag.Bool("ocr.no-cross", false, "BenchmarkRecognizePage without cross-reading doubtful lines")
)

// engines holds the engines the tests load, one per character set.
var engines = struct {
	sync.Mutex
	m map[string]*Engine
}{m: map[string]*Engine{}}

func TestMain(m *testing.M) {
	flag.Parse()
	if *trace {
		debugf = func(f string, a ...any) { fmt.Printf(f+"\n", a...) }
	}
	code := m.Run()
	for _, e := range engines.m {
		e.Close()
	}
	_ = ort.Destroy()
	os.Exit(code)
}

// testEngine loads the real models once, with the default recogniser and
// character set; tests skip with a clear message only when `make setup`
// has not installed them.
func testEngine(t testing.TB) *Engine { return testEngineCharset(t, CharsetLatin) }

// testEngineCharset is PP-OCRv4's recogniser, the one the character set
// narrows, with character set cs.
func testEngineCharset(t testing.TB, cs string) *Engine {
	return testEngineWith(t, Options{Model: ModelPPOCRv4, Charset: cs})
}

// testEngineWith is testEngine for the recogniser, character set and
// cross-reading of opts (other options at their defaults).
func testEngineWith(t testing.TB, opts Options) *Engine {
	t.Helper()
	if _, err := ort.FindLibrary(""); err != nil {
		t.Skipf("ONNX Runtime not installed (run `make setup`): %v", err)
	}
	if _, err := ModelDir(""); err != nil {
		t.Skipf("OCR models not installed (run `make setup`): %v", err)
	}
	engines.Lock()
	defer engines.Unlock()
	key := opts.Model + "/" + opts.Charset
	if opts.NoCrossRead {
		key += "/alone"
	}
	if e := engines.m[key]; e != nil {
		return e
	}
	e, err := New("", Options{Model: opts.Model, Charset: opts.Charset, NoCrossRead: opts.NoCrossRead})
	if err != nil {
		t.Fatal(err)
	}
	engines.m[key] = e
	return e
}

// cer is the character error rate of got against want: edit distance over
// the length of want, spaces collapsed.
func cer(got, want string) float64 {
	norm := func(s string) []rune { return []rune(strings.Join(strings.Fields(s), " ")) }
	a, b := norm(got), norm(want)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(b)]) / float64(max(len(b), 1))
}

func pageText(lines []Line) string {
	var s []string
	for _, l := range lines {
		s = append(s, l.Text)
	}
	return strings.Join(s, "\n")
}

func truthText(truth [][]truthWord) string {
	var s []string
	for _, l := range truth {
		var ws []string
		for _, w := range l {
			ws = append(ws, w.text)
		}
		s = append(s, strings.Join(ws, " "))
	}
	return strings.Join(s, "\n")
}

// boxStats matches recognised words to true words by text (in order) and
// reports the share of matched true words whose ink box is covered at
// least 90% by the recognised word's box, and the mean ratio of box areas.
func boxStats(t testing.TB, lines []Line, truth [][]truthWord) (matched, covered int, meanRatio float64) {
	var got []Word
	for _, l := range lines {
		got = append(got, l.Words...)
	}
	used := make([]bool, len(got))
	for _, tl := range truth {
		for _, tw := range tl {
			for i, gw := range got {
				if used[i] || gw.Text != tw.text {
					continue
				}
				used[i] = true
				matched++
				cov := coverage(gw.Quad, tw.quad)
				if cov >= 0.9 {
					covered++
				} else if *verbose {
					t.Logf("word %q covered %.2f: got %v want %v", tw.text, cov, gw.Quad, tw.quad)
				}
				meanRatio += polyArea(gw.Quad) / polyArea(tw.quad)
				break
			}
		}
	}
	if matched > 0 {
		meanRatio /= float64(matched)
	}
	return
}

// coverage is the share of quad b's area inside quad a, by sampling.
func coverage(a, b Quad) float64 {
	in, n := 0, 0
	// Sample cell centres: anti-aliased edge pixels of the drawn ink box
	// do not count.
	for i := 0; i < 20; i++ {
		for j := 0; j < 10; j++ {
			top := lerp(b.UL, b.UR, (float64(i)+0.5)/20)
			bot := lerp(b.LL, b.LR, (float64(i)+0.5)/20)
			p := lerp(top, bot, (float64(j)+0.5)/10)
			n++
			if insideQuad(a, p) {
				in++
			}
		}
	}
	return float64(in) / float64(n)
}

func insideQuad(q Quad, p Point) bool {
	pts := []Point{q.UL, q.UR, q.LR, q.LL}
	var pos, neg bool
	for i := range pts {
		a, b := pts[i], pts[(i+1)%4]
		c := (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
		if c > 1e-9 {
			pos = true
		} else if c < -1e-9 {
			neg = true
		}
	}
	return !(pos && neg)
}

func polyArea(q Quad) float64 {
	pts := []Point{q.UL, q.UR, q.LR, q.LL}
	var s float64
	for i := range pts {
		a, b := pts[i], pts[(i+1)%4]
		s += a.X*b.Y - b.X*a.Y
	}
	return math.Abs(s) / 2
}

func checkPage(t *testing.T, name string, lines []Line, truth [][]truthWord, maxCER float64) {
	t.Helper()
	got, want := pageText(lines), truthText(truth)
	c := cer(got, want)
	matched, covered, ratio := boxStats(t, lines, truth)
	total := 0
	for _, l := range truth {
		total += len(l)
	}
	t.Logf("%s: CER %.2f%%, words matched %d/%d, covered %d/%d, mean box area ratio %.2f",
		name, 100*c, matched, total, covered, matched, ratio)
	if *verbose || c > maxCER {
		t.Logf("recognised:\n%s", got)
	}
	if c > maxCER {
		t.Errorf("%s: CER %.2f%% above %.0f%%", name, 100*c, 100*maxCER)
	}
	if matched < total*8/10 {
		t.Errorf("%s: only %d of %d words recognised exactly", name, matched, total)
	}
	if covered < matched*9/10 {
		t.Errorf("%s: only %d of %d matched words have boxes covering their ink", name, covered, matched)
	}
	if ratio > 3 {
		t.Errorf("%s: word boxes %.1f times the ink area on average", name, ratio)
	}
}

func TestRecognizeSkewedNoisyPage(t *testing.T) {
	e := testEngine(t)
	img, truth := renderPage(t, pageSpec{lines: testLines, dpi: 200, pt: 11, skew: 1.5, noise: 12, margin: 0.8, seed: 1})
	lines, err := e.Recognize(context.Background(), img, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, "skewed page", lines, truth, 0.03)
}

func TestRecognizeRotatedPages(t *testing.T) {
	e := testEngine(t)
	for _, rot := range []rotation{90, 180, 270} {
		t.Run(fmt.Sprint(rot), func(t *testing.T) {
			img, truth := renderPage(t, pageSpec{lines: testLines[:6], dpi: 200, pt: 11, skew: 1, noise: 10, margin: 0.6, seed: uint64(rot)})
			img, truth = rotatePage(img, truth, rot)
			lines, err := e.Recognize(context.Background(), img, image.Rectangle{})
			if err != nil {
				t.Fatal(err)
			}
			checkPage(t, fmt.Sprintf("page turned %d", rot), lines, truth, 0.03)
		})
	}
}

func TestRecognizeRegion(t *testing.T) {
	e := testEngine(t)
	page, truth := renderPage(t, pageSpec{lines: testLines[:4], dpi: 200, pt: 11, noise: 6, margin: 0.4, seed: 11})
	// Place the page inside a larger RGB image, at an offset.
	const ox, oy = 150, 300
	big := Image{W: page.W + 400, H: page.H + 500, Channels: 3}
	big.Stride = big.W * 3
	big.Pix = make([]byte, big.Stride*big.H)
	for i := range big.Pix {
		big.Pix[i] = 255
	}
	for y := 0; y < page.H; y++ {
		for x := 0; x < page.W; x++ {
			v := page.Pix[y*page.Stride+x]
			o := (oy+y)*big.Stride + (ox+x)*3
			big.Pix[o], big.Pix[o+1], big.Pix[o+2] = v, v, v/2 // tinted
		}
	}
	for i := range truth {
		for j := range truth[i] {
			truth[i][j].quad = truth[i][j].quad.mapPoints(func(p Point) Point { return Point{p.X + ox, p.Y + oy} })
		}
	}
	region := image.Rect(ox, oy, ox+page.W, oy+page.H)
	lines, err := e.Recognize(context.Background(), big, region)
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, "region", lines, truth, 0.03)
	for _, l := range lines {
		x0, y0, x1, y1 := l.Quad.Bounds()
		if x0 < ox-1 || y0 < oy-1 || x1 > float64(region.Max.X)+1 || y1 > float64(region.Max.Y)+1 {
			t.Errorf("line %q at %v outside the region", l.Text, l.Quad)
		}
	}
}

func TestRecognizeConcurrentPagesShareBatches(t *testing.T) {
	e := testEngine(t)
	const pages = 4
	type result struct {
		lines []Line
		err   error
	}
	imgs := make([]Image, pages)
	truths := make([][][]truthWord, pages)
	for i := range pages {
		// Each page starts at another line so results cannot be swapped.
		lines := append(append([]string(nil), testLines[i*2:]...), testLines[:i*2]...)[:3]
		imgs[i], truths[i] = renderPage(t, pageSpec{lines: lines, dpi: 150, pt: 12, noise: 5, margin: 0.3, seed: uint64(20 + i)})
	}
	results := make([]result, pages)
	var wg sync.WaitGroup
	for i := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := e.Recognize(context.Background(), imgs[i], image.Rectangle{})
			results[i] = result{l, err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
		if c := cer(pageText(r.lines), truthText(truths[i])); c > 0.03 {
			t.Errorf("page %d: CER %.2f%%:\n%s", i, 100*c, pageText(r.lines))
		}
	}
}

func TestRecognizeSplitsLongLines(t *testing.T) {
	testEngine(t) // skips without models
	e, err := New("", Options{MaxLineWidth: 320})
	if err != nil {
		t.Fatal(err)
	}
	img, truth := renderPage(t, pageSpec{lines: testLines[5:8], dpi: 200, pt: 11, noise: 5, margin: 0.5, seed: 30})
	lines, err := e.Recognize(context.Background(), img, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	// Every line is 4-5 pieces here; cuts fall in gaps, so the text holds.
	checkPage(t, "split lines", lines, truth, 0.04)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Recognize(context.Background(), img, image.Rectangle{}); err != ErrClosed {
		t.Errorf("Recognize after Close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestRecognizeBadInput(t *testing.T) {
	e := testEngine(t)
	for _, img := range []Image{
		{W: 10, H: 10, Channels: 4, Stride: 40, Pix: make([]byte, 400)},
		{W: 10, H: 10, Channels: 3, Stride: 30, Pix: make([]byte, 100)},
		{W: 10, H: 10, Channels: 1, Stride: 5, Pix: make([]byte, 100)},
		{W: 0, H: 10, Channels: 1, Stride: 0},
	} {
		if _, err := e.Recognize(context.Background(), img, image.Rectangle{}); err == nil {
			t.Errorf("%dx%d/%d stride %d len %d accepted", img.W, img.H, img.Channels, img.Stride, len(img.Pix))
		}
	}
	// A blank image and a tiny region have no text, and no error.
	blank := Image{W: 200, H: 100, Channels: 1, Stride: 200, Pix: make([]byte, 200*100)}
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	if lines, err := e.Recognize(context.Background(), blank, image.Rectangle{}); err != nil || len(lines) != 0 {
		t.Errorf("blank image: %v, %v", lines, err)
	}
	if lines, err := e.Recognize(context.Background(), blank, image.Rect(5, 5, 7, 7)); err != nil || len(lines) != 0 {
		t.Errorf("tiny region: %v, %v", lines, err)
	}
	// A cancelled context stops the work.
	img, _ := renderPage(t, pageSpec{lines: testLines[:2], dpi: 150, pt: 11, margin: 0.3})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Recognize(ctx, img, image.Rectangle{}); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestModelDirErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ModelDir(dir); err == nil {
		t.Error("empty model dir accepted")
	}
	if _, err := New(dir, Options{}); err == nil {
		t.Error("New on an empty dir succeeded")
	}
}

// BenchmarkRecognizePage reads a full letter page of 11-point text
// rendered at 200 dpi (about 45 lines), reporting pages per second, with
// the recogniser -ocr.model names.
func BenchmarkRecognizePage(b *testing.B) {
	e := testEngineWith(b, Options{Model: *benchModel, Charset: CharsetLatin, NoCrossRead: *benchNoCross})
	var lines []string
	for len(lines) < 45 {
		lines = append(lines, testLines...)
	}
	img, _ := renderPage(b, pageSpec{lines: lines[:45], dpi: 200, pt: 11, noise: 8, margin: 0.7, seed: 40})
	b.Logf("page %dx%d", img.W, img.H)
	b.Run("serial", func(b *testing.B) {
		c0 := cpuTime()
		for b.Loop() {
			if _, err := e.Recognize(context.Background(), img, image.Rectangle{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		// CPU seconds per page: the cost on a machine of any size, and
		// stable when other processes share the cores.
		b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/page")
	})
	b.Run("parallel4", func(b *testing.B) {
		// Four pages in flight share batches, as in the pipeline.
		c0 := cpuTime()
		for b.Loop() {
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := e.Recognize(context.Background(), img, image.Rectangle{}); err != nil {
						b.Error(err)
					}
				}()
			}
			wg.Wait()
		}
		b.ReportMetric(4*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		b.ReportMetric((cpuTime()-c0).Seconds()/float64(4*b.N), "cpu-s/page")
		if n := e.linesRead.Load(); n > 0 {
			b.ReportMetric(float64(e.linesCrossRead.Load())/float64(n), "cross-read-share")
		}
		// The process's peak resident memory so far (run this benchmark
		// alone to read it for four pages in flight).
		b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MiB")
	})
}

// peakRSS is the process's peak resident set size in bytes (VmHWM), or 0
// where /proc does not tell.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

func TestCharsets(t *testing.T) {
	latin, all := testEngineCharset(t, CharsetLatin), testEngineCharset(t, CharsetAll)
	if len(all.dict) != 6625 || len(latin.dict) != 223 {
		t.Fatalf("classes: all %d, latin %d; want 6625 and 223", len(all.dict), len(latin.dict))
	}
	if latin.dict[0] != "" || latin.dict[len(latin.dict)-1] != " " {
		t.Errorf("latin classes must start with the blank and end with the space")
	}
	kept := map[string]bool{}
	for _, c := range latin.dict[1 : len(latin.dict)-1] {
		kept[c] = true
		if r := []rune(c); len(r) != 1 || r[0] >= cjkStart {
			t.Errorf("latin keeps %q", c)
		}
	}
	for _, c := range all.dict[1 : len(all.dict)-1] {
		if r := []rune(c); len(r) == 1 && r[0] < cjkStart && !kept[c] {
			t.Errorf("latin drops %q", c)
		}
	}
	if _, err := New("", Options{Charset: "klingon"}); err == nil || !strings.Contains(err.Error(), "klingon") {
		t.Errorf("unknown character set: err %v", err)
	}

	// Both read a noisy, skewed page alike.
	img, truth := renderPage(t, pageSpec{lines: testLines, dpi: 200, pt: 11, skew: 1.5, noise: 12, margin: 0.8, seed: 1})
	text := func(e *Engine) string {
		lines, err := e.Recognize(context.Background(), img, image.Rectangle{})
		if err != nil {
			t.Fatal(err)
		}
		return pageText(lines)
	}
	want := truthText(truth)
	gl, ga := cer(text(latin), want), cer(text(all), want)
	t.Logf("CER latin %.4f, all %.4f", gl, ga)
	if gl > ga+0.002 || gl > 0.03 {
		t.Errorf("CER latin %.4f, all %.4f", gl, ga)
	}
}
