package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// longPDF is a cheap long document: A4 pages with a few short lines of
// text (OCR is off), a few seconds for 1000 pages at the test's 50 dpi.
func longPDF(pages int) []byte {
	d := testpdf.New()
	for i := 0; i < pages; i++ {
		p := d.AddPage(595, 842, 0)
		p.Text(72, 760, 12, fmt.Sprintf("Page %d of the long report", i+1))
		p.Text(72, 740, 12, "Contact: jane.doe@example.com")
	}
	return d.Bytes()
}

// docState opens the data directory of a stopped server for
// administration and returns the document status of the job's single
// document.
func docState(t *testing.T, data, key, jobID string) jobs.Status {
	t.Helper()
	cfg := config.Default()
	cfg.Data = data
	eng, err := jobs.Open(wire.Engine(cfg, nil), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	acct, err := eng.Authenticate(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	j, err := eng.GetJob(context.Background(), acct, jobID)
	if err != nil {
		t.Fatal(err)
	}
	return j.Documents[0].Status
}

// waitInFlight polls until the job's document is being processed.
func waitInFlight(t *testing.T, c *crashClient, d *daemon, jobID string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var j crashJob
		c.do(d, "GET", "/v1/jobs/"+jobID, nil, nil, &j)
		switch j.Documents[0].Status {
		case "analyzing", "redacting":
			return
		case "redacted", "error":
			t.Fatalf("the document finished (%s) before it could be caught in flight", j.Documents[0].Status)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the document never started:\n%s", d.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stopped sends SIGTERM and waits for the exit; it returns the exit code.
func stopped(t *testing.T, d *daemon, limit time.Duration) int {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
		return d.cmd.ProcessState.ExitCode()
	case <-time.After(limit):
		t.Fatalf("no exit %v after SIGTERM\n%s", limit, d.logs.String())
	}
	return -1
}

// TestGracefulShutdown: on SIGTERM the server stops taking work (new jobs
// 503, /readyz 503) while reads still work, lets a 1000-page document in
// flight finish within shutdown-grace and exits 0; with a grace too short
// for it, the document is put back in the queue, the server still exits 0
// (soon after the grace), and the next start finishes it.
func TestGracefulShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the daemon")
	}
	bin := buildRedactd(t)
	data, err := os.MkdirTemp("", "rdgrace")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(data) })
	const pages = 1000
	withGrace := func(g string) []string { return append(serveArgs(data), "--shutdown-grace", g) }

	d := startDaemonArgs(t, bin, withGrace("5m"))
	out, err := exec.Command(bin, "keys", "create", "--data", data, "--email", "grace@example.com", "--plan", "standard", "--pages", fmt.Sprint(3*pages)).Output()
	if err != nil {
		t.Fatalf("keys create: %v\n%s", err, d.logs.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	key := lines[len(lines)-1]
	c := &crashClient{t: t, hc: &http.Client{Timeout: time.Minute}, key: key}
	ct, body := multipartPDF(t, longPDF(pages))
	create := func(d *daemon) string {
		var j crashJob
		if st := c.do(d, "POST", "/v1/jobs", bytes.NewReader(body), map[string]string{"Content-Type": ct}, &j); st != 200 {
			t.Fatalf("create: %d", st)
		}
		return j.JobID
	}

	// 1. Enough grace: the document in flight finishes before the exit.
	first := create(d)
	waitInFlight(t, c, d, first)
	t0 := time.Now()
	d.cmd.Process.Signal(syscall.SIGTERM)
	// While draining: no new work, not ready, reads still served.
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := c.do(d, "GET", "/readyz", nil, nil, nil)
		if st == 503 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz %d while draining", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st := c.do(d, "POST", "/v1/jobs", bytes.NewReader(body), map[string]string{"Content-Type": ct}, nil); st != 503 {
		t.Fatalf("new job while draining: %d, want 503", st)
	}
	var j crashJob
	if st := c.do(d, "GET", "/v1/jobs/"+first, nil, nil, &j); st != 200 {
		t.Fatalf("status while draining: %d", st)
	}
	select {
	case <-d.done:
	case <-time.After(5 * time.Minute):
		t.Fatalf("no exit within the grace\n%s", d.logs.String())
	}
	if code := d.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d\n%s", code, d.logs.String())
	}
	t.Logf("drained a %d-page document in %v", pages, time.Since(t0).Round(time.Millisecond))
	if !strings.Contains(d.logs.String(), `"msg":"shutting down: documents in flight finished","finished":1`) {
		t.Fatalf("the drain did not wait for one document in flight:\n%s", d.logs.String())
	}
	if st := docState(t, data, key, first); st != jobs.StatusRedacted {
		t.Fatalf("the document in flight ended %s after a graceful stop, want redacted\n%s", st, d.logs.String())
	}

	// 2. A grace too short: the document goes back to the queue.
	d = startDaemonArgs(t, bin, withGrace("100ms"))
	second := create(d)
	waitInFlight(t, c, d, second)
	t0 = time.Now()
	if code := stopped(t, d, time.Minute); code != 0 {
		t.Fatalf("exit code %d with a short grace\n%s", code, d.logs.String())
	}
	t.Logf("stopped with a 100 ms grace in %v", time.Since(t0).Round(time.Millisecond))
	if st := docState(t, data, key, second); st.Terminal() {
		t.Fatalf("the document ended %s although the grace was too short for it", st)
	}
	if !strings.Contains(d.logs.String(), "requeued") {
		t.Fatalf("the log does not say what was requeued:\n%s", d.logs.String())
	}
	d = startDaemon(t, bin, data)
	if j := waitTerminal(t, c, d, second); j.Documents[0].Status != "redacted" || j.Documents[0].PageCount != pages {
		t.Fatalf("requeued document after restart: %+v", j.Documents[0])
	}
	if code := stopped(t, d, 30*time.Second); code != 0 {
		t.Fatalf("exit code %d when idle", code)
	}
}
