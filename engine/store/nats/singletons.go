package natsstore

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/engine/store"
)

// Singletons is store.Singletons on the KV bucket PREFIX-roles: one
// record per role naming its holder and when the claim ends (the
// holder's clock, unix ms), taken and renewed by compare-and-set, so two
// nodes that see an expired claim at once cannot both take it.
type Singletons struct {
	kv *bucket
}

var _ store.Singletons = (*Singletons)(nil)

// OpenSingletons creates or binds the roles bucket.
func OpenSingletons(ctx context.Context, js jetstream.JetStream, o Options) (*Singletons, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	kv, err := kvBucket(ctx, js, o, "roles")
	if err != nil {
		return nil, err
	}
	return &Singletons{kv: kv}, nil
}

type roleClaim struct {
	Holder string `json:"holder"`
	Until  int64  `json:"until_ms"`
}

// Hold implements store.Singletons.
func (s *Singletons) Hold(ctx context.Context, role, holder string, ttl time.Duration) (bool, error) {
	if err := store.CheckDocKey(role); err != nil {
		return false, err
	}
	key := "r." + role
	for range maxRetries {
		now := time.Now()
		v, _ := json.Marshal(roleClaim{Holder: holder, Until: now.Add(ttl).UnixMilli()})
		var cur roleClaim
		rev, err := readJSON(ctx, s.kv, key, &cur)
		if err != nil {
			return false, err
		}
		if rev != 0 && cur.Holder != holder && now.UnixMilli() < cur.Until {
			return false, nil
		}
		if rev == 0 {
			_, err = create(ctx, s.kv, key, v)
		} else {
			_, err = update(ctx, s.kv, key, v, rev)
		}
		if lostRace(err) {
			continue // another node moved the claim: look again
		}
		return err == nil, err
	}
	return false, errBusy
}

// Release implements store.Singletons.
func (s *Singletons) Release(ctx context.Context, role, holder string) error {
	if err := store.CheckDocKey(role); err != nil {
		return err
	}
	key := "r." + role
	for range maxRetries {
		var cur roleClaim
		rev, err := readJSON(ctx, s.kv, key, &cur)
		if err != nil || rev == 0 || cur.Holder != holder {
			return err
		}
		err = del(ctx, s.kv, key, rev)
		if !errors.Is(err, store.ErrConflict) {
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			return err
		}
	}
	return errBusy
}
