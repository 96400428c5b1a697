package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
)

// errElection stands for what an engine returns while it elects a
// leader: transient to the test's policy.
var errElection = errors.New("no leader")

func transient(err error) bool {
	return errors.Is(err, errElection) || errors.Is(err, context.DeadlineExceeded)
}

// policy is a short policy for tests, counting retries.
func policy(For time.Duration, retries *int) store.Retry {
	var mu sync.Mutex
	return store.Retry{For: For, Try: 200 * time.Millisecond, Transient: transient, Retried: func(string) {
		mu.Lock()
		*retries++
		mu.Unlock()
	}}
}

// TestRetryTransient: a call that fails transiently is tried again until
// it succeeds, each retry counted.
func TestRetryTransient(t *testing.T) {
	var retries, tries int
	err := policy(5*time.Second, &retries).Do(t.Context(), "op", true, func(_ context.Context, retried bool) error {
		tries++
		if retried != (tries > 1) {
			t.Errorf("try %d: retried = %v", tries, retried)
		}
		if tries < 4 {
			return fmt.Errorf("natsstore: create x: %w", errElection)
		}
		return nil
	})
	if err != nil || tries != 4 || retries != 3 {
		t.Fatalf("err %v after %d tries, %d retries; want nil after 4 tries, 3 retries", err, tries, retries)
	}
}

// TestRetryAnswers: conflicts, missing keys, stale leases, refused
// charges, invalid keys, cancellations and errors the engine does not
// call transient are answers: tried once, returned as they are, even by
// a policy that calls everything transient.
func TestRetryAnswers(t *testing.T) {
	all := store.Retry{For: 5 * time.Second, Transient: func(error) bool { return true }}
	none := store.Retry{For: 5 * time.Second, Transient: transient}
	for _, tc := range []struct {
		p   store.Retry
		err error
	}{
		{all, &store.ConflictError{Key: "k", Revision: 3}},
		{all, &store.NotFoundError{Key: "k"}},
		{all, store.ErrStaleLease},
		{all, fmt.Errorf("charge: %w", store.ErrQuota)},
		{all, store.ErrInvalidKey},
		{all, context.Canceled},
		{none, errors.New("stream offline for good")},
		{store.Retry{For: 5 * time.Second}, errElection}, // no Transient: nothing is
	} {
		tries := 0
		err := tc.p.Do(t.Context(), "op", true, func(context.Context, bool) error {
			tries++
			return tc.err
		})
		if tries != 1 || err != tc.err {
			t.Errorf("%v: %d tries, returned %v; want 1 try, the error itself", tc.err, tries, err)
		}
	}
}

// TestRetryBound: a call that keeps failing transiently is given up once
// For has passed (plus at most the last try), as an UnavailableError
// that wraps the last error.
func TestRetryBound(t *testing.T) {
	var retries int
	const For = 600 * time.Millisecond
	start := time.Now()
	tries := 0
	err := policy(For, &retries).Do(t.Context(), "docs_create", true, func(context.Context, bool) error {
		tries++
		return fmt.Errorf("try %d: %w", tries, errElection)
	})
	el := time.Since(start)
	var ue *store.UnavailableError
	if !errors.As(err, &ue) || !errors.Is(err, store.ErrUnavailable) || !errors.Is(err, errElection) || ue.Op != "docs_create" {
		t.Fatalf("err %v; want an UnavailableError of docs_create wrapping the last error", err)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("try %d", tries)) {
		t.Errorf("err %q does not wrap the last try (%d)", err, tries)
	}
	if el > For+time.Second {
		t.Errorf("gave up after %v; want no try started after %v", el, For)
	}
	if tries < 4 || retries != tries-1 {
		t.Errorf("%d tries, %d retries in %v; want backoff from 50 ms (at least 4 tries), one retry counted per try after the first", tries, retries, For)
	}
	t.Logf("%d tries in %v", tries, el.Round(time.Millisecond))

	// No retries at all with a negative For.
	tries = 0
	err = store.Retry{For: -1, Transient: transient}.Do(t.Context(), "op", true, func(context.Context, bool) error {
		tries++
		return errElection
	})
	if tries != 1 || !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("For < 0: %d tries, %v; want 1 try, ErrUnavailable", tries, err)
	}
}

