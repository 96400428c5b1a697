package load

import (
	"context"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/config"

	"github.com/redactd/redactd/internal/testkit"
)

// TestLoadShort is a short load run against an in-process server: a few
// seconds of status polls and creations while the pipeline is busy. It
// asserts correctness only (no 5xx, no transport errors, every created
// job finishes redacted); the numbers are logged, never asserted.
func TestLoadShort(t *testing.T) {
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.OCR = "off"
	cfg.DPI = 72
	l, err := StartLocal(cfg, 2, nil)
	testkit.SkipShortWithoutModels(t, err)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	o := Options{
		URL: l.URL, Keys: l.Keys, Duration: 2 * time.Second, MaxRequests: 5000, MaxCreates: 40, Concurrency: 8,
		SmallPDF: PDF(1), BackgroundPDF: PDF(3), BackgroundJobs: 2, Idle: true, DrainTimeout: 2 * time.Minute,
	}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Phases {
		t.Logf("%-45s %5d requests %6.0f/s  p50 %v  p99 %v", p.Name, p.Requests, p.RPS(), p.Percentile(50), p.Percentile(99))
		if p.Requests == 0 || p.OK != p.Requests || p.Status5xx > 0 || p.Transport > 0 {
			t.Errorf("%s: %d requests, %d 2xx, %d 4xx, %d 5xx, %d transport errors", p.Name, p.Requests, p.OK, p.Status4xx, p.Status5xx, p.Transport)
		}
	}
	if len(rep.Created) == 0 || rep.Pending > 0 || rep.Failed > 0 || rep.Redacted != len(rep.Created) {
		t.Errorf("created %d jobs: %d redacted, %d error, %d not finished", len(rep.Created), rep.Redacted, rep.Failed, rep.Pending)
	}
	if rep.BackgroundFailed > 0 || rep.BackgroundSubmitted == 0 {
		t.Errorf("background stream: %d submitted, %d refused", rep.BackgroundSubmitted, rep.BackgroundFailed)
	}
	// The background jobs finish too.
	c := newClient(o)
	defer c.hc.CloseIdleConnections()
	if st, err := c.waitTerminal(context.Background(), l.Keys[0], rep.BackgroundJobs, time.Minute); err != nil || st.failed > 0 {
		t.Errorf("background jobs: %+v, %v", st, err)
	}
	if md := rep.Markdown(""); len(md) < 200 {
		t.Errorf("report: %q", md)
	}
}
