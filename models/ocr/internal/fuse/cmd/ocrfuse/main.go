// Command ocrfuse rewrites PaddleOCR ONNX models into cheaper equivalent
// graphs for ONNX Runtime on CPU (see package fuse). deploy/setup.sh runs
// it on the pinned upstream models:
//
//	go run ./models/ocr/internal/fuse/cmd/ocrfuse IN OUT [IN OUT ...]
//
// The output is a deterministic function of the input: the same bytes on
// every machine, so setup pins its SHA-256.
package main

import (
	"fmt"
	"os"

	"github.com/redactd/redactd/models/ocr/internal/fuse"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ocrfuse:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 || len(args)%2 != 0 {
		return fmt.Errorf("usage: ocrfuse IN OUT [IN OUT ...]")
	}
	for i := 0; i < len(args); i += 2 {
		in, out := args[i], args[i+1]
		b, err := os.ReadFile(in)
		if err != nil {
			return err
		}
		fused, st, err := fuse.File(b)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		if err := os.WriteFile(out, fused, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %v\n", in, st)
	}
	return nil
}
