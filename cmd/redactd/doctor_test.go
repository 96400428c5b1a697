package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/storelog"
	"github.com/redactd/redactd/internal/testkit"
	"github.com/redactd/redactd/models/ocr"
	"github.com/redactd/redactd/models/ort"
)

// needRuntime skips when `make setup` has not placed the ONNX Runtime
// library and the OCR models.
func needRuntime(t *testing.T) (lib, ocrDir string) {
	t.Helper()
	lib, err := ort.FindLibrary("")
	if err != nil {
		t.Skipf("ONNX Runtime library not installed (run `make setup`): %v", err)
	}
	ocrDir, err = ocr.ModelDir("")
	if err != nil {
		t.Skipf("OCR models not installed (run `make setup`): %v", err)
	}
	return lib, ocrDir
}

var doctorLine = regexp.MustCompile(`^(ok|warn|FAIL) +([a-z][a-z ]*): (.+)$`)

// doctorOutput runs `redactd doctor args...` in this process and returns
// its exit code and the detail of each check by name.
func doctorOutput(t *testing.T, args ...string) (int, map[string]checkResult) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"doctor"}, args...), &out, &errb)
	return code, parseDoctor(t, out.String()+errb.String())
}

func parseDoctor(t *testing.T, s string) map[string]checkResult {
	t.Helper()
	res := map[string]checkResult{}
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.HasPrefix(line, "redactd: ") || strings.HasPrefix(line, "\x1b") || strings.HasPrefix(line, "[m") || strings.Contains(line, "onnxruntime_src") {
			continue // the command's error line; ONNX Runtime's own log
		}
		m := doctorLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q is not 'ok|warn|FAIL  name: detail'\n%s", line, s)
		}
		res[m[2]] = checkResult{m[1], m[2], m[3]}
	}
	return res
}

func wantCheck(t *testing.T, res map[string]checkResult, name, status, contains string) {
	t.Helper()
	r, ok := res[name]
	if !ok {
		t.Fatalf("no %q check in %v", name, res)
	}
	if r.status != status || !strings.Contains(r.detail, contains) {
		t.Fatalf("%s: got %s %q, want %s containing %q", name, r.status, r.detail, status, contains)
	}
}

