// Package ort owns redactd's one ONNX Runtime environment per process and
// the sessions created in it.
//
// ONNX Runtime keeps process-wide state (the environment, its thread pools
// and allocators), so the process initialises it once with Init and every
// model (NER, OCR detection, classification, recognition) opens its
// sessions through NewSession, which applies the same thread policy to all
// of them: a bounded intra-op pool with spinning off and one inter-op
// thread. The models' runs take turns on the cores through one
// batch.Lane of Slots slots (one per thread): a session opened
// WithIntraOpThreads(1) is run from several goroutines at once, each run
// holding one slot (models/ocr's detector and recogniser, the built-in NER
// model), and a run on the whole intra-op pool holds every slot, so the
// models never oversubscribe the cores. Spinning is off because idle ONNX
// Runtime threads would otherwise burn the CPU that MuPDF rendering needs
// between batches.
//
// Device "cuda" appends the CUDA execution provider to every session; no
// other code changes. A CPU-only library fails NewSession with a clear
// error instead of silently running on the CPU.
//
// Tensors are built with github.com/yalue/onnxruntime_go directly
// (NewTensor, NewEmptyTensor); this package only manages the environment and
// sessions.
package ort

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	onnx "github.com/yalue/onnxruntime_go"
)

// Options configure the environment. The zero value means: library found by
// FindLibrary, CPU, one intra-op thread per CPU.
type Options struct {
	// LibPath is the ONNX Runtime shared library; empty searches with
	// FindLibrary.
	LibPath string
	// Device is "cpu" (or empty) or "cuda".
	Device string
	// Threads is the intra-op thread count of each session; 0 means
	// runtime.NumCPU().
	Threads int
}

var (
	mu      sync.Mutex
	current *Options // resolved options of the live environment
)

// Init loads the ONNX Runtime library and creates the process's
// environment. It may be called more than once with equivalent options
// (every model package calls it; the first call wins); a later call that
// asks for a different library, device or thread count fails, since the
// environment cannot be changed while sessions use it.
func Init(cfg Options) error {
	mu.Lock()
	defer mu.Unlock()
	want, err := resolve(cfg)
	if err != nil {
		return err
	}
	if current != nil {
		if *current != want {
			return fmt.Errorf("ort: already initialised with %+v, asked for %+v", *current, want)
		}
		return nil
	}
	onnx.SetSharedLibraryPath(want.LibPath)
	if err := onnx.InitializeEnvironment(onnx.WithLogLevelError()); err != nil {
		return fmt.Errorf("ort: loading %s: %w", want.LibPath, err)
	}
	current = &want
	return nil
}

// resolve fills defaults and checks the options.
func resolve(cfg Options) (Options, error) {
	switch cfg.Device {
	case "":
		cfg.Device = "cpu"
	case "cpu", "cuda":
	default:
		return cfg, fmt.Errorf("ort: device %q: want cpu or cuda", cfg.Device)
	}
	if cfg.Threads < 0 {
		return cfg, fmt.Errorf("ort: threads %d: must not be negative", cfg.Threads)
	}
	if cfg.Threads == 0 {
		cfg.Threads = runtime.NumCPU()
	}
	lib, err := FindLibrary(cfg.LibPath)
	if err != nil {
		return cfg, err
	}
	cfg.LibPath = lib
	return cfg, nil
}

// Initialized reports whether Init succeeded and Destroy has not run since.
func Initialized() bool {
	mu.Lock()
	defer mu.Unlock()
	return current != nil
}

// Current returns the options the environment was initialised with.
func Current() (Options, bool) {
	mu.Lock()
	defer mu.Unlock()
	if current == nil {
		return Options{}, false
	}
	return *current, true
}

// Slots is how many single-threaded model runs may go at once under o
// with procs Go threads: on the CPU the intra-op thread count capped by
// procs, on CUDA one. It is the size of the models' shared batch.Lane
// and of each model's split of a batch into single-threaded runs.
func (o Options) Slots(procs int) int {
	if o.Device == "cuda" {
		return 1
	}
	return max(1, min(o.Threads, procs))
}

// CurrentSlots is Slots of the environment Init set up, with GOMAXPROCS
// Go threads (one per CPU before Init).
func CurrentSlots() int {
	cfg, ok := Current()
	if !ok {
		cfg = Options{Threads: runtime.NumCPU()}
	}
	return cfg.Slots(runtime.GOMAXPROCS(0))
}

// Destroy releases the environment. Every session must be closed first.
// Init may be called again afterwards.
func Destroy() error {
	mu.Lock()
	defer mu.Unlock()
	if current == nil {
		return nil
	}
	current = nil
	if err := onnx.DestroyEnvironment(); err != nil {
		return fmt.Errorf("ort: destroy: %w", err)
	}
	return nil
}

// ErrNotInitialized is returned by NewSession before Init.
var ErrNotInitialized = errors.New("ort: environment not initialised (call ort.Init first)")
