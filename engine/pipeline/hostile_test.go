package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/testkit/hostile"
	"github.com/redactd/redactd/internal/testkit/testlog"
)

var long = flag.Bool("long", false, "also run the slow and large hostile inputs (minutes, several GB of memory)")

// maxRSSGrowth bounds how far the test process's resident memory may
// rise above where it stood at the test's start while hostile documents
// are processed two at a time next to a normal one. It is a growth, not
// an absolute peak, because the start depends on what the package's
// earlier tests left resident (48 MiB alone, about 830 MiB in a full run):
// the hostile cases themselves add about 820 MiB either way.
const maxRSSGrowth = 1024 << 20

// caseTimeout bounds one document; the pipeline must honour its context.
const caseTimeout = 3 * time.Minute

// genericMessage is what contract.UserMessage says for errors that are not
// DocErrors: a hostile document must never end with it.
var genericMessage = contract.UserMessage(errors.New("x"))

func newHostilePipeline(t *testing.T, cfg config.Config, logs *testlog.Buffer) *pipeline.Pipeline {
	t.Helper()
	rs, err := detect.Recognizers()
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	p, err := pipeline.New(wire.Pipeline(cfg), pipeline.Deps{Detectors: rs, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// runDoc processes the file at path, failing t if Process outlives its
// context by more than a grace period (it would ignore cancellation).
// runDoc processes the file at path as the job service would: its
// progress callback refuses a page count over maxPages (the job service's
// page limit, which the processor honours by stopping).
func runDoc(t *testing.T, p *pipeline.Pipeline, path string, maxPages int, timeout time.Duration) ([]byte, *contract.ProcessResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	type result struct {
		out []byte
		res *contract.ProcessResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		var out bytes.Buffer
		limit := func(pr contract.Progress) error {
			if pr.PageCount > maxPages {
				return contract.DocErrorf(fmt.Sprintf("document has %d pages; the limit is %d", pr.PageCount, maxPages))
			}
			return nil
		}
		res, err := p.Process(ctx, contract.ProcessInput{DocID: "hostile", Path: path}, &out, limit)
		done <- result{out.Bytes(), res, err}
	}()
	select {
	case r := <-done:
		if ctx.Err() != nil && r.err != nil {
			t.Fatalf("not finished within %v: %v", timeout, r.err)
		}
		return r.out, r.res, r.err
	case <-time.After(timeout + 30*time.Second):
		t.Fatalf("Process still running %v after its context expired: cancellation is ignored", 30*time.Second)
		return nil, nil, nil
	}
}

// writeCase stores the case's bytes (streamed, for generated ones) in a
// file the pipeline reads.
func writeCase(t *testing.T, c *hostile.Case) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkOutcome asserts that Process's result is the one want describes.
func checkOutcome(t *testing.T, want hostile.Expect, out []byte, res *contract.ProcessResult, err error) {
	t.Helper()
	switch want.Outcome {
	case hostile.Redacted:
		if err != nil {
			t.Fatalf("want %v, got error %q (%v)", want, contract.UserMessage(err), err)
		}
		if verr := pdfout.Verify(bytes.NewReader(out), int64(len(out))); verr != nil {
			t.Fatalf("output fails verification: %v", verr)
		}
		doc, oerr := mupdf.Open(out, mupdf.Options{})
		if oerr != nil {
			t.Fatalf("output does not open: %v", oerr)
		}
		n := doc.NumPages()
		doc.Close()
		if n != res.PageCount || want.Pages > 0 && n != want.Pages {
			t.Fatalf("output has %d pages, result says %d, want %d", n, res.PageCount, want.Pages)
		}
	case hostile.Failed:
		if err == nil {
			t.Fatalf("want %v, got a redacted document of %d pages", want, res.PageCount)
		}
		var de *contract.DocError
		msg := contract.UserMessage(err)
		switch {
		case !errors.As(err, &de) || msg == genericMessage:
			t.Fatalf("want %v, got an internal error: %v", want, err)
		case !strings.Contains(msg, want.Message):
			t.Fatalf("want %v, got error %q", want, msg)
		}
		checkNoPII(t, "error message", msg)
	default:
		t.Fatalf("case has no document outcome (%v)", want)
	}
}

// checkNoPII fails if s repeats the sample text hostile documents carry.
func checkNoPII(t *testing.T, what, s string) {
	t.Helper()
	for _, pii := range []string{"jane.doe", "Jane Doe", "555 0134", "078-05-1120"} {
		if strings.Contains(s, pii) {
			t.Errorf("%s contains document text %q", what, pii)
		}
	}
}

// TestHostileDocuments runs every document case of the hostile corpus
// through the pipeline, two at a time, while a normal document is
// processed over and over beside them: each case must end as the corpus
// says (a verified redacted PDF, or a DocError with a clear message),
// nothing may panic, the normal document must keep succeeding, and the
// process's memory must not grow by more than maxRSSGrowth. Slow and large cases run
// with -long.
func TestHostileDocuments(t *testing.T) {
	cfg := config.Default()
	logs := &testlog.Buffer{}
	p := newHostilePipeline(t, cfg, logs)
	// What earlier tests of the package left on the heap is not this
	// test's: hand it back before the peak is reset, so the bound holds
	// the pipeline under hostile input, not the tests that ran before.
	debug.FreeOSMemory()
	start := procStatus("VmRSS")
	stopRSS := watchRSS(resetPeakRSS(t))

	// The normal document, processed in a loop until the cases are done.
	normalPath := filepath.Join(t.TempDir(), "normal.pdf")
	if err := os.WriteFile(normalPath, hostile.NormalPDF(), 0o600); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var normalRuns atomic.Int64
	normalDone := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				normalDone <- nil
				return
			default:
			}
			var out bytes.Buffer
			res, err := p.Process(context.Background(), contract.ProcessInput{DocID: "normal", Path: normalPath}, &out, func(contract.Progress) error { return nil })
			if err == nil {
				err = pdfout.Verify(bytes.NewReader(out.Bytes()), int64(out.Len()))
			}
			if err == nil && len(res.Masks) == 0 {
				err = errors.New("nothing was masked")
			}
			if err != nil {
				normalDone <- fmt.Errorf("normal document, run %d: %w", normalRuns.Load()+1, err)
				return
			}
			normalRuns.Add(1)
		}
	}()

	t.Run("cases", func(t *testing.T) {
		for _, c := range hostile.Documents() {
			if c.Long && !*long {
				continue
			}
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				want := c.Expect(cfg)
				path := writeCase(t, c)
				out, res, err := runDoc(t, p, path, cfg.MaxPagesPerDoc, caseTimeout)
				checkOutcome(t, want, out, res, err)
			})
		}
	})
	close(stop)
	if err := <-normalDone; err != nil {
		t.Error(err)
	}
	if normalRuns.Load() == 0 {
		t.Error("the normal document never finished")
	}
	peak := stopRSS()
	t.Logf("normal document processed %d times alongside; peak RSS %d MiB, %d MiB above the start", normalRuns.Load(), peak>>20, (peak-start)>>20)
	if peak-start > maxRSSGrowth {
		t.Errorf("peak RSS %d MiB, %d MiB above the start (%d MiB): more than %d MiB", peak>>20, (peak-start)>>20, start>>20, maxRSSGrowth>>20)
	}
	l := logs.String()
	if strings.Contains(l, "panic") {
		t.Errorf("the pipeline recovered a panic:\n%s", l)
	}
	checkNoPII(t, "logs", l)
}

