package ort

import (
	"fmt"
	"os"
	"strings"
	"sync"

	onnx "github.com/yalue/onnxruntime_go"
)

// Session is one loaded model with fixed input and output names and
// dynamic shapes: every Run may pass tensors of a different batch size or
// length. Run is safe from several goroutines (ONNX Runtime allows
// concurrent runs), but redactd feeds each session from one executor; only
// models/ocr's recogniser and the built-in NER model, opened
// WithIntraOpThreads(1), are run from as many goroutines at once as the
// environment has threads.
type Session struct {
	name    string
	s       *onnx.DynamicAdvancedSession
	inputs  []string
	outputs []string

	closeOnce sync.Once
}

// SessionOption changes how NewSession opens one session.
type SessionOption func(*sessionConfig)

type sessionConfig struct {
	noMemPattern bool
	threads      int // intra-op threads; 0 means the environment's
}

// WithIntraOpThreads opens the session with n intra-op threads instead
// of the environment's Options.Threads (n < 1 keeps those). A model whose
// runs scale poorly across threads can then be run as several concurrent
// single-threaded runs on one session (ONNX Runtime allows concurrent
// Run calls); the caller bounds how many, usually to Options.Threads, so
// the cores are not oversubscribed (see models/ocr's recogniser).
func WithIntraOpThreads(n int) SessionOption {
	return func(c *sessionConfig) { c.threads = max(n, 0) }
}

// WithoutMemPattern opens the session without ONNX Runtime's memory
// pattern planning. With it, ONNX Runtime plans each distinct set of
// input shapes once and then takes all of a run's activations as one
// block from its CPU arena; for a model fed tensors of many shapes (OCR's
// page images and text lines, batched) those blocks leave the arena
// holding far more than any one run needs. Without it, activations are
// taken from the arena one by one and reused across shapes: the peak
// resident memory of models/ocr's parallel4 benchmark (four pages in
// flight) fell from 1.7-1.9 GiB to 0.9-1.1 GiB at the same CPU cost.
// (Turning the arena off as well saved no more and cost 10% more CPU.)
func WithoutMemPattern() SessionOption {
	return func(c *sessionConfig) { c.noMemPattern = true }
}

// NewSession opens the model at modelPath with the process's thread and
// device policy. inputs and outputs name the graph's tensors in the order
// Run takes them.
func NewSession(modelPath string, inputs, outputs []string, options ...SessionOption) (*Session, error) {
	cfg, ok := Current()
	if !ok {
		return nil, ErrNotInitialized
	}
	if _, err := os.Stat(modelPath); err != nil {
		return nil, fmt.Errorf("ort: model: %w", err)
	}
	return newSession(cfg, modelPath, inputs, outputs, options, func(o *onnx.SessionOptions) (*onnx.DynamicAdvancedSession, error) {
		return onnx.NewDynamicAdvancedSession(modelPath, inputs, outputs, o)
	})
}

// NewSessionFromData is NewSession for a model held in memory (one
// rewritten at load time); name identifies it in errors.
func NewSessionFromData(name string, model []byte, inputs, outputs []string, options ...SessionOption) (*Session, error) {
	cfg, ok := Current()
	if !ok {
		return nil, ErrNotInitialized
	}
	return newSession(cfg, name, inputs, outputs, options, func(o *onnx.SessionOptions) (*onnx.DynamicAdvancedSession, error) {
		return onnx.NewDynamicAdvancedSessionWithONNXData(model, inputs, outputs, o)
	})
}

func newSession(cfg Options, name string, inputs, outputs []string, options []SessionOption,
	open func(*onnx.SessionOptions) (*onnx.DynamicAdvancedSession, error)) (*Session, error) {
	var sc sessionConfig
	for _, o := range options {
		o(&sc)
	}
	opts, err := sessionOptions(cfg, sc)
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	s, err := open(opts)
	if err != nil {
		return nil, fmt.Errorf("ort: opening %s: %w", name, err)
	}
	return &Session{name: name, s: s, inputs: inputs, outputs: outputs}, nil
}

