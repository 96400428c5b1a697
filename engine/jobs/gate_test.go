package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/review"
	"github.com/redactd/redactd/internal/testkit"
	"github.com/redactd/redactd/internal/testkit/testlog"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// The output gate (Engine.verify, pdfout.VerifyFile) tested through the
// engine with the real pipeline: the pipeline renders, burns and writes
// as always, and a wrapper then slips a text layer holding the address
// into the burned page, as a writer bug or a text layer passed through
// would. The gate must refuse it whatever the Processor, so the document
// fails and nothing is released. Other engine tests inject their own
// verifier; these use the one Open installs.

// gateAddress is the PII of the gate tests' document.
const gateAddress = "harriet.quinlan@example.org"

// textLayerProc runs the real pipeline and, when inject says so, adds a
// hidden text layer showing gateAddress to the first page of its output.
type textLayerProc struct {
	jobs.Processor
	inject   func(in jobs.ProcessInput) bool
	injected atomic.Int32
}

func (p *textLayerProc) Process(ctx context.Context, in jobs.ProcessInput, out io.Writer, progress func(jobs.Progress) error) (*jobs.ProcessResult, error) {
	var buf bytes.Buffer
	res, err := p.Processor.Process(ctx, in, &buf, progress)
	if err != nil {
		return res, err
	}
	b := buf.Bytes()
	if p.inject(in) {
		if b, err = addTextLayer(b, gateAddress); err != nil {
			return nil, err
		}
		p.injected.Add(1)
	}
	n, err := out.Write(b)
	res.OutputBytes = int64(n)
	return res, err
}

// addTextLayer appends "BT ... (text) Tj ET" to the first page's content
// stream of a pdfout file and fixes /Length, the cross-reference table
// and startxref, so that the file is well formed and the text is the one
// thing the gate can object to.
func addTextLayer(pdf []byte, text string) ([]byte, error) {
	const draw = "/Im0 Do Q"
	end := bytes.Index(pdf, []byte(draw+"\nendstream"))
	if end < 0 {
		return nil, errors.New("addTextLayer: no content stream")
	}
	end += len(draw)
	start := bytes.LastIndex(pdf[:end], []byte("stream\n")) + len("stream\n")
	lenAt := bytes.LastIndex(pdf[:start], []byte("/Length ")) + len("/Length ")
	lenEnd := lenAt + bytes.IndexByte(pdf[lenAt:], ' ')
	extra := " BT 72 700 Td (" + text + ") Tj ET"
	var out []byte
	out = append(out, pdf[:lenAt]...)
	out = strconv.AppendInt(out, int64(end-start+len(extra)), 10)
	out = append(out, pdf[lenEnd:end]...)
	out = append(out, extra...)
	out = append(out, pdf[end:]...)
	delta := int64(len(out) - len(pdf))
	// Offsets past the change move by delta: xref entries (fixed width)
	// and startxref.
	xref := bytes.LastIndex(out, []byte("\nxref\n"))
	entry := regexp.MustCompile(`(?m)^(\d{10}) 00000 n $`)
	table := entry.ReplaceAllFunc(out[xref:], func(m []byte) []byte {
		off, _ := strconv.ParseInt(string(m[:10]), 10, 64)
		if off > int64(lenAt) {
			off += delta
		}
		return fmt.Appendf(nil, "%010d 00000 n ", off)
	})
	sx := regexp.MustCompile(`startxref\n(\d+)\n`)
	table = sx.ReplaceAllFunc(table, func(m []byte) []byte {
		off, _ := strconv.ParseInt(string(sx.FindSubmatch(m)[1]), 10, 64)
		return fmt.Appendf(nil, "startxref\n%d\n", off+delta)
	})
	return append(out[:xref:xref], table...), nil
}

// gateEngine opens the real pipeline, wrapped to add the text layer where
// inject says, and the engine over it with the engine's own gate.
func gateEngine(t *testing.T, cfg config.Config, inject func(jobs.ProcessInput) bool) (*jobs.Engine, *textLayerProc, *testlog.Buffer) {
	t.Helper()
	logs := &testlog.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	proc, err := pipeline.Open(wire.Pipeline(cfg), log, nil)
	testkit.SkipShortWithoutModels(t, err)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proc.Close() })
	wrapped := &textLayerProc{Processor: proc, inject: inject}
	eng, err := jobs.Open(wire.Engine(cfg, nil), wrapped, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng, wrapped, logs
}

func gateConfig(t *testing.T) config.Config {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.DPI = 72
	cfg.OCR = "off"
	return cfg
}