// TestRetryTry: each try of a short call gets its own deadline (Try), so
// a request that is never answered is given up and tried again; a long
// call (a blob's Put) gets the caller's context.
func TestRetryTry(t *testing.T) {
	var retries int
	p := policy(5*time.Second, &retries)
	tries := 0
	start := time.Now()
	err := p.Do(t.Context(), "op", true, func(c context.Context, _ bool) error {
		tries++
		if tries == 1 {
			<-c.Done() // never answered
			return c.Err()
		}
		return nil
	})
	if err != nil || tries != 2 || time.Since(start) > 2*time.Second {
		t.Fatalf("err %v after %d tries in %v; want the first try cut at 200 ms and a second", err, tries, time.Since(start))
	}
	err = p.Do(t.Context(), "op", false, func(c context.Context, _ bool) error {
		if _, ok := c.Deadline(); ok {
			return errors.New("a long call got a deadline")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRetryContext: the caller's context bounds the retries. Cancelled,
// the call returns at once with the cancellation; past its deadline, with
// ErrUnavailable (the store could not answer in the time it was given).
func TestRetryContext(t *testing.T) {
	var retries int
	p := policy(time.Minute, &retries)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	err := p.Do(ctx, "op", true, func(context.Context, bool) error { return errElection })
	if !errors.Is(err, context.Canceled) || errors.Is(err, store.ErrUnavailable) || time.Since(start) > time.Second {
		t.Errorf("cancelled after 300 ms: %v after %v; want context.Canceled within about 300 ms", err, time.Since(start))
	}
	ctx, cancel = context.WithTimeout(t.Context(), 400*time.Millisecond)
	defer cancel()
	start = time.Now()
	err = p.Do(ctx, "op", true, func(c context.Context, _ bool) error {
		<-c.Done()
		return c.Err()
	})
	if !errors.Is(err, store.ErrUnavailable) || time.Since(start) > time.Second {
		t.Errorf("deadline 400 ms: %v after %v; want ErrUnavailable within about 400 ms", err, time.Since(start))
	}
}

// flaky is a store.Docs, Idempotency and Blobs in memory whose next
// calls can be made to fail transiently, before or after they apply.
type flaky struct {
	mu     sync.Mutex
	recs   map[string]store.Record
	rev    uint64
	claims map[string][]byte
	blobs  map[string][]byte
	// fail lists the next calls' faults: "before" fails a call without
	// applying it, "after" applies it and loses its answer.
	fail []string
}

func newFlaky(fail ...string) *flaky {
	return &flaky{recs: map[string]store.Record{}, claims: map[string][]byte{}, blobs: map[string][]byte{}, fail: fail}
}

// fault pops the next fault: whether to fail before applying, and after.
func (f *flaky) fault() (before, after bool) {
	if len(f.fail) == 0 {
		return false, false
	}
	x := f.fail[0]
	f.fail = f.fail[1:]
	return x == "before", x == "after"
}

func (f *flaky) Get(_ context.Context, key string) (store.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.recs[key]
	if !ok {
		return store.Record{}, &store.NotFoundError{Key: key}
	}
	return r, nil
}

func (f *flaky) Create(_ context.Context, key string, value []byte) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	before, after := f.fault()
	if before {
		return 0, errElection
	}
	if _, ok := f.recs[key]; ok {
		return 0, &store.ConflictError{Key: key}
	}
	f.rev++
	f.recs[key] = store.Record{Key: key, Value: bytes.Clone(value), Revision: f.rev}
	if after {
		return 0, errElection
	}
	return f.rev, nil
}

func (f *flaky) Update(_ context.Context, key string, value []byte, rev uint64) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	before, after := f.fault()
	if before {
		return 0, errElection
	}
	r, ok := f.recs[key]
	if !ok {
		return 0, &store.NotFoundError{Key: key}
	}
	if r.Revision != rev {
		return 0, &store.ConflictError{Key: key, Revision: rev}
	}
	f.rev++
	f.recs[key] = store.Record{Key: key, Value: bytes.Clone(value), Revision: f.rev}
	if after {
		return 0, errElection
	}
	return f.rev, nil
}

func (f *flaky) Delete(_ context.Context, key string, rev uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	before, after := f.fault()
	if before {
		return errElection
	}
	r, ok := f.recs[key]
	if !ok {
		return &store.NotFoundError{Key: key}
	}
	if r.Revision != rev {
		return &store.ConflictError{Key: key, Revision: rev}
	}
	delete(f.recs, key)
	if after {
		return errElection
	}
	return nil
}

func (f *flaky) Keys(context.Context, string) ([]string, error) { return nil, nil }
func (f *flaky) KeysAfter(context.Context, string, string, int) ([]string, error) {
	return nil, nil
}

func (f *flaky) Claim(_ context.Context, key string, value []byte) ([]byte, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	before, after := f.fault()
	if before {
		return nil, false, errElection
	}
	if v, ok := f.claims[key]; ok {
		return v, false, nil
	}
	f.claims[key] = bytes.Clone(value)
	if after {
		return nil, false, errElection
	}
	return value, true, nil
}

func (f *flaky) Release(_ context.Context, key string) error { return nil }

func (f *flaky) Put(_ context.Context, key string, r io.Reader) (store.BlobInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	before, _ := f.fault()
	if before {
		io.CopyN(io.Discard, r, 3) // a try that read some and failed
		return store.BlobInfo{}, errElection
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return store.BlobInfo{}, err
	}
	f.blobs[key] = b
	return store.BlobInfo{Key: key, Size: int64(len(b))}, nil
}

func (f *flaky) Open(_ context.Context, key string) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(f.blobs[key])), nil
}

