package pipeline

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline/mupdf"

	"github.com/redactd/redactd/internal/shareddata"
)

// TestSharedDocuments redacts every real-world PDF in the shared documents
// folder (internal/shareddata: ../shared/data/documents by default)
// and checks the output: same page count and page sizes, nothing MuPDF can
// extract as text, and the output safety check passes.
func TestSharedDocuments(t *testing.T) {
	paths, _ := filepath.Glob(shareddata.Path("documents", "*", "*.pdf"))
	if len(paths) == 0 {
		t.Skipf("%s not present", shareddata.Path("documents"))
	}
	p := newTestPipeline(t)
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			in, err := mupdf.Open(data, mupdf.Options{})
			if err != nil {
				t.Skipf("input does not open: %v", err)
			}
			defer in.Close()
			r, err := process(t, p, data, contract.Options{Categories: page.Categories})
			if err != nil {
				msg := contract.UserMessage(err)
				if strings.Contains(msg, "internal") {
					t.Fatalf("failed with a generic message: %v", err)
				}
				t.Skipf("document refused: %s", msg)
			}
			if err := pdfout.Verify(bytes.NewReader(r.out), int64(len(r.out))); err != nil {
				t.Fatalf("output fails verification: %v", err)
			}
			out, err := mupdf.Open(r.out, mupdf.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			if out.NumPages() != in.NumPages() {
				t.Fatalf("output has %d pages, input %d", out.NumPages(), in.NumPages())
			}
			for i := 0; i < in.NumPages(); i++ {
				ip, err := in.LoadPage(context.Background(), i)
				if err != nil {
					t.Fatal(err)
				}
				op, err := out.LoadPage(context.Background(), i)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(ip.Width()-op.Width()) > 0.5 || math.Abs(ip.Height()-op.Height()) > 0.5 {
					t.Errorf("page %d: output %gx%g, input %gx%g", i+1, op.Width(), op.Height(), ip.Width(), ip.Height())
				}
				if n := len(op.Words()); n != 0 {
					t.Errorf("page %d: MuPDF extracts %d words from the output", i+1, n)
				}
				ip.Close()
				op.Close()
			}
		})
	}
}