// TestAddTextLayer checks the tests' construction: the pipeline's output
// passes the gate, the same file with the text layer is well formed and
// refused for its text, not for a broken table.
func TestAddTextLayer(t *testing.T) {
	eng, _, _ := gateEngine(t, gateConfig(t), func(jobs.ProcessInput) bool { return false })
	acct := gateAccount(t, eng)
	job := gateJob(t, eng, acct, jobs.Ephemeral)
	if d := job.Documents[0]; d.Status != jobs.StatusRedacted {
		t.Fatalf("clean run: %+v", d)
	}
	rc, size, err := eng.Output(context.Background(), acct, job.Documents[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	clean, _ := io.ReadAll(rc)
	rc.Close()
	if err := pdfout.Verify(bytes.NewReader(clean), size); err != nil {
		t.Fatalf("pipeline output: %v", err)
	}
	leaky, err := addTextLayer(clean, gateAddress)
	if err != nil {
		t.Fatal(err)
	}
	err = pdfout.Verify(bytes.NewReader(leaky), int64(len(leaky)))
	if err == nil || !strings.Contains(err.Error(), "text operator BT") {
		t.Fatalf("with a text layer: %v, want it refused for the text operator", err)
	}
}

func gateAccount(t *testing.T, eng *jobs.Engine) *jobs.Account {
	t.Helper()
	key, _, err := eng.CreateKey(context.Background(), "gate@example.com", jobs.PlanStandard, 0)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := eng.Authenticate(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return acct
}

func gateJob(t *testing.T, eng *jobs.Engine, acct *jobs.Account, ret jobs.Retention) *jobs.Job {
	t.Helper()
	job, err := eng.CreateJob(context.Background(), acct, jobs.CreateJobRequest{
		Files:     []jobs.File{{Name: "note.pdf", Data: samplePDF("Write to " + gateAddress + " for copies")}},
		Retention: ret,
	})
	if err != nil {
		t.Fatal(err)
	}
	return waitTerminal(t, eng, acct, job.ID)
}

// TestOutputGateThroughEngine: a first run whose burned output carries a
// text layer ends in error "output failed verification"; no output is
// released (none served, none stored) and the log names no PII.
func TestOutputGateThroughEngine(t *testing.T) {
	cfg := gateConfig(t)
	eng, proc, logs := gateEngine(t, cfg, func(jobs.ProcessInput) bool { return true })
	acct := gateAccount(t, eng)
	job := gateJob(t, eng, acct, jobs.Ephemeral)
	d := job.Documents[0]
	if proc.injected.Load() == 0 {
		t.Fatal("the text layer was never added")
	}
	if d.Status != jobs.StatusError || d.ErrorMessage != "output failed verification" {
		t.Fatalf("document %s %q, want error \"output failed verification\"", d.Status, d.ErrorMessage)
	}
	if _, _, err := eng.Output(context.Background(), acct, d.ID); !errors.Is(err, jobs.ErrNotFound) {
		t.Fatalf("output of a refused document: %v, want not found", err)
	}
	filepath.WalkDir(cfg.Data, func(p string, de os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, d.ID+".pdf") {
			t.Errorf("an output file was kept: %s", p)
		}
		return nil
	})
	if strings.Contains(logs.String(), gateAddress) {
		t.Fatal("the log names the address")
	}
}

// TestApplyGateThroughEngine: a review apply whose re-burned output
// carries a text layer is refused by the same gate: ErrOutputRejected
// saying why, the old output kept byte for byte, the document back to
// redacted and the audit log ending in apply_failed.
func TestApplyGateThroughEngine(t *testing.T) {
	cfg := gateConfig(t)
	eng, proc, logs := gateEngine(t, cfg, func(in jobs.ProcessInput) bool { return in.Fixed })
	acct := gateAccount(t, eng)
	job := gateJob(t, eng, acct, jobs.Studio)
	d := job.Documents[0]
	if d.Status != jobs.StatusRedacted {
		t.Fatalf("first run: %+v", d)
	}
	before := readOutput(t, eng, acct, d.ID)
	ctx := context.Background()
	_, err := eng.Reviewer().ApplyReview(ctx, acct, d.ID, "api:test")
	if proc.injected.Load() == 0 {
		t.Fatal("the text layer was never added")
	}
	var ee *jobs.Error
	if !errors.Is(err, jobs.ErrOutputRejected) || !errors.As(err, &ee) ||
		ee.Message() != "output failed verification; the previous output is kept" {
		t.Fatalf("apply: %v, want ErrOutputRejected \"output failed verification; the previous output is kept\"", err)
	}
	if after := readOutput(t, eng, acct, d.ID); !bytes.Equal(after, before) {
		t.Fatal("the output changed after a refused apply")
	}
	j, err := eng.GetJob(ctx, acct, job.ID)
	if err != nil || j.Documents[0].Status != jobs.StatusRedacted {
		t.Fatalf("after a refused apply: %+v %v", j, err)
	}
	audit, err := eng.Reviewer().ReviewAudit(ctx, acct, d.ID)
	if err != nil || len(audit) == 0 || audit[len(audit)-1].Action != "apply_failed" {
		t.Fatalf("audit %+v %v, want it to end in apply_failed", audit, err)
	}
	if strings.Contains(logs.String(), gateAddress) {
		t.Fatal("the log names the address")
	}
}

func readOutput(t *testing.T, eng *jobs.Engine, acct *jobs.Account, docID string) []byte {
	t.Helper()
	rc, _, err := eng.Output(context.Background(), acct, docID)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestApplyRescanBlocks: the re-scan at apply is a gate, not only a
// report. With the address's mask moved off its word (burned elsewhere),
// the re-scan still reads the address: the apply is refused with
// ErrOutputRejected naming the category and page, the old output stays,
// the state keeps the leak for the editor and the audit log ends in
// apply_failed. With the mask rejected on purpose (with a reason), the
// same readable address is expected and the apply goes through.
func TestApplyRescanBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the OCR and NER models")
	}
	cfg := gateConfig(t)
	cfg.OCR, cfg.DPI = "auto", 150
	eng, _, logs := gateEngine(t, cfg, func(jobs.ProcessInput) bool { return false })
	acct := gateAccount(t, eng)
	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 760, 14, "Quarterly note")
	p.Text(72, 700, 14, "Write to "+gateAddress+" for copies")
	ctx := context.Background()
	job, err := eng.CreateJob(ctx, acct, jobs.CreateJobRequest{
		Files: []jobs.File{{Name: "note.pdf", Data: d.Bytes()}}, Retention: jobs.Studio})
	if err != nil {
		t.Fatal(err)
	}
	doc := waitTerminal(t, eng, acct, job.ID).Documents[0]
	if doc.Status != jobs.StatusRedacted {
		t.Fatalf("first run: %+v", doc)
	}
	before := readOutput(t, eng, acct, doc.ID)

	// put changes the e-mail's mask and saves the state.
	put := func(mut func(m *review.Mask)) {
		t.Helper()
		st, err := eng.Reviewer().ReviewState(ctx, acct, doc.ID)
		if err != nil {
			t.Fatal(err)
		}
		ms := append([]review.Mask(nil), st.Masks...)
		n := 0
		for i := range ms {
			if ms[i].Category == "Email" {
				mut(&ms[i])
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d e-mail masks in %+v, want 1", n, st.Masks)
		}
		if _, err := eng.Reviewer().PutReview(ctx, acct, doc.ID, st.Version, ms, "api:test"); err != nil {
			t.Fatal(err)
		}
	}

	// Moved to an empty corner, still burned: the address stays readable.
	var word review.Mask
	put(func(m *review.Mask) {
		word = *m
		m.Status, m.X0, m.Y0, m.X1, m.Y1 = review.Accepted, 400, 780, 500, 800
	})
	_, err = eng.Reviewer().ApplyReview(ctx, acct, doc.ID, "api:test")
	var ee *jobs.Error
	if !errors.Is(err, jobs.ErrOutputRejected) || !errors.As(err, &ee) ||
		!strings.Contains(ee.Message(), "Email on page 1") || !strings.HasSuffix(ee.Message(), "the previous output is kept") {
		t.Fatalf("apply with the address readable: %v, want ErrOutputRejected naming Email on page 1", err)
	}
	if after := readOutput(t, eng, acct, doc.ID); !bytes.Equal(after, before) {
		t.Fatal("a refused apply replaced the output")
	}
	if j, err := eng.GetJob(ctx, acct, job.ID); err != nil || j.Documents[0].Status != jobs.StatusRedacted {
		t.Fatalf("after a refused apply: %+v %v", j, err)
	}
	st, err := eng.Reviewer().ReviewState(ctx, acct, doc.ID)
	if err != nil || !hasLeak(st.Leaks, "Email", false) {
		t.Fatalf("state leaks %+v %v, want the address as an unexpected leak", st, err)
	}
	audit, err := eng.Reviewer().ReviewAudit(ctx, acct, doc.ID)
	if err != nil || audit[len(audit)-1].Action != "apply_failed" || !strings.Contains(audit[len(audit)-1].Reason, ":leaks=") {
		t.Fatalf("audit %+v %v, want apply_failed with its leak count", audit, err)
	}

	// Rejected on purpose, with a reason: readable on purpose, not a leak
	// that blocks.
	put(func(m *review.Mask) {
		m.X0, m.Y0, m.X1, m.Y1 = word.X0, word.Y0, word.X1, word.Y1
		m.Status, m.Reason = review.Rejected, "third-party"
	})
	ap, err := eng.Reviewer().ApplyReview(ctx, acct, doc.ID, "api:test")
	if err != nil {
		t.Fatalf("apply with the address's mask rejected: %v", err)
	}
	if !ap.Rescanned || !hasLeak(ap.Leaks, "Email", true) {
		t.Fatalf("apply %+v, want the address found and expected", ap)
	}
	if after := readOutput(t, eng, acct, doc.ID); bytes.Equal(after, before) {
		t.Fatal("the accepted apply did not replace the output")
	}
	if strings.Contains(logs.String(), gateAddress) {
		t.Fatal("the log names the address")
	}
}

func hasLeak(ls []review.Leak, category string, expected bool) bool {
	for _, l := range ls {
		if l.Category == category && l.Expected == expected {
			return true
		}
	}
	return false
}
