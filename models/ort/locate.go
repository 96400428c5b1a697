package ort

import (
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

// FindLibrary returns the ONNX Runtime shared library to load: explicit
// when not empty, else $REDACTD_ORT_LIB, else .cache/ort/libonnxruntime.so.1
// in the working directory or the executable's directory or any parent of
// either (where `make setup` puts it), else /usr/lib/redactd/.
func FindLibrary(explicit string) (string, error) {
	names := []string{"libonnxruntime.so.1", "libonnxruntime.so"}
	return find("ONNX Runtime library", explicit, EnvLib, "ort", names, systemLibs, false)
}

// FindModelDir returns the directory holding the model files (ocr/, ner/):
// explicit when not empty, else $REDACTD_MODEL_DIR, else .cache/models in
// the working directory or the executable's directory or any parent of
// either, else /usr/share/redactd/models or /usr/lib/redactd/models.
func FindModelDir(explicit string) (string, error) {
	return find("model directory", explicit, EnvModelDir, "", []string{"models"}, systemModelDirs, true)
}

// find implements the search order shared by both locators. cacheSub is
// the folder under .cache holding one of names.
func find(what, explicit, env, cacheSub string, names, system []string, dir bool) (string, error) {
	check := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.IsDir() == dir
	}
	if explicit != "" {
		if !check(explicit) {
			return "", fmt.Errorf("ort: %s %s not found", what, explicit)
		}
		return abs(explicit), nil
	}
	if p := os.Getenv(env); p != "" {
		if !check(p) {
			return "", fmt.Errorf("ort: %s %s (from $%s) not found", what, p, env)
		}
		return abs(p), nil
	}
	var tried []string
	for _, start := range startDirs() {
		for d := start; ; d = filepath.Dir(d) {
			for _, n := range names {
				p := filepath.Join(d, ".cache", cacheSub, n)
				if check(p) {
					return p, nil
				}
			}
			tried = append(tried, filepath.Join(d, ".cache", cacheSub))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, p := range system {
		if check(p) {
			return p, nil
		}
		tried = append(tried, p)
	}
	return "", fmt.Errorf("ort: no %s found (run `make setup`, or set $%s); looked in %s",
		what, env, strings.Join(dedupe(tried), ", "))
}

// startDirs are the working directory and the executable's directory.
func startDirs() []string {
	var out []string
	if wd, err := os.Getwd(); err == nil {
		out = append(out, wd)
	}
	if exe, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		out = append(out, filepath.Dir(exe))
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
