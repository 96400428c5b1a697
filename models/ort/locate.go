package ort

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Environment variables consulted by the locators; they match the
// settings ort-lib and model-dir of engine/config.
const (
	EnvLib      = "REDACTD_ORT_LIB"
	EnvModelDir = "REDACTD_MODEL_DIR"
)

// System-wide install locations used by deploy packages.
var (
	systemLibs      = []string{"/usr/lib/redactd/libonnxruntime.so.1", "/usr/lib/redactd/libonnxruntime.so"}
	systemModelDirs = []string{"/usr/share/redactd/models", "/usr/lib/redactd/models"}
)

// Places relative to the executable's directory, tried before .cache and
// the system paths: ../lib and ../models are the unpacked release bundle,
// ../lib/redactd and ../share/redactd/models what install.sh lays out
// under any --prefix. So a bundle serves where it is unpacked, and a
// prefix install with no config file, without flags.
var (
	exeLibDirs   = []string{"../lib", "../lib/redactd"}
	exeModelDirs = []string{"../models", "../share/redactd/models"}
)

// modelMarker is a file a model directory beside the executable must hold
// to count: in a source checkout bin/../models is the Go package tree.
var modelMarker = filepath.Join("ocr", "det.onnx")

// Where a located file came from, as `redactd doctor` reports it.
const (
	FromSetting    = "setting"             // --ort-lib / --model-dir / config file
	FromEnv        = "environment"         // $REDACTD_ORT_LIB / $REDACTD_MODEL_DIR
	FromExecutable = "beside executable"   // ../lib, ../models, ... of the binary
	FromCache      = ".cache (make setup)" // a source checkout
	FromSystem     = "system path"         // /usr/lib/redactd, /usr/share/redactd
)

// Located is a file found by a locator and where it was found.
type Located struct {
	Path string
	From string // one of the From* constants
}

// executable returns the running binary's path; tests replace it.
var executable = os.Executable

// FindLibrary returns the ONNX Runtime shared library to load (see
// LocateLibrary).
func FindLibrary(explicit string) (string, error) {
	l, err := LocateLibrary(explicit)
	return l.Path, err
}

// LocateLibrary finds the ONNX Runtime shared library: explicit when not
// empty, else $REDACTD_ORT_LIB, else libonnxruntime.so.1 in ../lib or
// ../lib/redactd of the executable's directory, else
// .cache/ort/libonnxruntime.so.1 in the working directory or the
// executable's directory or any parent of either (where `make setup` puts
// it), else /usr/lib/redactd/.
func LocateLibrary(explicit string) (Located, error) {
	names := []string{"libonnxruntime.so.1", "libonnxruntime.so"}
	return find(search{what: "ONNX Runtime library", explicit: explicit, env: EnvLib, cacheSub: "ort",
		names: names, exeDirs: exeLibDirs, system: systemLibs})
}

// FindModelDir returns the directory holding the model files (see
// LocateModelDir).
func FindModelDir(explicit string) (string, error) {
	l, err := LocateModelDir(explicit)
	return l.Path, err
}

// LocateModelDir finds the directory holding the model files (ocr/, ner/):
// explicit when not empty, else $REDACTD_MODEL_DIR, else ../models or
// ../share/redactd/models of the executable's directory (when it holds
// ocr/det.onnx), else .cache/models in the working directory or the
// executable's directory or any parent of either, else
// /usr/share/redactd/models or /usr/lib/redactd/models.
func LocateModelDir(explicit string) (Located, error) {
	return find(search{what: "model directory", explicit: explicit, env: EnvModelDir,
		names: []string{"models"}, exeDirs: exeModelDirs, exeMarker: modelMarker, system: systemModelDirs, dir: true})
}

// search describes one locator.
type search struct {
	what, explicit, env string
	cacheSub            string   // the folder under .cache holding one of names
	names               []string // file (or directory) names looked for
	exeDirs             []string // relative to the executable's directory
	exeMarker           string   // for directories beside the executable: a file they must hold
	system              []string
	dir                 bool // looking for a directory
}

// find implements the search order shared by both locators.
func find(s search) (Located, error) {
	check := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.IsDir() == s.dir
	}
	if s.explicit != "" {
		if !check(s.explicit) {
			return Located{}, fmt.Errorf("ort: %s %s not found", s.what, s.explicit)
		}
		return Located{abs(s.explicit), FromSetting}, nil
	}
	if p := os.Getenv(s.env); p != "" {
		if !check(p) {
			return Located{}, fmt.Errorf("ort: %s %s (from $%s) not found", s.what, p, s.env)
		}
		return Located{abs(p), FromEnv}, nil
	}
	var tried []string
	if exe := exeDir(); exe != "" {
		for _, rel := range s.exeDirs {
			d := filepath.Join(exe, rel)
			if s.dir {
				if check(d) && (s.exeMarker == "" || fileExists(filepath.Join(d, s.exeMarker))) {
					return Located{d, FromExecutable}, nil
				}
				tried = append(tried, d)
				continue
			}
			for _, n := range s.names {
				if p := filepath.Join(d, n); check(p) {
					return Located{p, FromExecutable}, nil
				}
			}
			tried = append(tried, d)
		}
	}
	for _, start := range startDirs() {
		for d := start; ; d = filepath.Dir(d) {
			for _, n := range s.names {
				p := filepath.Join(d, ".cache", s.cacheSub, n)
				if check(p) {
					return Located{p, FromCache}, nil
				}
			}
			tried = append(tried, filepath.Join(d, ".cache", s.cacheSub))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, p := range s.system {
		if check(p) {
			return Located{p, FromSystem}, nil
		}
		tried = append(tried, p)
	}
	return Located{}, &NotFoundError{What: s.what, Env: s.env, Tried: dedupe(tried)}
}

// ErrNotInstalled matches (errors.Is) a NotFoundError: the runtime library
// or the models were looked for everywhere and are simply not installed,
// as on a checkout before `make setup`. An explicit setting that names a
// missing file is a configuration error instead, and does not match.
var ErrNotInstalled = errors.New("ort: not installed")

// NotFoundError reports a search that found nothing, with every place it
// looked, so an operator can see which paths were tried.
type NotFoundError struct {
	What  string   // "ONNX Runtime library", "model directory"
	Env   string   // the environment variable that would name it
	Tried []string // the places looked in, in search order
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("ort: no %s found (run `make setup`, or set $%s); looked in %s",
		e.What, e.Env, strings.Join(e.Tried, ", "))
}

// Is makes errors.Is(err, ErrNotInstalled) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotInstalled }

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// exeDir is the directory of the running binary, symlinks resolved (so a
// link in /usr/local/bin to an unpacked bundle finds the bundle's files).
func exeDir() string {
	exe, err := executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Dir(exe)
}

// startDirs are the working directory and the executable's directory.
func startDirs() []string {
	var out []string
	if wd, err := os.Getwd(); err == nil {
		out = append(out, wd)
	}
	if d := exeDir(); d != "" {
		out = append(out, d)
	}
	return out
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func dedupe(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
