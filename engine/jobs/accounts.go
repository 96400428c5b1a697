package jobs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/mail"
	"slices"
	"strings"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/store/record"
)

// API keys are "rdk_" followed by 32 random bytes in unpadded base64url;
// only their SHA-256 is stored. Key ids are 12 hex digits, public, usable
// with RevokeKey and unrelated to the key's bytes.
const (
	keyPrefix = "rdk_"
	keyLen    = len(keyPrefix) + 43
)

// Authenticate maps an X-API-Key value to its account. Unknown, malformed
// and revoked keys give ErrUnauthorized.
func (api *API) Authenticate(ctx context.Context, apiKey string) (*Account, error) {
	if len(apiKey) != keyLen || !strings.HasPrefix(apiKey, keyPrefix) {
		return nil, ErrUnauthorized
	}
	sum := sha256.Sum256([]byte(apiKey))
	k, err := api.jl.KeyByHash(sum[:])
	if record.IsNotFound(err) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, api.logErr("authenticate", err)
	}
	if subtle.ConstantTimeCompare(k.Hash, sum[:]) != 1 || k.Revoked {
		return nil, ErrUnauthorized
	}
	a, err := api.jl.Account(k.AccountID)
	if record.IsNotFound(err) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, api.logErr("authenticate", err)
	}
	acct := toAccount(a)
	acct.KeyID = k.ID
	return acct, nil
}

// normalizeEmail trims and lower-cases an address and checks its syntax.
func normalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) > 254 {
		return "", errorf(ErrInvalid, "email", "too long")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return "", errorf(ErrInvalid, "email", "not a valid address")
	}
	return s, nil
}

// CreateKey issues a new API key for the account with this e-mail address,
// creating the account when the address is new: plan (default standard)
// sets its quota to cfg.FreePages or cfg.StandardPages unless pages > 0
// overrides it. For an existing account plan and pages are ignored (they
// describe a new account); it just gets another key. The key is returned
// only here.
func (api *API) CreateKey(ctx context.Context, email, plan string, pages int64) (string, KeyInfo, error) {
	email, err := normalizeEmail(email)
	if err != nil {
		return "", KeyInfo{}, err
	}
	if plan != "" && plan != PlanFree && plan != PlanStandard {
		return "", KeyInfo{}, errorf(ErrInvalid, "plan", "want free or standard")
	}
	if pages < 0 {
		return "", KeyInfo{}, errorf(ErrInvalid, "pages", "must not be negative")
	}
	api.adminMu.Lock()
	defer api.adminMu.Unlock()

	now := api.now()
	b := api.jl.NewBatch()
	a, err := api.jl.AccountByEmail(email)
	switch {
	case record.IsNotFound(err):
		if plan == "" {
			plan = PlanStandard
		}
		a = &record.Account{
			ID: newID(), Email: email, Plan: plan, PagesQuota: api.quota.grant(plan), CreatedAt: now,
			Defaults: record.RedactOptions{Categories: categoryNames(page.DefaultCategories), Included: []string{}, Excluded: []string{}},
		}
		if pages > 0 {
			a.PagesQuota = pages
		}
		b.PutAccount(a)
	case err != nil:
		b.Discard()
		return "", KeyInfo{}, api.logErr("create key", err)
	}

	raw := make([]byte, 32)
	rand.Read(raw)
	key := keyPrefix + base64.RawURLEncoding.EncodeToString(raw)
	idb := make([]byte, 6)
	rand.Read(idb)
	sum := sha256.Sum256([]byte(key))
	k := &record.Key{ID: hex.EncodeToString(idb), AccountID: a.ID, Hash: sum[:], CreatedAt: now}
	b.PutKey(k)
	if err := b.Commit(true); err != nil {
		return "", KeyInfo{}, api.logErr("create key", err)
	}
	api.log.Info("api key created", "key_id", k.ID, "account", a.ID)
	return key, KeyInfo{ID: k.ID, AccountID: a.ID, Email: a.Email, CreatedAt: now}, nil
}

