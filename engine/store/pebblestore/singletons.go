package pebblestore

import (
	"context"
	"time"

	"github.com/redactd/redactd/engine/store"
)

// singletons implements store.Singletons in memory: one process owns the
// database, so its roles need no durability (a restart starts with none
// held, as a dead holder's claim would have expired).
type singletons struct{ s *Store }

type claim struct {
	holder  string
	expires time.Time
}

func (g singletons) Hold(ctx context.Context, role, holder string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	now := g.s.now()
	if c, ok := g.s.roles[role]; ok && c.holder != holder && now.Before(c.expires) {
		return false, nil
	}
	g.s.roles[role] = claim{holder: holder, expires: now.Add(ttl)}
	return true, nil
}

func (g singletons) Release(ctx context.Context, role, holder string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	if c, ok := g.s.roles[role]; ok && c.holder == holder {
		delete(g.s.roles, role)
	}
	return nil
}

var _ store.Singletons = singletons{}
