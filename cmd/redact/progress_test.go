package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressView(t *testing.T) {
	files := []localFile{{Path: "/in/a.pdf"}, {Path: "/in/b.pdf"}}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	jobAt := func(aStatus string, aDone, aCount int) *job {
		return &job{Documents: []document{
			{ID: "a", Status: aStatus, PageCount: aCount, PagesDone: aDone},
			{ID: "b", Status: "uploaded"},
		}}
	}

	t.Run("bars", func(t *testing.T) {
		var out bytes.Buffer
		v := newProgressView(&out, true, files)
		v.update(jobAt("analyzing", 0, 100), t0)
		v.update(jobAt("analyzing", 20, 100), t0.Add(2*time.Second))
		s := out.String()
		first, second, _ := strings.Cut(s, "\x1b[2A")
		if !strings.Contains(first, "a.pdf: [........................] 0/100 pages, analyzing\n") ||
			!strings.Contains(first, "b.pdf: [........................] waiting, uploaded\n") {
			t.Fatalf("first draw %q", first)
		}
		// 20 pages in 2 s: 10 pages/s, 80 left: 8 s.
		if !strings.Contains(second, "\r\x1b[Ka.pdf: [####....................] 20/100 pages, 10.0 pages/s, ETA 0:08, analyzing\n") {
			t.Fatalf("redraw %q", second)
		}
		v.update(jobAt("redacted", 100, 100), t0.Add(9*time.Second))
		if !strings.Contains(out.String(), "a.pdf: [########################] 100/100 pages, redacted\n") {
			t.Fatalf("finished %q", out.String())
		}
	})

	t.Run("plain lines", func(t *testing.T) {
		var out bytes.Buffer
		v := newProgressView(&out, false, files)
		v.update(jobAt("analyzing", 0, 3600), t0)
		v.update(jobAt("analyzing", 0, 3600), t0.Add(time.Second)) // no change: no line
		v.update(jobAt("analyzing", 10, 3600), t0.Add(10*time.Second))
		want := "redact: a.pdf: 0/3600 pages, analyzing\n" +
			"redact: b.pdf: waiting, uploaded\n" +
			"redact: a.pdf: 10/3600 pages, 1.0 pages/s, ETA 59:50, analyzing\n"
		if out.String() != want {
			t.Fatalf("got\n%q\nwant\n%q", out.String(), want)
		}
		if strings.Contains(out.String(), "\x1b") {
			t.Fatal("escape sequences in plain mode")
		}
	})
}

func TestETA(t *testing.T) {
	for _, c := range []struct {
		n    int
		rate float64
		want string
	}{{0, 5, "0:00"}, {30, 1, "0:30"}, {7200, 2, "1:00:00"}, {125, 1, "2:05"}} {
		if got := eta(c.n, c.rate); got != c.want {
			t.Errorf("eta(%d, %v) = %q, want %q", c.n, c.rate, got, c.want)
		}
	}
}
