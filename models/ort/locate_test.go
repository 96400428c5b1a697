package ort

import (
	"os"
	"path/filepath"
	"testing"
)

// layout creates files (paths relative to root) and returns root.
func layout(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// asExecutable makes the locators believe the binary is root/bin/redactd,
// with the working directory somewhere unrelated.
func asExecutable(t *testing.T, root string) {
	t.Helper()
	old := executable
	executable = func() (string, error) { return filepath.Join(root, "bin", "redactd"), nil }
	t.Cleanup(func() { executable = old })
	t.Setenv(EnvLib, "")
	t.Setenv(EnvModelDir, "")
	t.Chdir(t.TempDir())
}

func wantLocated(t *testing.T, got Located, err error, path, from string) {
	t.Helper()
	if err != nil || got.Path != path || got.From != from {
		t.Fatalf("got %+v, %v; want %s from %q", got, err, path, from)
	}
}

// TestLocateBesideExecutable covers the unpacked bundle (bin, lib, models)
// and an install.sh --prefix layout (bin, lib/redactd, share/redactd/models).
func TestLocateBesideExecutable(t *testing.T) {
	for _, c := range []struct {
		name, lib, models string
	}{
		{"bundle", "lib/libonnxruntime.so.1", "models"},
		{"prefix", "lib/redactd/libonnxruntime.so.1", "share/redactd/models"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := layout(t, "bin/redactd", c.lib, c.models+"/ocr/det.onnx")
			asExecutable(t, root)
			l, err := LocateLibrary("")
			wantLocated(t, l, err, filepath.Join(root, c.lib), FromExecutable)
			m, err := LocateModelDir("")
			wantLocated(t, m, err, filepath.Join(root, c.models), FromExecutable)
		})
	}
}

// TestLocateBesideExecutableOrder: settings and environment come first;
// the executable's own files come before a .cache found by walking up.
func TestLocateBesideExecutableOrder(t *testing.T) {
	root := layout(t, "bin/redactd", "lib/libonnxruntime.so.1", "models/ocr/det.onnx",
		".cache/ort/libonnxruntime.so.1", ".cache/models/ocr/det.onnx", "other/libx.so")
	asExecutable(t, root)
	l, err := LocateLibrary("")
	wantLocated(t, l, err, filepath.Join(root, "lib/libonnxruntime.so.1"), FromExecutable)

	explicit := filepath.Join(root, "other/libx.so")
	l, err = LocateLibrary(explicit)
	wantLocated(t, l, err, explicit, FromSetting)
	t.Setenv(EnvLib, explicit)
	l, err = LocateLibrary("")
	wantLocated(t, l, err, explicit, FromEnv)
}

// TestLocateSourceCheckout: in a checkout, bin/../models is the Go package
// tree (no ocr/det.onnx) and must not be taken for the model directory;
// .cache is found instead.
func TestLocateSourceCheckout(t *testing.T) {
	root := layout(t, "bin/redactd", "models/ner/model.go", ".cache/ort/libonnxruntime.so.1", ".cache/models/ocr/det.onnx")
	asExecutable(t, root)
	m, err := LocateModelDir("")
	wantLocated(t, m, err, filepath.Join(root, ".cache/models"), FromCache)
	l, err := LocateLibrary("")
	wantLocated(t, l, err, filepath.Join(root, ".cache/ort/libonnxruntime.so.1"), FromCache)
}

// TestLocateFollowsExecutableLink: a symlink to the bundle's binary (in
// /usr/local/bin, say) still finds the bundle's files.
func TestLocateFollowsExecutableLink(t *testing.T) {
	root := layout(t, "bin/redactd", "lib/libonnxruntime.so.1", "models/ocr/det.onnx")
	linkDir := t.TempDir()
	link := filepath.Join(linkDir, "redactd")
	if err := os.Symlink(filepath.Join(root, "bin/redactd"), link); err != nil {
		t.Fatal(err)
	}
	asExecutable(t, root)
	executable = func() (string, error) { return link, nil }
	l, err := LocateLibrary("")
	wantLocated(t, l, err, filepath.Join(root, "lib/libonnxruntime.so.1"), FromExecutable)
}
