package ort

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	onnx "github.com/yalue/onnxruntime_go"
)

// TestMain initialises the real library once for the package; tests that
// need it skip with a clear message when `make setup` has not run.
func TestMain(m *testing.M) {
	code := m.Run()
	_ = Destroy()
	os.Exit(code)
}

func needORT(t *testing.T) {
	t.Helper()
	if _, err := FindLibrary(""); err != nil {
		t.Skipf("ONNX Runtime library not installed (run `make setup`): %v", err)
	}
	if err := Init(Options{}); err != nil {
		t.Fatalf("Init: %v", err)
	}
}

func detModel(t *testing.T) string {
	t.Helper()
	dir, err := FindModelDir("")
	if err != nil {
		t.Skipf("models not installed (run `make setup`): %v", err)
	}
	p := filepath.Join(dir, "ocr", "det.onnx")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("OCR detection model not installed (run `make setup`): %v", err)
	}
	return p
}

func TestFindLibraryOrder(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "libx.so")
	if err := os.WriteFile(lib, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Explicit wins over the environment.
	t.Setenv(EnvLib, filepath.Join(dir, "missing.so"))
	got, err := FindLibrary(lib)
	if err != nil || got != lib {
		t.Fatalf("explicit: got %q, %v", got, err)
	}
	// A missing environment path is an error naming the variable.
	if _, err := FindLibrary(""); err == nil || !strings.Contains(err.Error(), EnvLib) {
		t.Fatalf("missing env path: err = %v", err)
	}
	t.Setenv(EnvLib, lib)
	if got, err := FindLibrary(""); err != nil || got != lib {
		t.Fatalf("env: got %q, %v", got, err)
	}
	// A directory is not a library.
	if _, err := FindLibrary(dir); err == nil {
		t.Fatal("directory accepted as library")
	}
}