// TestHostilePageLimit runs the page-count cases under a limit that
// allows them: then they are processed in full.
func TestHostilePageLimit(t *testing.T) {
	if !*long {
		t.Skip("processes 10000 pages; run with -long")
	}
	cfg := config.Default()
	cfg.MaxPagesPerDoc = 10000
	logs := &testlog.Buffer{}
	p := newHostilePipeline(t, cfg, logs)
	for _, name := range []string{"pdf-2500-pages", "pdf-10000-pages"} {
		c := hostile.Find(hostile.Documents(), name)
		if c == nil {
			t.Fatalf("no case %s", name)
		}
		t.Run(name, func(t *testing.T) {
			want := c.Expect(cfg)
			if want.Outcome != hostile.Redacted {
				t.Fatalf("corpus says %v under a limit of %d pages", want, cfg.MaxPagesPerDoc)
			}
			out, res, err := runDoc(t, p, writeCase(t, c), cfg.MaxPagesPerDoc, 10*time.Minute)
			checkOutcome(t, want, out, res, err)
		})
	}
}

// resetPeakRSS clears the kernel's record of the process's peak resident
// memory (VmHWM), so that the peak it reports is this test's (earlier
// tests ran in the same process), and reports whether it could.
func resetPeakRSS(t *testing.T) bool {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Logf("cannot reset peak RSS (%v); relying on sampling every 10 ms", err)
		return false
	}
	return true
}

// watchRSS samples the resident set every 10 ms until the returned
// function is called, which reports the sampled maximum, or the kernel's
// exact peak (VmHWM) when useHWM and it is larger.
func watchRSS(useHWM bool) func() int64 {
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if v := procStatus("VmRSS"); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 {
		close(stop)
		<-done
		if useHWM {
			return max(peak.Load(), procStatus("VmHWM"))
		}
		return peak.Load()
	}
}

// procStatus reads a "kB" field of /proc/self/status, in bytes (0 when
// unavailable).
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}