func (f *flaky) Stat(_ context.Context, key string) (store.BlobInfo, error) {
	return store.BlobInfo{Key: key, Size: int64(len(f.blobs[key]))}, nil
}

// idem is flaky's Idempotency (Get differs from Docs' Get).
type idem struct{ *flaky }

func (i idem) Get(_ context.Context, key string) ([]byte, error) { return i.claims[key], nil }

// blobs is flaky's Blobs (Delete differs from Docs' Delete).
type blobs struct{ *flaky }

func (b blobs) Delete(context.Context, string) error { return nil }

func wrap(f *flaky) store.Store {
	var n int
	return store.WithRetry(store.Store{Docs: f, Idempotency: idem{f}, Blobs: blobs{f}}, policy(5*time.Second, &n))
}

// TestRetryLanded: a write whose first try was applied but whose answer
// was lost is retried, and the retry reports the success the first try
// had, never a conflict with itself: a retried create answers success
// (not a duplicate), and a create that finds another value answers a
// conflict.
func TestRetryLanded(t *testing.T) {
	ctx := t.Context()
	f := newFlaky("after")
	s := wrap(f)
	rev, err := s.Docs.Create(ctx, "job.a", []byte("mine"))
	if err != nil || rev != 1 {
		t.Fatalf("create whose answer was lost: %d, %v; want revision 1", rev, err)
	}
	if len(f.recs) != 1 {
		t.Fatalf("%d records; want 1", len(f.recs))
	}
	// Another writer's record is a conflict even on a retry.
	f.recs["job.b"] = store.Record{Key: "job.b", Value: []byte("theirs"), Revision: 7}
	f.fail = []string{"before"}
	if _, err := s.Docs.Create(ctx, "job.b", []byte("mine")); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("create over another value after a retry: %v; want a conflict", err)
	}
	f.fail = []string{"after"}
	rev2, err := s.Docs.Update(ctx, "job.a", []byte("mine, v2"), rev)
	if err != nil || rev2 <= rev {
		t.Fatalf("update whose answer was lost: %d, %v; want a revision past %d", rev2, err, rev)
	}
	// A stale update stays a conflict.
	f.fail = []string{"before"}
	if _, err := s.Docs.Update(ctx, "job.a", []byte("other"), rev); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale update after a retry: %v; want a conflict", err)
	}
	f.fail = []string{"after"}
	if err := s.Docs.Delete(ctx, "job.a", rev2); err != nil {
		t.Fatalf("delete whose answer was lost: %v", err)
	}
	if err := s.Docs.Delete(ctx, "job.a", rev2); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete of a missing record, no retry: %v; want not found", err)
	}
	f.fail = []string{"after"}
	v, won, err := s.Idempotency.Claim(ctx, "key-1", []byte("job-1"))
	if err != nil || !won || string(v) != "job-1" {
		t.Fatalf("claim whose answer was lost: %q, %v, %v; want job-1, won", v, won, err)
	}
	f.fail = []string{"before"}
	v, won, err = s.Idempotency.Claim(ctx, "key-1", []byte("job-2"))
	if err != nil || won || string(v) != "job-1" {
		t.Fatalf("claim of a taken key after a retry: %q, %v, %v; want job-1, not won", v, won, err)
	}
}

// TestRetryPut: a blob Put is retried from the start of its reader when
// it can be rewound, and tried once when it cannot.
func TestRetryPut(t *testing.T) {
	ctx := t.Context()
	f := newFlaky("before")
	s := wrap(f)
	r := strings.NewReader("xx-original bytes")
	r.Seek(3, io.SeekStart) // the caller's reader need not start at 0
	if _, err := s.Blobs.Put(ctx, "j/d.orig", r); err != nil {
		t.Fatal(err)
	}
	if got := string(f.blobs["j/d.orig"]); got != "original bytes" {
		t.Fatalf("blob %q after a retried Put; want %q", got, "original bytes")
	}
	f.fail = []string{"before"}
	if _, err := s.Blobs.Put(ctx, "j/e.orig", io.MultiReader(strings.NewReader("once"))); !errors.Is(err, errElection) {
		t.Fatalf("Put from a reader that cannot be rewound: %v; want the first try's error", err)
	}
	if _, ok := s.Blobs.(store.BlobSweeper); ok {
		t.Error("the retried Blobs claims to sweep; its store does not")
	}
}
