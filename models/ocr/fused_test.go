package ocr

import (
	"bytes"
	"context"
	"errors"
	"image"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/image/font/gofont/goitalic"

	"github.com/redactd/redactd/models/ocr/internal/fuse"
	"github.com/redactd/redactd/models/ort"
)

// The models deploy/setup.sh installs are the published ones rewritten by
// models/ocr/internal/fuse into cheaper graphs; the published ones stay
// beside them in ocr-upstream/. These tests hold the rewrite to its
// promise: on real inputs both give the same outputs up to float
// rounding, so the same text.

// maxProbDiff bounds the difference between the two models' outputs, all
// probabilities (sigmoid or softmax).
const maxProbDiff = 1e-3

// upstreamDir returns the folder of the published models next to the
// engine's, skipping the test when setup has not put them there.
func upstreamDir(t *testing.T, e *Engine) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(e.dir), "ocr-upstream")
	if _, err := os.Stat(filepath.Join(dir, recFile)); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("published OCR models not installed in %s (run `make setup`)", dir)
	}
	return dir
}

func TestInstalledModelsAreTheRewrite(t *testing.T) {
	e := testEngineCharset(t, CharsetLatin) // the published models are PP-OCRv4's
	up := upstreamDir(t, e)
	for _, f := range []string{detFile, clsFile, recFile} {
		src, err := os.ReadFile(filepath.Join(up, f))
		if err != nil {
			t.Fatal(err)
		}
		want, st, err := fuse.File(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := os.ReadFile(filepath.Join(e.dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s in %s is not the rewrite of %s (run `make setup`)", f, e.dir, filepath.Join(up, f))
		}
		t.Logf("%s: %v", f, st)
	}
}

// upstreamEngine is an engine whose sessions run the published models;
// it has no batchers, so only the run functions may be called.
func upstreamEngine(t *testing.T, e *Engine, dir string) *Engine {
	t.Helper()
	u := &Engine{opts: e.opts, dict: e.dict, dir: dir, detLUT: e.detLUT, recLUT: e.recLUT}
	t.Cleanup(u.closeSessions)
	for _, m := range []struct {
		file string
		s    **ort.Session
	}{{detFile, &u.det}, {clsFile, &u.cls}, {recFile, &u.rec}} {
		p := filepath.Join(dir, m.file)
		in, out, err := ort.ModelIO(p)
		if err != nil {
			t.Fatal(err)
		}
		if *m.s, err = ort.NewSession(p, []string{in[0].Name}, []string{out[0].Name}); err != nil {
			t.Fatal(err)
		}
	}
	return u
}

func maxAbsDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var d float64
	for i := range a {
		d = max(d, math.Abs(float64(a[i])-float64(b[i])))
	}
	return d
}

func TestRewrittenModelsMatchUpstream(t *testing.T) {
	// The published recogniser has every class: compare with all of them.
	e := testEngineCharset(t, CharsetAll)
	u := upstreamEngine(t, e, upstreamDir(t, e))
	ctx := context.Background()
	pages := []pageSpec{
		{lines: testLines, dpi: 200, pt: 11, skew: 1.5, noise: 12, margin: 0.8, seed: 1},
		{lines: testLines[:5], dpi: 200, pt: 9, skew: 2, noise: 15, margin: 0.5, seed: 4, ttf: goitalic.TTF},
	}
	for i, spec := range pages {
		img, _ := renderPage(t, spec)

		// Detector: probability maps, and the boxes found on them.
		req := e.prepareDet(img, detScale(img.W, img.H, e.opts.MaxSide))
		got, err := e.runDet(ctx, []detReq{req})
		if err != nil {
			t.Fatal(err)
		}
		want, err := u.runDet(ctx, []detReq{req})
		if err != nil {
			t.Fatal(err)
		}
		d := maxAbsDiff(got[0].prob, want[0].prob)
		boxes, wantBoxes := dbBoxes(got[0].prob, req), dbBoxes(want[0].prob, req)
		t.Logf("page %d: detector %dx%d, max difference %.2g, %d boxes", i, req.w, req.h, d, len(boxes))
		if d > maxProbDiff {
			t.Errorf("page %d: detector maps differ by %.2g", i, d)
		}
		if len(boxes) != len(wantBoxes) || len(boxes) < len(spec.lines) {
			t.Fatalf("page %d: %d boxes, upstream %d, for %d lines", i, len(boxes), len(wantBoxes), len(spec.lines))
		}

		// Lines for the recogniser, and upside down too for the direction
		// classifier.
		var crops, both []crop
		for _, b := range boxes {
			if c, ok := cropQuad(img, b.r.quad()); ok {
				crops = append(crops, c)
				both = append(both, c, c.flip())
			}
		}
		compareCls(t, e, u, both)
		compareRec(t, e, u, crops)
	}
}

// compareCls checks the classifiers' probabilities of "upside down".
func compareCls(t *testing.T, e, u *Engine, crops []crop) {
	t.Helper()
	reqs := make([]clsReq, len(crops))
	for i, c := range crops {
		reqs[i] = prepareCls(c)
	}
	got, err := e.runCls(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := u.runCls(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	var d float64
	for i := range got {
		d = max(d, math.Abs(float64(got[i].p180-want[i].p180)))
	}
	t.Logf("classifier: %d lines, max difference %.2g", len(reqs), d)
	if d > maxProbDiff {
		t.Errorf("classifier probabilities differ by %.2g", d)
	}
}

// compareRec runs the recognisers on the crops in batches padded as in
// runRows and checks their probabilities and greedy decodings.
func compareRec(t *testing.T, e, u *Engine, crops []crop) {
	t.Helper()
	reqs := make([]recReq, len(crops))
	for i, c := range crops {
		reqs[i] = recReq{c: c}
	}
	slices.SortFunc(reqs, func(a, b recReq) int { return a.c.w - b.c.w })
	classes := len(e.dict)
	var d float64
	chars, lines := 0, 0
	for i := 0; i < len(reqs); i += 4 {
		batch := reqs[i:min(i+4, len(reqs))]
		wmax := padW(batch[len(batch)-1].c.w)
		got, err := e.recProbs(batch, singleRows(len(batch), wmax), wmax)
		if err != nil {
			t.Fatal(err)
		}
		want, err := u.recProbs(batch, singleRows(len(batch), wmax), wmax)
		if err != nil {
			t.Fatal(err)
		}
		d = max(d, maxAbsDiff(got, want))
		steps := wmax / recStride
		for j := range batch {
			row := func(p []float32) []float32 { return p[j*steps*classes : (j+1)*steps*classes] }
			g, w := ctcDecode(row(got), classes, nil), ctcDecode(row(want), classes, nil)
			if !sameClasses(g, w) {
				t.Errorf("line %d: read %q, upstream %q", i+j, e.text(g), e.text(w))
			}
			chars += len(g)
			lines++
		}
	}
	t.Logf("recogniser: %d lines, %d characters, max difference %.2g", lines, chars, d)
	if d > maxProbDiff {
		t.Errorf("recogniser probabilities differ by %.2g", d)
	}
}

func sameClasses(a, b []sym) bool {
	return slices.EqualFunc(a, b, func(x, y sym) bool { return x.class == y.class && x.t0 == y.t0 && x.t1 == y.t1 })
}

func (e *Engine) text(syms []sym) string {
	var b []byte
	for _, s := range syms {
		b = append(b, e.dict[s.class]...)
	}
	return string(b)
}

// TestRewrittenModelsReadTheSame runs the whole pipeline on the published
// models and on the installed ones: a page turned upside down goes
// through detection, the orientation vote with the classifier, and
// recognition.
func TestRewrittenModelsReadTheSame(t *testing.T) {
	e := testEngineCharset(t, CharsetLatin) // the published models are PP-OCRv4's
	up := upstreamDir(t, e)
	dir := t.TempDir()
	for _, f := range []string{detFile, clsFile, recFile} {
		if err := os.Symlink(filepath.Join(up, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(e.dir, dictFile), filepath.Join(dir, dictFile)); err != nil {
		t.Fatal(err)
	}
	u, err := New(dir, Options{Model: ModelPPOCRv4})
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	img, _ := renderPage(t, pageSpec{lines: testLines[:8], dpi: 200, pt: 11, skew: 1, noise: 10, margin: 0.6, seed: 9})
	img, _ = rotatePage(img, nil, 180)
	got, err := e.Recognize(context.Background(), img, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := u.Recognize(context.Background(), img, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := pageText(got), pageText(want); g != w {
		t.Errorf("rewritten models read\n%s\npublished ones\n%s", g, w)
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, upstream %d", len(got), len(want))
	}
	for i := range got {
		if dc := math.Abs(float64(got[i].Conf - want[i].Conf)); dc > maxProbDiff {
			t.Errorf("line %d: confidence %.4f, upstream %.4f", i, got[i].Conf, want[i].Conf)
		}
	}
	t.Logf("%d lines read the same", len(got))
}

// BenchmarkRecogniserRewrite runs the recogniser, published and
// rewritten, on the text lines of a rendered page, one line (split at 960
// columns as Recognize does) per run, and reports the CPU cost of each
// per 1000 input columns and their ratio.
func BenchmarkRecogniserRewrite(b *testing.B) {
	e := testEngineCharset(b, CharsetLatin)
	dir := filepath.Join(filepath.Dir(e.dir), "ocr-upstream")
	if _, err := os.Stat(filepath.Join(dir, recFile)); err != nil {
		b.Skipf("published OCR models not installed in %s (run `make setup`)", dir)
	}
	p := filepath.Join(dir, recFile)
	in, out, err := ort.ModelIO(p)
	if err != nil {
		b.Fatal(err)
	}
	rec, err := ort.NewSession(p, []string{in[0].Name}, []string{out[0].Name}, ort.WithoutMemPattern())
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Close()
	u := &Engine{dict: e.dict, recLUT: e.recLUT, rec: rec}
	img, _ := renderPage(b, pageSpec{lines: testLines, dpi: 200, pt: 11, noise: 8, margin: 0.7, seed: 40})
	boxes, err := e.detect(context.Background(), img)
	if err != nil {
		b.Fatal(err)
	}
	var reqs []recReq
	cols := 0
	for _, box := range boxes {
		c, ok := cropQuad(img, box.r.quad())
		if !ok {
			continue
		}
		cuts := c.splitPoints(e.opts.MaxLineWidth)
		for i := 1; i < len(cuts); i++ {
			r := recReq{c: c.sub(cuts[i-1], cuts[i])}
			reqs = append(reqs, r)
			cols += padW(r.c.w)
		}
	}
	var cpu [2]time.Duration
	for b.Loop() {
		for k, eng := range []*Engine{u, e} {
			c0 := cpuTime()
			for _, r := range reqs {
				if _, err := eng.recProbs([]recReq{r}, singleRows(1, padW(r.c.w)), padW(r.c.w)); err != nil {
					b.Fatal(err)
				}
			}
			cpu[k] += cpuTime() - c0
		}
	}
	per := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(b.N) / float64(cols) * 1000 }
	b.ReportMetric(per(cpu[0]), "upstream-cpu-ms/1000cols")
	b.ReportMetric(per(cpu[1]), "rewritten-cpu-ms/1000cols")
	b.ReportMetric(per(cpu[0])/per(cpu[1]), "speedup")
}
