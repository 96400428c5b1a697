package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/internal/testkit/hostile/visible"
	"github.com/redactd/redactd/models/ocr"
)

// TestE2EWhatAReaderSees runs one document of each kind of
// internal/testkit/hostile/visible, and a control, through the HTTP API with the
// whole pipeline (NER and OCR on, the default dpi), downloads the outputs
// and reads them with our own recogniser: no planted personal data may
// be readable in the pixels.
func TestE2EWhatAReaderSees(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the OCR and NER models")
	}
	cases, err := visible.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	pick := map[string]bool{"layer-xxxx-11pt": true, "outline-letterhead-18pt": true, "image-467x20": true,
		"scan-wrong-layer": true, "type3-12pt": true, "control-text": true}
	cfg := testConfig(t)
	cfg.OCR = "auto"
	cfg.DPI = 150
	cfg.MaxUploadBytes = 8 << 20
	cfg.MaxRequestBytes = 16 << 20
	cfg.MaxFilesPerJob = len(pick)
	e := start(t, cfg)
	rd, err := ocr.New(cfg.ModelDir, ocr.Options{})
	if err != nil {
		t.Skipf("OCR models not available: %v", err)
	}
	defer rd.Close()
	key := e.key("reader@example.com", jobs.PlanStandard, 100)

	var f form
	var want []visible.Case
	for _, c := range cases {
		if pick[c.Name] {
			f.files = append(f.files, [2]string{c.Name + ".pdf", string(c.PDF)})
			want = append(want, c)
		}
	}
	// The model batchers report through the pipeline's hook: their metrics
	// move with this job (the test's own reader has no hook).
	batches := func(model string) float64 {
		return e.metric("redactd_model_batch_size_count", `{model="`+model+`"}`)
	}
	nerBefore, recBefore := batches("ner"), batches("ocr_rec")
	j := e.wait(key, e.job(e.create(key, f, nil)).JobID)
	if batches("ner") <= nerBefore || batches("ocr_rec") <= recBefore {
		t.Errorf("model batch metrics did not move: ner %v -> %v, ocr_rec %v -> %v", nerBefore, batches("ner"), recBefore, batches("ocr_rec"))
	}
	for i, d := range j.Documents {
		c := want[i]
		if d.FileName != c.Name+".pdf" || d.Status != "redacted" {
			t.Fatalf("document %d: %+v, want %s redacted", i, d, c.Name)
		}
		r := e.do("GET", "/v1/documents/"+d.ID+"/output", key, nil, nil)
		if r.status != 200 {
			t.Fatalf("%s: output %d", c.Name, r.status)
		}
		verifyPDF(t, r.body)
		lines := readOutput(t, rd, r.body)
		for _, pii := range c.PII {
			if l, ok := visible.Readable(lines, pii); ok {
				t.Errorf("%s: %q readable in the downloaded output: %q", c.Name, pii, l)
			}
		}
	}
}

// readOutput renders page 1 of pdf at 200 dpi and reads it.
func readOutput(t *testing.T, e *ocr.Engine, pdf []byte) []string {
	t.Helper()
	lines, err := visible.ReadPage(context.Background(), e, pdf, 0)
	if err != nil {
		t.Fatal(fmt.Errorf("read output: %w", err))
	}
	return lines
}