// newJobLog makes a data directory with a record store holding one
// account.
func newJobLog(t *testing.T) config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	if err := os.Chmod(cfg.Data, 0o700); err != nil {
		t.Fatal(err)
	}
	eng, err := jobs.Open(wire.Engine(cfg, nil), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := eng.CreateKey(context.Background(), "doctor@example.com", jobs.PlanFree, 0); err != nil {
		t.Fatal(err)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestDoctorHealthyInstallation(t *testing.T) {
	needRuntime(t)
	cfg := newJobLog(t)
	code, res := doctorOutput(t, "--data", cfg.Data)
	if code != exitOK {
		t.Fatalf("exit %d: %v", code, res)
	}
	for _, name := range []string{"version", "cpu", "mupdf", "data directory", "records", "onnxruntime", "gpu", "ner model", "multilingual ner model", "ocr model files", "ocr models"} {
		if r, ok := res[name]; !ok || r.status == checkFail {
			t.Errorf("check %q: %+v", name, r)
		}
	}
	wantCheck(t, res, "records", checkOK, fmt.Sprintf("schema version %d (current)", storelog.SchemaVersion))
	wantCheck(t, res, "data directory", checkOK, "writable")
	wantCheck(t, res, "mupdf", checkOK, "extracted and rendered")
	wantCheck(t, res, "onnxruntime", checkOK, "loaded, version ")
	wantCheck(t, res, "onnxruntime", checkOK, "found in .cache (make setup)")
	wantCheck(t, res, "ocr model files", checkOK, "found in .cache (make setup)")
	wantCheck(t, res, "ner model", checkOK, "test sentence tagged")
	wantCheck(t, res, "multilingual ner model", checkOK, "redactd-ner-multilingual")
	wantCheck(t, res, "multilingual ner model", checkOK, "embedded in the executable")
	wantCheck(t, res, "ocr models", checkOK, "test page read correctly")
	wantCheck(t, res, "gpu", checkOK, "not used")
	wantCheck(t, res, "webhooks", checkOK, "off")
}

func TestDoctorFailsOnBrokenInstallation(t *testing.T) {
	needRuntime(t)
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	emptyModels := t.TempDir()
	for _, tc := range []struct {
		name                string
		args                []string
		check, status, text string
	}{
		{"missing library", []string{"--ort-lib", "/nonexistent/libonnxruntime.so.1"}, "onnxruntime", checkFail, "not found"},
		{"missing models", []string{"--model-dir", emptyModels}, "ocr model files", checkFail, "no det.onnx"},
		{"data is a file", []string{"--data", notDir}, "data directory", checkFail, "not a directory"},
		{"data under a file", []string{"--data", filepath.Join(notDir, "sub")}, "data directory", checkFail, "not a directory"},
		{"bad webhook allow-list", []string{"--webhook-allow-hosts", "10.0.0.0/33"}, "webhooks", checkFail, "not a host name, IP address or CIDR"},
		{"no multilingual model", []string{"--ner-model-multilingual", emptyModels}, "multilingual ner model", checkFail, "does not load"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--data", privateDir(t)}, tc.args...)
			code, res := doctorOutput(t, args...)
			if code != exitError {
				t.Fatalf("exit %d, want %d: %v", code, exitError, res)
			}
			wantCheck(t, res, tc.check, tc.status, tc.text)
		})
	}
	t.Run("models blocked without library", func(t *testing.T) {
		_, res := doctorOutput(t, "--data", privateDir(t), "--ort-lib", "/nonexistent/lib.so")
		wantCheck(t, res, "ner model", checkFail, "ONNX Runtime did not load")
	})
}

// TestDoctorChecksums verifies SHA256SUMS beside the models and the
// library, as `make bundle` ships them and install.sh places them.
func TestDoctorChecksums(t *testing.T) {
	lib, ocrDir := needRuntime(t)
	root := t.TempDir()
	dir := filepath.Join(root, "ocr")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var sums strings.Builder
	for _, f := range ocrFiles {
		if err := os.Symlink(filepath.Join(ocrDir, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
		sum, err := fileSHA256(filepath.Join(ocrDir, f))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sums, "%s  ocr/%s\n", sum, f)
	}
	writeSums := func(s string) {
		if err := os.WriteFile(filepath.Join(root, sumsFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	writeSums(sums.String())
	code, res := doctorOutput(t, "--data", privateDir(t), "--model-dir", root)
	if code != exitOK {
		t.Fatalf("exit %d: %v", code, res)
	}
	wantCheck(t, res, "ocr model files", checkOK, "4 file(s) match")
	wantCheck(t, res, "ocr models", checkOK, "loaded")

	bad := sha256.Sum256([]byte("not the model"))
	writeSums(strings.Replace(sums.String(), mustSum(t, filepath.Join(ocrDir, "rec.onnx")), hex.EncodeToString(bad[:]), 1))
	code, res = doctorOutput(t, "--data", privateDir(t), "--model-dir", root)
	if code != exitError {
		t.Fatalf("exit %d with a wrong checksum: %v", code, res)
	}
	wantCheck(t, res, "ocr model files", checkFail, "ocr/rec.onnx: SHA-256")
	if _, ok := res["ocr models"]; ok {
		t.Fatal("models loaded although their checksum did not match")
	}

	// The library: a SHA256SUMS beside it that does not list it, or lists
	// another sum, fails before it is loaded.
	libDir := t.TempDir()
	if err := os.Symlink(lib, filepath.Join(libDir, "libonnxruntime.so.1")); err != nil {
		t.Fatal(err)
	}
	for _, content := range []string{
		hex.EncodeToString(bad[:]) + "  libonnxruntime.so.1\n",
		hex.EncodeToString(bad[:]) + "  other.so\n",
	} {
		if err := os.WriteFile(filepath.Join(libDir, sumsFile), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		code, res = doctorOutput(t, "--data", privateDir(t), "--ort-lib", filepath.Join(libDir, "libonnxruntime.so.1"), "--ocr", "off")
		if code != exitError {
			t.Fatalf("exit %d with a wrong library checksum: %v", code, res)
		}
		wantCheck(t, res, "onnxruntime", checkFail, "libonnxruntime.so.1")
	}
}

func mustSum(t *testing.T, path string) string {
	t.Helper()
	s, err := fileSHA256(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestReadSums(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const helloSum = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
	for _, tc := range []struct {
		name, sums string
		names      []string
		status     string
		contains   string
	}{
		{"match", helloSum + "  a\n", nil, checkOK, "1 file(s) match"},
		{"binary mode marker", helloSum + " *a\n", []string{"a"}, checkOK, "1 file(s) match"},
		{"mismatch", strings.Repeat("0", 64) + "  a\n", nil, checkFail, "does not match"},
		{"not listed", helloSum + "  a\n", []string{"b"}, checkFail, "not listed"},
		{"listed but missing", helloSum + "  a\n" + helloSum + "  gone\n", nil, checkFail, "gone"},
		{"garbage", "hello world\n", nil, checkFail, "not a sha256sum line"},
		{"empty", "\n", nil, checkFail, "lists no files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, sumsFile), []byte(tc.sums), 0o644); err != nil {
				t.Fatal(err)
			}
			r := sumsNote(dir, tc.names)
			if r.status != tc.status || !strings.Contains(r.detail, tc.contains) || !r.found {
				t.Fatalf("got %+v, want %s containing %q", r, tc.status, tc.contains)
			}
		})
	}
	if r := sumsNote(t.TempDir(), nil); r.found || r.status != checkOK {
		t.Fatalf("no SHA256SUMS: %+v", r)
	}
}

// TestDoctorRecords covers the record store's states: none, current,
// held by a running server, locked, written by a newer release, and the
// job log of an earlier release that serve will move.
func TestDoctorRecords(t *testing.T) {
	check := func(cfg config.Config) checkResult {
		t.Helper()
		d := &doctorRun{cfg: cfg, ctx: context.Background()}
		d.checkRecords()
		if len(d.results) != 1 {
			t.Fatalf("results %+v", d.results)
		}
		return d.results[0]
	}
	want := func(r checkResult, status, contains string) {
		t.Helper()
		if r.status != status || !strings.Contains(r.detail, contains) {
			t.Fatalf("got %s %q, want %s containing %q", r.status, r.detail, status, contains)
		}
	}

	empty := config.Default()
	empty.Data = privateDir(t)
	want(check(empty), checkOK, "none yet")

	old := config.Default()
	old.Data = privateDir(t)
	testkit.CopyTree(t, filepath.Join("..", "..", "engine", "jobs", "testdata", "datadir-v2", "data", "joblog"), filepath.Join(old.Data, "joblog"))
	want(check(old), checkOK, "job log of an earlier release")

	cfg := newJobLog(t)
	want(check(cfg), checkOK, fmt.Sprintf("schema version %d (current)", storelog.SchemaVersion))

	// Open: pebble's lock is held (here by this process).
	log := slog.New(slog.DiscardHandler)
	eng, err := jobs.Open(wire.Engine(cfg, nil), nil, log)
	if err != nil {
		t.Fatal(err)
	}
	want(check(cfg), checkWarn, "locked")
	// Serving: the admin socket answers; the store is not touched.
	cfg.AdminSock = shortSock(t)
	a, err := startAdmin(cfg.AdminSock, false, eng, log)
	if err != nil {
		t.Fatal(err)
	}
	want(check(cfg), checkOK, "a server is running")
	a.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	want(check(cfg), checkOK, fmt.Sprintf("schema version %d (current)", storelog.SchemaVersion))

	// A newer release's layout.
	ps, err := pebblestore.Open(filepath.Join(cfg.Data, "store"), pebblestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ps.Docs().Get(context.Background(), "meta.schema")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ps.Docs().Update(context.Background(), "meta.schema", []byte("99"), r.Revision); err != nil {
		t.Fatal(err)
	}
	ps.Close()
	want(check(cfg), checkFail, "schema version 99 is newer")
}

// TestDoctorCUDAWithoutProvider runs doctor with --device cuda against the
// CPU-only library in a child process (ONNX Runtime's environment is
// per process) and expects the GPU check to fail with instructions.
func TestDoctorCUDAWithoutProvider(t *testing.T) {
	needRuntime(t)
	if os.Getenv("DOCTOR_TEST_CHILD") != "" {
		t.Skip("child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDoctorChild$")
	cmd.Env = append(os.Environ(), "DOCTOR_TEST_CHILD=--device cuda --data "+privateDir(t))
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitError {
		t.Fatalf("child: %v, want exit %d\n%s", err, exitError, out)
	}
	res := parseDoctor(t, string(out))
	if r := res["gpu"]; r.status == checkOK {
		t.Skip("this ONNX Runtime library has a CUDA provider")
	}
	wantCheck(t, res, "gpu", checkFail, "libonnxruntime_providers_cuda.so")
	wantCheck(t, res, "gpu", checkFail, "CUDA 12 and cuDNN 9")
	wantCheck(t, res, "ner model", checkFail, "see gpu")
	wantCheck(t, res, "onnxruntime", checkOK, "loaded")
}

// TestDoctorChild is the child of TestDoctorCUDAWithoutProvider.
func TestDoctorChild(t *testing.T) {
	args := os.Getenv("DOCTOR_TEST_CHILD")
	if args == "" {
		t.Skip("runs as a child process only")
	}
	os.Exit(run(append([]string{"doctor"}, strings.Fields(args)...), os.Stdout, os.Stdout))
}

func TestVersionCommand(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"version"}, &out, &out); code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if !strings.HasPrefix(out.String(), "redactd "+version+" (go") {
		t.Fatalf("version output %q", out.String())
	}
	if code := run([]string{"version", "extra"}, &out, &out); code != exitUsage {
		t.Fatalf("version with an argument: exit %d", code)
	}
}
