package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestClientReport: with --report, each output path on stdout is followed
// by that document's report, one JSON line, as the server gives it; with
// stdout not a terminal, progress comes as plain lines on stderr.
func TestClientReport(t *testing.T) {
	url, key := startServer(t)
	t.Setenv("REDACT_URL", url)
	t.Setenv("REDACT_API_KEY", key)
	in, out := t.TempDir(), t.TempDir()
	a := writePDF(t, in, "a.pdf", 1)
	b := writePDF(t, in, "b.pdf", 3)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{a, b, "-o", out, "--report"}, &stdout, &stderr, false); code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("stdout %q: want path, report, path, report", stdout.String())
	}
	for i, want := range []struct {
		path  string
		pages int
	}{{filepath.Join(out, "a-redacted.pdf"), 1}, {filepath.Join(out, "b-redacted.pdf"), 3}} {
		if lines[2*i] != want.path {
			t.Fatalf("line %d %q, want %q", 2*i, lines[2*i], want.path)
		}
		var rep struct {
			DocumentID string `json:"document_id"`
			PageCount  int    `json:"page_count"`
			Masks      struct {
				Total      int            `json:"total"`
				ByCategory map[string]int `json:"by_category"`
			} `json:"masks"`
			Pages []struct{ Masks int } `json:"pages"`
		}
		if err := json.Unmarshal([]byte(lines[2*i+1]), &rep); err != nil {
			t.Fatalf("report line %q: %v", lines[2*i+1], err)
		}
		// Each page holds one e-mail address.
		if rep.DocumentID == "" || rep.PageCount != want.pages || len(rep.Pages) != want.pages || rep.Masks.ByCategory["Email"] != want.pages {
			t.Fatalf("report of %s: %s", want.path, lines[2*i+1])
		}
	}
	if strings.Contains(stderr.String(), "\x1b") || !strings.Contains(stderr.String(), "redact: b.pdf: 3/3 pages, redacted") {
		t.Fatalf("stderr is not plain progress lines:\n%s", stderr.String())
	}
}
