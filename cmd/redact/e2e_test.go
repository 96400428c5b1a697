package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/testkit/testpdf"
	"github.com/redactd/redactd/server"

	"github.com/redactd/redactd/internal/testkit"
)

// startServer runs the real server, engine and pipeline on a loopback
// listener and returns its URL and an API key.
func startServer(t *testing.T) (string, string) {
	t.Helper()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.Listen = "127.0.0.1:0"
	cfg.DPI = 50
	cfg.OCR = "off"
	cfg.Workers = 2
	log := slog.New(slog.DiscardHandler)
	reg := wire.NewRegistry()
	proc, err := pipeline.Open(wire.Pipeline(cfg), log, reg)
	testkit.SkipShortWithoutModels(t, err)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := jobs.Open(wire.Engine(cfg, reg), proc, log)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(wire.Server(cfg, reg), eng, eng.Reviewer(), log)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		eng.Close()
		proc.Close()
	})
	key, _, err := eng.CreateKey(context.Background(), "cli@example.com", jobs.PlanStandard, 100)
	if err != nil {
		t.Fatal(err)
	}
	return "http://" + ln.Addr().String(), key
}

func writePDF(t *testing.T, dir, name string, pages int) string {
	t.Helper()
	d := testpdf.New()
	for i := 0; i < pages; i++ {
		p := d.AddPage(595, 842, 0)
		p.Text(72, 760, 12, fmt.Sprintf("Mail jane.doe@example.com, page %d", i+1))
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestClientEndToEnd(t *testing.T) {
	url, key := startServer(t)
	t.Setenv("REDACT_URL", url)
	t.Setenv("REDACT_API_KEY", key)
	in, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	small := writePDF(t, in, "small.pdf", 1)
	large := writePDF(t, in, "large.pdf", 3)
	sub := filepath.Join(in, "sub")
	os.Mkdir(sub, 0o755)
	dup := writePDF(t, sub, "small.pdf", 2)

	// large.pdf goes over the direct-upload threshold; the two small.pdf
	// files share a name.
	size, _ := os.Stat(large)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{small, large, "-o", out, "--categories", "Email,Person", "--direct-over", fmt.Sprint(size.Size() - 1), dup}, &stdout, &stderr, true)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	want := []string{filepath.Join(out, "small-redacted.pdf"), filepath.Join(out, "small-2-redacted.pdf"), filepath.Join(out, "large-redacted.pdf")}
	if got := strings.Fields(stdout.String()); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("outputs %v, want %v", got, want)
	}
	// Each output belongs to its input: the page counts tell them apart.
	for i, pages := range []int{1, 2, 3} {
		b, err := os.ReadFile(want[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := pdfout.Verify(bytes.NewReader(b), int64(len(b))); err != nil {
			t.Fatalf("%s: %v", want[i], err)
		}
		doc, err := mupdf.Open(b, mupdf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := doc.NumPages(); n != pages {
			t.Errorf("%s has %d pages, want %d", want[i], n, pages)
		}
		doc.Close()
	}
	if !strings.Contains(stderr.String(), "directly") || !strings.Contains(stderr.String(), "redacted") {
		t.Fatalf("no progress on a terminal:\n%s", stderr.String())
	}
}

func TestClientExitCodes(t *testing.T) {
	url, key := startServer(t)
	in := t.TempDir()
	pdf := writePDF(t, in, "a.pdf", 1)
	garbage := filepath.Join(in, "g.pdf")
	os.WriteFile(garbage, []byte("%PDF-1.4 but nothing else"), 0o644)

	cases := []struct {
		name string
		url  string
		key  string
		args []string
		code int
		msg  string
	}{
		{"bad key", url, "nope", []string{pdf}, exitRejected, "request_id"},
		{"bad category", url, key, []string{pdf, "--categories", "SSN"}, exitRejected, "pii_categories"},
		{"no server", "http://127.0.0.1:1", key, []string{pdf, "--retries", "1"}, exitServer, "cannot reach"},
		{"missing file", url, key, []string{filepath.Join(in, "none.pdf")}, exitUsage, "none.pdf"},
		{"failed document", url, key, []string{garbage, pdf}, exitDocError, "g.pdf"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("REDACT_URL", c.url)
			t.Setenv("REDACT_API_KEY", c.key)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append(c.args, "-o", t.TempDir()), &stdout, &stderr, false)
			if code != c.code || !strings.Contains(stderr.String(), c.msg) {
				t.Fatalf("exit %d (want %d), stderr:\n%s", code, c.code, stderr.String())
			}
		})
	}
}
