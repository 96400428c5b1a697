package natsstore

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
)

// TestSegmentWait: a segment's put is bounded by one short request's
// time and its bytes at minPutRate, its size known from the reader when
// it can tell (what is left of a bytes or strings reader, or of a file
// from where it stands), else the whole segment.
func TestSegmentWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orig")
	if err := os.WriteFile(path, make([]byte, 10<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(2<<20, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		r    io.Reader
		left int64
	}{
		{"bytes", bytes.NewReader(make([]byte, 1000)), 1000},
		{"strings", strings.NewReader("abc"), 3},
		{"file, 2 MiB read", f, 8 << 20},
		{"stream", io.LimitReader(strings.NewReader("abc"), 2), -1},
	} {
		if got := remaining(tc.r); got != tc.left {
			t.Errorf("%s: remaining = %d; want %d", tc.name, got, tc.left)
		}
	}
	if at, _ := f.Seek(0, io.SeekCurrent); at != 2<<20 {
		t.Errorf("remaining moved the file to %d; want it left at %d", at, 2<<20)
	}
	const seg = 64 << 20
	for _, tc := range []struct {
		left int64
		want time.Duration
	}{
		{1000, store.DefaultRetryTry},                       // an original of a page: one short request's time
		{8 << 20, store.DefaultRetryTry + 2*time.Second},    // 8 MiB at 4 MiB/s
		{-1, store.DefaultRetryTry + 16*time.Second},        // unknown: a whole segment
		{100 << 20, store.DefaultRetryTry + 16*time.Second}, // at most a segment
	} {
		if got := segmentWait(seg, tc.left); got.Round(time.Millisecond) != tc.want {
			t.Errorf("segmentWait(%d) = %v; want %v", tc.left, got, tc.want)
		}
	}
}