// sessionOptions builds a session's options: those every session shares,
// and sc's.
func sessionOptions(cfg Options, sc sessionConfig) (*onnx.SessionOptions, error) {
	o, err := onnx.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("ort: session options: %w", err)
	}
	threads := cfg.Threads
	if sc.threads > 0 {
		threads = sc.threads
	}
	steps := []struct {
		what string
		fn   func() error
	}{
		{"intra-op threads", func() error { return o.SetIntraOpNumThreads(threads) }},
		{"inter-op threads", func() error { return o.SetInterOpNumThreads(1) }},
		{"intra-op spinning", func() error { return o.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") }},
		{"inter-op spinning", func() error { return o.AddSessionConfigEntry("session.inter_op.allow_spinning", "0") }},
		{"execution mode", func() error { return o.SetExecutionMode(onnx.ExecutionModeSequential) }},
		{"graph optimisation", func() error { return o.SetGraphOptimizationLevel(onnx.GraphOptimizationLevelEnableAll) }},
	}
	if sc.noMemPattern {
		steps = append(steps, struct {
			what string
			fn   func() error
		}{"memory pattern", func() error { return o.SetMemPattern(false) }})
	}
	for _, st := range steps {
		if err := st.fn(); err != nil {
			o.Destroy()
			return nil, fmt.Errorf("ort: session options: %s: %w", st.what, err)
		}
	}
	if cfg.Device == "cuda" {
		if err := appendCUDA(o, cfg.LibPath); err != nil {
			o.Destroy()
			return nil, err
		}
	}
	return o, nil
}

// appendCUDA adds the CUDA execution provider, explaining the usual cause
// when the library lacks it.
func appendCUDA(o *onnx.SessionOptions, lib string) error {
	co, err := onnx.NewCUDAProviderOptions()
	if err == nil {
		defer co.Destroy()
		err = o.AppendExecutionProviderCUDA(co)
	}
	if err != nil {
		return fmt.Errorf("ort: device cuda: the ONNX Runtime library %s has no usable CUDA execution provider "+
			"(install the GPU build of ONNX Runtime with CUDA and cuDNN, or use --device cpu): %w", lib, err)
	}
	return nil
}

// Run runs the model. inputs and outputs follow the names given to
// NewSession; a nil output is allocated by ONNX Runtime and stored back
// into outputs (the caller destroys it).
func (s *Session) Run(inputs, outputs []onnx.Value) error {
	if err := s.s.Run(inputs, outputs); err != nil {
		return fmt.Errorf("ort: run %s: %w", s.name, err)
	}
	return nil
}

// Inputs returns the input names.
func (s *Session) Inputs() []string { return s.inputs }

// Outputs returns the output names.
func (s *Session) Outputs() []string { return s.outputs }

// Close releases the session. It is safe to call more than once.
func (s *Session) Close() error {
	var err error
	s.closeOnce.Do(func() {
		if e := s.s.Destroy(); e != nil {
			err = fmt.Errorf("ort: close %s: %w", s.name, e)
		}
	})
	return err
}

// IOInfo describes one model input or output.
type IOInfo struct {
	Name  string
	Shape []int64 // -1 for dynamic dimensions
	Type  string
}

// ModelIO lists a model's inputs and outputs, for checking a model file
// before opening a session on it.
func ModelIO(modelPath string) (inputs, outputs []IOInfo, err error) {
	if !Initialized() {
		return nil, nil, ErrNotInitialized
	}
	in, out, err := onnx.GetInputOutputInfo(modelPath)
	if err != nil {
		return nil, nil, fmt.Errorf("ort: reading %s: %w", modelPath, err)
	}
	return convIO(in), convIO(out), nil
}

// ModelIOData is ModelIO for a model held in memory (one embedded in the
// binary); name identifies it in errors.
func ModelIOData(name string, model []byte) (inputs, outputs []IOInfo, err error) {
	if !Initialized() {
		return nil, nil, ErrNotInitialized
	}
	in, out, err := onnx.GetInputOutputInfoWithONNXData(model)
	if err != nil {
		return nil, nil, fmt.Errorf("ort: reading %s: %w", name, err)
	}
	return convIO(in), convIO(out), nil
}

func convIO(l []onnx.InputOutputInfo) []IOInfo {
	out := make([]IOInfo, len(l))
	for i, x := range l {
		out[i] = IOInfo{Name: x.Name, Shape: append([]int64(nil), x.Dimensions...), Type: strings.TrimPrefix(x.DataType.String(), "ONNX_TENSOR_ELEMENT_DATA_TYPE_")}
	}
	return out
}