func TestFindWalksUpFromWorkingDir(t *testing.T) {
	root := t.TempDir()
	libDir := filepath.Join(root, ".cache", "ort")
	modDir := filepath.Join(root, ".cache", "models")
	deep := filepath.Join(root, "a", "b", "c")
	for _, d := range []string{libDir, modDir, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lib := filepath.Join(libDir, "libonnxruntime.so.1")
	if err := os.WriteFile(lib, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvLib, "")
	t.Setenv(EnvModelDir, "")
	t.Chdir(deep)
	if got, err := FindLibrary(""); err != nil || got != lib {
		t.Fatalf("library: got %q, %v; want %q", got, err, lib)
	}
	if got, err := FindModelDir(""); err != nil || got != modDir {
		t.Fatalf("model dir: got %q, %v; want %q", got, err, modDir)
	}
}

func TestFindModelDirExplicitMissing(t *testing.T) {
	_, err := FindModelDir(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("err = %v", err)
	}
}

func TestInitValidates(t *testing.T) {
	for _, o := range []Options{{Device: "tpu"}, {Threads: -1}, {LibPath: "/nonexistent/lib.so"}} {
		if err := Init(o); err == nil {
			t.Errorf("Init(%+v) succeeded", o)
		}
	}
}

func TestSessionRunsDetectionModel(t *testing.T) {
	needORT(t)
	model := detModel(t)
	in, out, err := ModelIO(model)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 1 || len(out) != 1 || len(in[0].Shape) != 4 {
		t.Fatalf("unexpected model IO: %+v -> %+v", in, out)
	}
	s, err := NewSession(model, []string{in[0].Name}, []string{out[0].Name})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x, err := onnx.NewTensor(onnx.NewShape(2, 3, 64, 96), make([]float32, 2*3*64*96))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Destroy()
	outs := []onnx.Value{nil}
	if err := s.Run([]onnx.Value{x}, outs); err != nil {
		t.Fatal(err)
	}
	defer outs[0].Destroy()
	if got := outs[0].GetShape(); !got.Equals(onnx.NewShape(2, 1, 64, 96)) {
		t.Fatalf("output shape %v", got)
	}
	// Dynamic shapes: a second run with another size on the same session.
	y, err := onnx.NewTensor(onnx.NewShape(1, 3, 32, 32), make([]float32, 3*32*32))
	if err != nil {
		t.Fatal(err)
	}
	defer y.Destroy()
	outs2 := []onnx.Value{nil}
	if err := s.Run([]onnx.Value{y}, outs2); err != nil {
		t.Fatal(err)
	}
	outs2[0].Destroy()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestNewSessionErrors(t *testing.T) {
	needORT(t)
	if _, err := NewSession(filepath.Join(t.TempDir(), "none.onnx"), []string{"x"}, []string{"y"}); err == nil {
		t.Fatal("missing model accepted")
	}
	bad := filepath.Join(t.TempDir(), "bad.onnx")
	if err := os.WriteFile(bad, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSession(bad, []string{"x"}, []string{"y"}); err == nil {
		t.Fatal("garbage model accepted")
	}
}

func TestInitTwice(t *testing.T) {
	needORT(t)
	if err := Init(Options{}); err != nil {
		t.Fatalf("second equivalent Init: %v", err)
	}
	cur, _ := Current()
	if err := Init(Options{Threads: cur.Threads + 1}); err == nil {
		t.Fatal("Init with other thread count succeeded while initialised")
	}
}

// TestCUDAOnCPULibrary checks that asking for CUDA with the CPU build
// fails with an explanation rather than silently running on the CPU. It
// re-initialises the environment, so it restores the CPU one afterwards.
func TestCUDAOnCPULibrary(t *testing.T) {
	needORT(t)
	model := detModel(t)
	if err := Destroy(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := Destroy(); err != nil {
			t.Error(err)
		}
		if err := Init(Options{}); err != nil {
			t.Error(err)
		}
	}()
	if err := Init(Options{Device: "cuda"}); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(model, []string{"x"}, []string{"sigmoid_0.tmp_0"})
	if err == nil {
		s.Close()
		t.Skip("this ONNX Runtime library has a CUDA provider")
	}
	if !strings.Contains(err.Error(), "device cuda") || !strings.Contains(err.Error(), "--device cpu") {
		t.Fatalf("unclear error: %v", err)
	}
}

func TestNewSessionBeforeInit(t *testing.T) {
	if Initialized() {
		if err := Destroy(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if _, err := FindLibrary(""); err == nil {
				if err := Init(Options{}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	if _, err := NewSession("x.onnx", nil, nil); err != ErrNotInitialized {
		t.Fatalf("err = %v", err)
	}
}

// TestSessionWithoutMemPattern runs the detection model with and without
// memory pattern planning on inputs of two shapes: same outputs.
func TestSessionWithoutMemPattern(t *testing.T) {
	needORT(t)
	open := detOpener(t)
	plain, lean := open(), open(WithoutMemPattern())
	for _, shape := range [][2]int64{{64, 96}, {96, 32}} {
		data := make([]float32, 3*shape[0]*shape[1])
		for i := range data {
			data[i] = float32(i%17)/8 - 1
		}
		run := func(s *Session) []float32 {
			x, err := onnx.NewTensor(onnx.NewShape(1, 3, shape[0], shape[1]), data)
			if err != nil {
				t.Fatal(err)
			}
			defer x.Destroy()
			outs := []onnx.Value{nil}
			if err := s.Run([]onnx.Value{x}, outs); err != nil {
				t.Fatal(err)
			}
			defer outs[0].Destroy()
			return append([]float32(nil), outs[0].(*onnx.Tensor[float32]).GetData()...)
		}
		a, b := run(plain), run(lean)
		if len(a) != len(b) || len(a) != int(shape[0]*shape[1]) {
			t.Fatalf("%v: %d and %d outputs", shape, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%v: output %d is %g without memory patterns, %g with", shape, i, b[i], a[i])
			}
		}
	}
}

// TestSessionIntraOpThreadsConcurrent opens the detection model with one
// intra-op thread and runs it from several goroutines at once, as
// models/ocr does with its recogniser: every concurrent run gives exactly
// what a run alone gives, and that is what the environment's thread count
// gives (within float rounding: the work is split differently).
func TestSessionIntraOpThreadsConcurrent(t *testing.T) {
	needORT(t)
	open := detOpener(t)
	plain, one := open(), open(WithIntraOpThreads(1))
	shapes := [][2]int64{{64, 96}, {96, 32}, {32, 64}, {64, 64}}
	run := func(s *Session, shape [2]int64) ([]float32, error) {
		data := make([]float32, 3*shape[0]*shape[1])
		for i := range data {
			data[i] = float32((i+int(shape[1]))%17)/8 - 1
		}
		x, err := onnx.NewTensor(onnx.NewShape(1, 3, shape[0], shape[1]), data)
		if err != nil {
			return nil, err
		}
		defer x.Destroy()
		outs := []onnx.Value{nil}
		if err := s.Run([]onnx.Value{x}, outs); err != nil {
			return nil, err
		}
		defer outs[0].Destroy()
		return append([]float32(nil), outs[0].(*onnx.Tensor[float32]).GetData()...), nil
	}
	alone := make([][]float32, len(shapes))
	for i, sh := range shapes {
		var err error
		if alone[i], err = run(one, sh); err != nil {
			t.Fatal(err)
		}
		ref, err := run(plain, sh)
		if err != nil {
			t.Fatal(err)
		}
		for k := range ref {
			if d := ref[k] - alone[i][k]; d > 1e-4 || d < -1e-4 {
				t.Fatalf("%v: output %d is %g with one thread, %g with the environment's", sh, k, alone[i][k], ref[k])
			}
		}
	}
	got := make([][]float32, 3*len(shapes))
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = run(one, shapes[i%len(shapes)])
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if want := alone[i%len(shapes)]; !slices.Equal(got[i], want) {
			t.Fatalf("run %d (%v): concurrent output differs from the run alone", i, shapes[i%len(shapes)])
		}
	}
}

// detOpener returns a function that opens the detection model with the
// given options; the sessions close when the test ends.
func detOpener(t *testing.T) func(...SessionOption) *Session {
	t.Helper()
	model := detModel(t)
	in, out, err := ModelIO(model)
	if err != nil {
		t.Fatal(err)
	}
	return func(opts ...SessionOption) *Session {
		s, err := NewSession(model, []string{in[0].Name}, []string{out[0].Name}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}
