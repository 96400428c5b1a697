package ocr

import (
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/redactd/redactd/models/ort"
)

// cudaChildEnv marks the child process TestLatinModelCUDA runs itself in:
// ONNX Runtime's environment is process-wide, and the package's other
// tests hold CPU sessions.
const cudaChildEnv = "REDACTD_OCR_CUDA_CHILD"

// TestLatinModelCUDA reads the gate's names (Go Regular) with
// redactd-latin on the CPU, then in a child process with --device cuda,
// and wants the GPU to read at least as many of them exactly, less one
// (kernels differ in the last bits). It is skipped where the ONNX Runtime
// library has no usable CUDA provider or no GPU answers.
func TestLatinModelCUDA(t *testing.T) {
	if os.Getenv(cudaChildEnv) != "" {
		cudaChild(t)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	cpu := readNamesGoRegular(t, testEngineWith(t, Options{Model: ModelLatin, Charset: CharsetLatin}))
	cmd := exec.Command(os.Args[0], "-test.run=^TestLatinModelCUDA$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), cudaChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	s := string(out)
	if i := strings.Index(s, "SKIP-CUDA: "); i >= 0 {
		t.Skip(strings.SplitN(s[i:], "\n", 2)[0])
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, s)
	}
	i := strings.Index(s, "GPU-EXACT: ")
	if i < 0 {
		t.Fatalf("child gave no count:\n%s", s)
	}
	gpu, err := strconv.Atoi(strings.Fields(s[i+len("GPU-EXACT: "):])[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("names read exactly: CPU %d, CUDA %d", cpu, gpu)
	if gpu < cpu-1 {
		t.Errorf("CUDA reads %d names exactly, the CPU %d", gpu, cpu)
	}
}

// cudaChild is the child's side: ONNX Runtime on CUDA, redactd-latin.
func cudaChild(t *testing.T) {
	lib, err := ort.FindLibrary("")
	if err != nil {
		fmt.Println("SKIP-CUDA: no ONNX Runtime:", err)
		return
	}
	if err := ort.Init(ort.Options{LibPath: lib, Device: "cuda"}); err != nil {
		fmt.Println("SKIP-CUDA:", err)
		return
	}
	e, err := New("", Options{Model: ModelLatin})
	if err != nil {
		if strings.Contains(err.Error(), "cuda") || strings.Contains(err.Error(), "CUDA") {
			fmt.Println("SKIP-CUDA:", strings.ReplaceAll(err.Error(), "\n", " "))
			return
		}
		t.Fatal(err)
	}
	defer e.Close()
	fmt.Printf("GPU-EXACT: %d\n", readNamesGoRegular(t, e))
}

// readNamesGoRegular is how many gate names e reads exactly on the Go
// Regular page.
func readNamesGoRegular(t *testing.T, e *Engine) int {
	t.Helper()
	names := namesWithGlyphs(t, goregular.TTF, gateNames)
	img, _ := renderPage(t, pageSpec{lines: names, dpi: 200, pt: 11, noise: 10, margin: 0.7, seed: 60, ttf: goregular.TTF})
	lines, err := e.Recognize(context.Background(), img, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range names {
		for _, l := range lines {
			if strings.Contains(" "+strings.Join(strings.Fields(l.Text), " ")+" ", " "+name+" ") {
				n++
				break
			}
		}
	}
	return n
}
