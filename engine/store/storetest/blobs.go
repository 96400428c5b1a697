package storetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
)

// BlobsFixture is a fresh blob store. SegmentSize is the size of the
// segments it splits blobs into (0: it does not split); the suite stores
// a blob of a few segments plus a tail, so a small SegmentSize keeps the
// test fast while crossing segment edges. Large, when > 0, is the size of
// one more blob to round-trip (a real >64 MiB one; callers set it outside
// -short).
type BlobsFixture struct {
	Blobs       store.Blobs
	SegmentSize int64
	Large       int64
}

// content is n deterministic pseudo-random bytes, generated as read, so a
// large blob is never held in memory.
type content struct {
	r *rand.ChaCha8
	n int64
}

func newContent(seed byte, n int64) *content {
	var s [32]byte
	s[0] = seed
	return &content{r: rand.NewChaCha8(s), n: n}
}

func (c *content) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, _ := c.r.Read(p)
	c.n -= int64(n)
	return n, nil
}

func sumOf(r io.Reader) (string, int64, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// failingReader yields n bytes, then an error: a client that hangs up.
type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("client went away")
	}
	k := min(len(p), f.n)
	clear(p[:k])
	f.n -= k
	return k, nil
}

// Blobs runs the contract of store.Blobs: streamed round trips across
// segment edges, atomic replacement, typed not-found errors, idempotent
// deletes, key checks.
func Blobs(t *testing.T, newBlobs func(t *testing.T) BlobsFixture) {
	t.Run("RoundTrip", func(t *testing.T) {
		f, ctx := newBlobs(t), ctxT(t)
		seg := f.SegmentSize
		if seg == 0 {
			seg = 1 << 20
		}
		for i, n := range []int64{0, 1, seg - 1, seg, 3*seg + 12345} {
			key := "job-1/doc-" + string(rune('a'+i)) + ".pdf"
			want, _, _ := sumOf(newContent(byte(i), n))
			info, err := f.Blobs.Put(ctx, key, newContent(byte(i), n))
			if err != nil || info.Size != n || info.SHA256 != want || info.Key != key {
				t.Fatalf("Put(%d bytes) = %+v, %v; want sha %s", n, info, err, want)
			}
			checkBlob(t, f.Blobs, key, n, want)
		}
	})
	t.Run("Large", func(t *testing.T) {
		f := newBlobs(t)
		if f.Large <= 0 {
			t.Skip("no large blob for this fixture (set outside -short)")
		}
		LargeBlob(t, f)
	})
	t.Run("Keys", func(t *testing.T) {
		f, ctx := newBlobs(t), ctxT(t)
		sw, ok := f.Blobs.(store.BlobSweeper)
		if !ok {
			t.Skip("the store cannot list its blobs")
		}
		before := time.Now().Add(-time.Second)
		want := []string{"job-1/a.orig", "job-1/a.pdf", "job-2/b.orig"}
		for _, k := range append(want, "job-3/gone.pdf") {
			if _, err := f.Blobs.Put(ctx, k, bytes.NewReader([]byte(k))); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Blobs.Delete(ctx, "job-3/gone.pdf"); err != nil {
			t.Fatal(err)
		}
		var got []string
		err := sw.Keys(ctx, func(key string, stored time.Time) bool {
			if stored.Before(before) || stored.After(time.Now().Add(time.Second)) {
				t.Errorf("%s stored at %v, want about now", key, stored)
			}
			got = append(got, key)
			return true
		})
		slices.Sort(got)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("Keys = %q, %v; want %q", got, err, want)
		}
		n := 0
		if err := sw.Keys(ctx, func(string, time.Time) bool { n++; return false }); err != nil || n != 1 {
			t.Fatalf("Keys stopped after %d calls, %v; want 1", n, err)
		}
		if _, err := sw.SweepPartial(ctx, time.Hour); err != nil {
			t.Fatalf("SweepPartial: %v", err)
		}
	})
	t.Run("ReplaceIsAtomic", func(t *testing.T) {
		f, ctx := newBlobs(t), ctxT(t)
		if _, err := f.Blobs.Put(ctx, "j/out.pdf", bytes.NewReader([]byte("first version"))); err != nil {
			t.Fatal(err)
		}
		// A Put that fails midway leaves the old blob whole.
		n := int(f.SegmentSize) + 10
		if _, err := f.Blobs.Put(ctx, "j/out.pdf", &failingReader{n: n}); err == nil {
			t.Fatal("Put from a failing reader succeeded")
		}
		want, _, _ := sumOf(bytes.NewReader([]byte("first version")))
		checkBlob(t, f.Blobs, "j/out.pdf", 13, want)
		// A successful Put replaces it, shorter.
		if _, err := f.Blobs.Put(ctx, "j/out.pdf", bytes.NewReader([]byte("v2"))); err != nil {
			t.Fatal(err)
		}
		want, _, _ = sumOf(bytes.NewReader([]byte("v2")))
		checkBlob(t, f.Blobs, "j/out.pdf", 2, want)
	})
	t.Run("DeleteAndNotFound", func(t *testing.T) {
		f, ctx := newBlobs(t), ctxT(t)
		_, err := f.Blobs.Open(ctx, "j/missing")
		wantErr(t, "Open missing", err, store.ErrNotFound)
		var nf *store.NotFoundError
		if !errors.As(err, &nf) || nf.Key != "j/missing" {
			t.Fatalf("Open missing: %v does not name the key", err)
		}
		_, err = f.Blobs.Stat(ctx, "j/missing")
		wantErr(t, "Stat missing", err, store.ErrNotFound)
		if err := f.Blobs.Delete(ctx, "j/missing"); err != nil {
			t.Fatalf("Delete missing: %v", err)
		}
		if _, err := f.Blobs.Put(ctx, "j/x.orig", newContent(3, 2*f.SegmentSize+1)); err != nil {
			t.Fatal(err)
		}
		if err := f.Blobs.Delete(ctx, "j/x.orig"); err != nil {
			t.Fatal(err)
		}
		_, err = f.Blobs.Open(ctx, "j/x.orig")
		wantErr(t, "Open after Delete", err, store.ErrNotFound)
		if err := f.Blobs.Delete(ctx, "j/x.orig"); err != nil {
			t.Fatalf("second Delete: %v", err)
		}
	})
	t.Run("InvalidKey", func(t *testing.T) {
		f, ctx := newBlobs(t), ctxT(t)
		for _, k := range []string{"", "../etc/passwd", "a/../b", "/abs", "a//b", "a b"} {
			_, err := f.Blobs.Put(ctx, k, bytes.NewReader(nil))
			wantErr(t, "Put("+k+")", err, store.ErrInvalidKey)
			_, err = f.Blobs.Open(ctx, k)
			wantErr(t, "Open("+k+")", err, store.ErrInvalidKey)
		}
	})
}