// ListKeys lists every key, oldest first, without the keys themselves.
func (api *API) ListKeys(ctx context.Context) ([]KeyInfo, error) {
	keys, err := api.jl.Keys()
	if err != nil {
		return nil, api.logErr("list keys", err)
	}
	emails := map[string]string{}
	out := make([]KeyInfo, 0, len(keys))
	for _, k := range keys {
		email, ok := emails[k.AccountID]
		if !ok {
			if a, err := api.jl.Account(k.AccountID); err == nil {
				email = a.Email
			}
			emails[k.AccountID] = email
		}
		out = append(out, KeyInfo{ID: k.ID, AccountID: k.AccountID, Email: email, CreatedAt: k.CreatedAt, Revoked: k.Revoked})
	}
	slices.SortStableFunc(out, func(a, b KeyInfo) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, nil
}

// RevokeKey revokes a key by its public id; revoking twice is not an
// error. Unknown ids give ErrNotFound. The review links and editor
// sessions made with the key end with it (reviewaccess.go).
func (api *API) RevokeKey(ctx context.Context, keyID string) error {
	api.adminMu.Lock()
	defer api.adminMu.Unlock()
	k, err := api.jl.Key(keyID)
	if record.IsNotFound(err) {
		return ErrNotFound
	}
	if err != nil {
		return api.logErr("revoke key", err)
	}
	if k.Revoked {
		return nil
	}
	k.Revoked = true
	k.RevokedAt = api.now()
	b := api.jl.NewBatch()
	b.PutKey(k)
	if err := b.Commit(true); err != nil {
		return api.logErr("revoke key", err)
	}
	// Its review links and sessions are refused from now on by every
	// node (reviewGrant reads the key at each use); deleting them here
	// only keeps the store tidy, so a failure is logged, not returned.
	n, err := api.rev.dropReviewGrants(func(g *record.ReviewGrant) bool { return g.KeyID == k.ID })
	if err != nil {
		api.log.Warn("engine: revoke key: deleting its review links and sessions", "key_id", k.ID, "err", err)
	}
	api.log.Info("api key revoked", "key_id", k.ID, "account", k.AccountID, "review_grants_deleted", n)
	return nil
}

// SetDefaults saves the account's default options. A nil list leaves the
// saved value unchanged; an empty list saves "none".
func (api *API) SetDefaults(ctx context.Context, email string, opts Options) error {
	email, err := normalizeEmail(email)
	if err != nil {
		return err
	}
	opts, err = api.validateOptions(opts)
	if err != nil {
		return err
	}
	a, err := api.jl.AccountByEmail(email)
	if record.IsNotFound(err) {
		return ErrNotFound
	}
	if err != nil {
		return api.logErr("set defaults", err)
	}
	err = api.change(a.ID, func(t *tx) error {
		a, err := t.account()
		if err != nil {
			return err
		}
		if opts.Categories != nil {
			a.Defaults.Categories = categoryNames(opts.Categories)
		}
		if opts.Included != nil {
			a.Defaults.Included = opts.Included
		}
		if opts.Excluded != nil {
			a.Defaults.Excluded = opts.Excluded
		}
		t.accountChanged()
		return nil
	})
	if err != nil {
		return api.logErr("set defaults", err)
	}
	return nil
}

func categoryNames(cs []page.Category) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// WebhookSecret returns the webhook secret of the account with email,
// creating it when there is none or when rotate is set. It is the HMAC
// key of X-Redactd-Signature, used as the string it is.
func (api *API) WebhookSecret(ctx context.Context, email string, rotate bool) (string, error) {
	email, err := normalizeEmail(email)
	if err != nil {
		return "", err
	}
	a, err := api.jl.AccountByEmail(email)
	if record.IsNotFound(err) {
		return "", errorf(ErrNotFound, "", "no account with that e-mail")
	}
	if err != nil {
		return "", api.logErr("webhook secret", err)
	}
	secret, err := api.wh.webhookSecret(a.ID, rotate)
	if err != nil {
		return "", api.logErr("webhook secret", err)
	}
	return secret, nil
}
