package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// copyFile copies src to dst with mode.
func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDoctorFromExecutablePlace copies this test binary into the layout of
// an unpacked bundle (bin, lib, models) and of an install.sh --prefix
// (bin, lib/redactd, share/redactd/models), runs doctor from a directory
// with no .cache above it and no REDACTD_* variables, and expects the
// runtime and the models found beside the executable, and said so.
func TestDoctorFromExecutablePlace(t *testing.T) {
	lib, ocrDir := needRuntime(t)
	if os.Getenv("DOCTOR_TEST_CHILD") != "" {
		t.Skip("child")
	}
	for _, c := range []struct{ name, lib, models string }{
		{"bundle", "lib", "models"},
		{"prefix", "lib/redactd", "share/redactd/models"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			bin := filepath.Join(root, "bin", "redactd.test")
			copyFile(t, os.Args[0], bin, 0o755)
			wantLib := filepath.Join(root, c.lib, "libonnxruntime.so.1")
			copyFile(t, lib, wantLib, 0o644)
			wantModels := filepath.Join(root, c.models)
			for _, f := range ocrFiles {
				copyFile(t, filepath.Join(ocrDir, f), filepath.Join(wantModels, "ocr", f), 0o644)
			}
			data := t.TempDir()
			if err := os.Chmod(data, 0o700); err != nil { // serve and doctor refuse an open data directory
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "-test.run=^TestDoctorChild$")
			cmd.Dir = t.TempDir()
			cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + cmd.Dir, "DOCTOR_TEST_CHILD=--data " + data}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("doctor from %s: %v\n%s", bin, err, out)
			}
			res := parseDoctor(t, strings.TrimSuffix(strings.TrimSpace(string(out)), "PASS"))
			wantCheck(t, res, "onnxruntime", checkOK, wantLib+" loaded")
			wantCheck(t, res, "onnxruntime", checkOK, "found beside the executable")
			wantCheck(t, res, "ocr model files", checkOK, filepath.Join(wantModels, "ocr")+": ")
			wantCheck(t, res, "ocr model files", checkOK, "found beside the executable")
			wantCheck(t, res, "ocr models", checkOK, "test page read correctly")
			wantCheck(t, res, "ner model", checkOK, "embedded in the executable")
		})
	}
}
