package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store"
)

// Singletons runs the contract of store.Singletons: one holder at a time,
// renewal by the holder, hand-over after the ttl or a Release, and one
// winner among concurrent claims.
func Singletons(t *testing.T, newSingletons func(t *testing.T) store.Singletons) {
	const ttl = time.Second
	hold := func(t *testing.T, s store.Singletons, role, holder string, want bool) {
		t.Helper()
		ok, err := s.Hold(ctxT(t), role, holder, ttl)
		if err != nil || ok != want {
			t.Fatalf("Hold(%s, %s) = %v, %v; want %v", role, holder, ok, err, want)
		}
	}
	t.Run("OneHolder", func(t *testing.T) {
		s := newSingletons(t)
		hold(t, s, "janitor", "node-a", true)
		hold(t, s, "janitor", "node-b", false)
		hold(t, s, "janitor", "node-a", true) // renewal
		hold(t, s, "other", "node-b", true)   // roles are apart
	})
	t.Run("ExpiryHandsOver", func(t *testing.T) {
		s := newSingletons(t)
		hold(t, s, "janitor", "node-a", true)
		time.Sleep(ttl + ttl/2) // node-a died: no renewal
		hold(t, s, "janitor", "node-b", true)
		hold(t, s, "janitor", "node-a", false)
	})
	t.Run("Release", func(t *testing.T) {
		s := newSingletons(t)
		hold(t, s, "janitor", "node-a", true)
		if err := s.Release(ctxT(t), "janitor", "node-b"); err != nil {
			t.Fatal(err)
		}
		hold(t, s, "janitor", "node-b", false) // not the holder: no effect
		if err := s.Release(ctxT(t), "janitor", "node-a"); err != nil {
			t.Fatal(err)
		}
		hold(t, s, "janitor", "node-b", true)
		if err := s.Release(ctxT(t), "unheld", "node-b"); err != nil {
			t.Fatalf("Release of an unheld role: %v", err)
		}
	})
	t.Run("ConcurrentClaims", func(t *testing.T) {
		s := newSingletons(t)
		const n = 5
		res := make(chan error, n)
		wins := make(chan string, n)
		for i := range n {
			go func() {
				holder := fmt.Sprintf("node-%d", i)
				ok, err := s.Hold(ctxT(t), "janitor", holder, ttl)
				if ok {
					wins <- holder
				}
				res <- err
			}()
		}
		for range n {
			if err := <-res; err != nil {
				t.Fatal(err)
			}
		}
		if len(wins) != 1 {
			t.Fatalf("%d holders won the role; want 1", len(wins))
		}
	})
}
