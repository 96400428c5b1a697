package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/redactd/redactd/engine/store"
)

// Docs runs the contract of store.Docs: create once, compare-and-set by
// revision, stale revisions refused, typed errors carrying the key, no
// lost update under concurrent read-modify-write.
func Docs(t *testing.T, newDocs func(t *testing.T) store.Docs) {
	t.Run("NotFound", func(t *testing.T) {
		d, ctx := newDocs(t), ctxT(t)
		_, err := d.Get(ctx, "doc.missing")
		wantErr(t, "Get", err, store.ErrNotFound)
		var nf *store.NotFoundError
		if !errors.As(err, &nf) || nf.Key != "doc.missing" {
			t.Fatalf("Get: %v is not a NotFoundError for doc.missing", err)
		}
		_, err = d.Update(ctx, "doc.missing", []byte("x"), 1)
		wantErr(t, "Update", err, store.ErrNotFound)
		wantErr(t, "Delete", d.Delete(ctx, "doc.missing", 1), store.ErrNotFound)
	})
	t.Run("CreateOnce", func(t *testing.T) {
		d, ctx := newDocs(t), ctxT(t)
		rev, err := d.Create(ctx, "doc.a", []byte("one"))
		if err != nil || rev == 0 {
			t.Fatalf("Create: rev %d, %v", rev, err)
		}
		_, err = d.Create(ctx, "doc.a", []byte("two"))
		wantErr(t, "second Create", err, store.ErrConflict)
		var ce *store.ConflictError
		if !errors.As(err, &ce) || ce.Key != "doc.a" {
			t.Fatalf("second Create: %v is not a ConflictError for doc.a", err)
		}
		r, err := d.Get(ctx, "doc.a")
		if err != nil || string(r.Value) != "one" || r.Revision != rev || r.Key != "doc.a" {
			t.Fatalf("Get = %+v, %v; want one at %d", r, err, rev)
		}
	})
	t.Run("CompareAndSet", func(t *testing.T) {
		d, ctx := newDocs(t), ctxT(t)
		r1, err := d.Create(ctx, "doc.b", []byte("v1"))
		if err != nil {
			t.Fatal(err)
		}
		r2, err := d.Update(ctx, "doc.b", []byte("v2"), r1)
		if err != nil || r2 == r1 {
			t.Fatalf("Update at current revision: rev %d, %v", r2, err)
		}
		// A worker that read v1 must not commit over v2.
		_, err = d.Update(ctx, "doc.b", []byte("stale"), r1)
		wantErr(t, "Update at a stale revision", err, store.ErrConflict)
		var ce *store.ConflictError
		if !errors.As(err, &ce) || ce.Key != "doc.b" || ce.Revision != r1 {
			t.Fatalf("stale Update: %v, want ConflictError{doc.b, %d}", err, r1)
		}
		wantErr(t, "Delete at a stale revision", d.Delete(ctx, "doc.b", r1), store.ErrConflict)
		if r, err := d.Get(ctx, "doc.b"); err != nil || string(r.Value) != "v2" || r.Revision != r2 {
			t.Fatalf("after refused writes: %+v, %v; want v2 at %d", r, err, r2)
		}
		if err := d.Delete(ctx, "doc.b", r2); err != nil {
			t.Fatalf("Delete at current revision: %v", err)
		}
		_, err = d.Get(ctx, "doc.b")
		wantErr(t, "Get after Delete", err, store.ErrNotFound)
		_, err = d.Update(ctx, "doc.b", []byte("v3"), r2)
		wantErr(t, "Update after Delete", err, store.ErrNotFound)
		// A deleted key can be created again; its revisions never repeat.
		r3, err := d.Create(ctx, "doc.b", []byte("again"))
		if err != nil || r3 == r1 || r3 == r2 {
			t.Fatalf("Create after Delete: rev %d (old %d, %d), %v", r3, r1, r2, err)
		}
	})
	t.Run("InvalidKey", func(t *testing.T) {
		d, ctx := newDocs(t), ctxT(t)
		for _, k := range []string{"", "doc.", "doc..x", "doc.*", "doc.>", "a b", "doc/x"} {
			_, err := d.Create(ctx, k, []byte("x"))
			wantErr(t, fmt.Sprintf("Create(%q)", k), err, store.ErrInvalidKey)
			_, err = d.Get(ctx, k)
			wantErr(t, fmt.Sprintf("Get(%q)", k), err, store.ErrInvalidKey)
		}
		_, err := d.Keys(ctx, "doc")
		wantErr(t, "Keys(doc)", err, store.ErrInvalidKey)
	})
	t.Run("Keys", func(t *testing.T) {
		d, ctx := newDocs(t), ctxT(t)
		for _, k := range []string{"doc.1", "doc.2", "job.1", "doc.3"} {
			if _, err := d.Create(ctx, k, []byte(k)); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := d.Get(ctx, "doc.3")
		if err := d.Delete(ctx, "doc.3", r.Revision); err != nil {
			t.Fatal(err)
		}
		keys, err := d.Keys(ctx, "doc.")
		slices.Sort(keys)
		if err != nil || !slices.Equal(keys, []string{"doc.1", "doc.2"}) {
			t.Fatalf("Keys(doc.) = %q, %v", keys, err)
		}
		all, err := d.Keys(ctx, "")
		if err != nil || len(all) != 3 {
			t.Fatalf("Keys() = %q, %v; want 3 keys", all, err)
		}
	})
	t.Run("KeysAfter", func(t *testing.T) {
		d, ctx := newDocs(t), ctxT(t)
		// Created out of order; "idx.ab." and "idx." keys lie outside
		// prefix "idx.a.", whatever their byte order.
		for _, k := range []string{"idx.a.3", "idx.a.1", "idx.ab.0", "idx.a.5", "idx.a.2", "idx.0", "idx.a.4", "idx.b.1", "idx.a.2.x"} {
			if _, err := d.Create(ctx, k, []byte(k)); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := d.Get(ctx, "idx.a.3")
		if err := d.Delete(ctx, "idx.a.3", r.Revision); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			after string
			limit int
			want  []string
		}{
			{"", 10, []string{"idx.a.1", "idx.a.2", "idx.a.2.x", "idx.a.4", "idx.a.5"}},
			{"", 2, []string{"idx.a.1", "idx.a.2"}},
			{"idx.a.2", 2, []string{"idx.a.2.x", "idx.a.4"}}, // the deleted idx.a.3 skipped
			{"idx.a.2.x", 1, []string{"idx.a.4"}},
			{"idx.a.25", 10, []string{"idx.a.4", "idx.a.5"}}, // after need not be a key
			{"idx.a.5", 10, nil},
			{"idx.0", 1, []string{"idx.a.1"}}, // before the prefix: from the first
			{"idx.z", 10, nil},
			{"", 0, nil},
		} {
			keys, err := d.KeysAfter(ctx, "idx.a.", c.after, c.limit)
			if err != nil || !slices.Equal(keys, c.want) {
				t.Errorf("KeysAfter(idx.a., %q, %d) = %q, %v; want %q", c.after, c.limit, keys, err, c.want)
			}
		}
		_, err := d.KeysAfter(ctx, "idx.a", "", 1)
		wantErr(t, "KeysAfter(idx.a)", err, store.ErrInvalidKey)
	})
	t.Run("ReadYourWrites", func(t *testing.T) {
		// A Get right after an acknowledged write sees it: a node that
		// just committed a state must not read the older one back.
		d, ctx := newDocs(t), ctxT(t)
		rev, err := d.Create(ctx, "doc.ryw", []byte("0"))
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 100; i++ {
			v := []byte(strconv.Itoa(i))
			if rev, err = d.Update(ctx, "doc.ryw", v, rev); err != nil {
				t.Fatal(err)
			}
			r, err := d.Get(ctx, "doc.ryw")
			if err != nil || r.Revision != rev || string(r.Value) != string(v) {
				t.Fatalf("write %d: Get = %q at %d, %v; want %q at %d", i, r.Value, r.Revision, err, v, rev)
			}
		}
	})
	t.Run("NoLostUpdate", func(t *testing.T) {
		d, ctx := newDocs(t), ctxT(t)
		if _, err := d.Create(ctx, "acct.x", []byte("0")); err != nil {
			t.Fatal(err)
		}
		const workers, each = 4, 5
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for range workers {
			wg.Go(func() {
				for i := 0; i < each; {
					r, err := d.Get(ctx, "acct.x")
					if err != nil {
						errs <- err
						return
					}
					n, _ := strconv.Atoi(string(r.Value))
					_, err = d.Update(ctx, "acct.x", []byte(strconv.Itoa(n+1)), r.Revision)
					switch {
					case errors.Is(err, store.ErrConflict):
						continue // lost the race: read again
					case err != nil:
						errs <- err
						return
					}
					i++
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		r, err := d.Get(ctx, "acct.x")
		if err != nil || string(r.Value) != strconv.Itoa(workers*each) {
			t.Fatalf("counter = %q, %v; want %d", r.Value, err, workers*each)
		}
	})
}

// Idempotency runs the contract of store.Idempotency: the first Claim of
// a key wins, everywhere, and later ones see its value.
func Idempotency(t *testing.T, newIdem func(t *testing.T) store.Idempotency) {
	t.Run("ClaimOnce", func(t *testing.T) {
		s, ctx := newIdem(t), ctxT(t)
		key := "acct-1/jobs/Ärger: retry #1 *>" // free-form, as clients send them
		_, err := s.Get(ctx, key)
		wantErr(t, "Get before Claim", err, store.ErrNotFound)
		v, created, err := s.Claim(ctx, key, []byte("job-1"))
		if err != nil || !created || string(v) != "job-1" {
			t.Fatalf("first Claim = %q, %v, %v", v, created, err)
		}
		v, created, err = s.Claim(ctx, key, []byte("job-2"))
		if err != nil || created || string(v) != "job-1" {
			t.Fatalf("second Claim = %q, %v, %v; want job-1, false", v, created, err)
		}
		if v, err := s.Get(ctx, key); err != nil || string(v) != "job-1" {
			t.Fatalf("Get = %q, %v", v, err)
		}
		if err := s.Release(ctx, key); err != nil {
			t.Fatal(err)
		}
		if err := s.Release(ctx, key); err != nil {
			t.Fatalf("second Release: %v", err)
		}
		v, created, err = s.Claim(ctx, key, []byte("job-3"))
		if err != nil || !created || string(v) != "job-3" {
			t.Fatalf("Claim after Release = %q, %v, %v", v, created, err)
		}
	})
	t.Run("ConcurrentClaims", func(t *testing.T) {
		s, ctx := newIdem(t), ctxT(t)
		const n = 6
		type res struct {
			v       string
			created bool
			err     error
		}
		out := make(chan res, n)
		for i := range n {
			go func() {
				v, c, err := s.Claim(ctx, "race", []byte(fmt.Sprintf("job-%d", i)))
				out <- res{string(v), c, err}
			}()
		}
		winners, values := 0, map[string]bool{}
		for range n {
			r := <-out
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.created {
				winners++
			}
			values[r.v] = true
		}
		if winners != 1 || len(values) != 1 {
			t.Fatalf("%d winners, values %v; want 1 winner and one value", winners, values)
		}
	})
}