func checkBlob(t *testing.T, b store.Blobs, key string, size int64, sum string) {
	t.Helper()
	ctx := ctxT(t)
	info, err := b.Stat(ctx, key)
	if err != nil || info.Size != size || info.SHA256 != sum {
		t.Fatalf("Stat(%s) = %+v, %v; want %d bytes, sha %s", key, info, err, size, sum)
	}
	rc, err := b.Open(ctx, key)
	if err != nil {
		t.Fatalf("Open(%s): %v", key, err)
	}
	defer rc.Close()
	got, n, err := sumOf(rc)
	if err != nil || n != size || got != sum {
		t.Fatalf("Open(%s) read %d bytes sha %s, %v; want %d bytes sha %s", key, n, got, err, size, sum)
	}
}

// LargeBlob round-trips one blob of f.Large bytes, streamed both ways:
// past a 64 MiB segment when f uses production segments.
func LargeBlob(t *testing.T, f BlobsFixture) {
	want, _, _ := sumOf(newContent(9, f.Large))
	info, err := f.Blobs.Put(ctxT(t), "job-big/doc.orig", newContent(9, f.Large))
	if err != nil || info.Size != f.Large || info.SHA256 != want {
		t.Fatalf("Put of %d bytes = %+v, %v", f.Large, info, err)
	}
	checkBlob(t, f.Blobs, "job-big/doc.orig", f.Large, want)
	if err := f.Blobs.Delete(ctxT(t), "job-big/doc.orig"); err != nil {
		t.Fatal(err)
	}
}
