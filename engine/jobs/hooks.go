package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/webhook"
)

// Webhooks (extension). A job created with a callback URL gets a pending
// delivery (joblog hook/<job>) in the batch that makes its last document
// terminal, so it is queued exactly once and survives restarts. The
// webhook.Dispatcher, started beside the server, sends it; the methods
// below are its store.

// Webhooks is the webhook queue: the callback check at job creation, the
// delivery queued when a job ends, the accounts' signing secrets, and the
// dispatcher's store (server.WebhookSource). Engine.Webhooks hands it
// out.
type Webhooks struct {
	*core
	allow *webhook.AllowList // webhook-allow-hosts
}

// callbackLookupTimeout bounds the DNS lookup of a callback URL's host at
// job creation.
const callbackLookupTimeout = 5 * time.Second

// checkCallback validates a callback URL against webhook-allow-hosts.
func (wh *Webhooks) checkCallback(ctx context.Context, raw string) error {
	if raw == "" {
		return nil
	}
	if err := contract.CheckCallbackURL(raw); err != nil {
		return fieldError(err)
	}
	// A name outside the list is resolved; a slow DNS server must not hold
	// the request.
	ctx, cancel := context.WithTimeout(ctx, callbackLookupTimeout)
	defer cancel()
	if err := wh.allow.CheckURL(ctx, raw); err != nil {
		msg := err.Error()
		if errors.Is(err, webhook.ErrRefused) {
			msg = "host not allowed by this server's webhook-allow-hosts"
			if !wh.allow.Enabled() {
				msg = "webhooks are off on this server (webhook-allow-hosts is empty)"
			}
		}
		return errorf(ErrInvalid, "callback_url", "%s", msg)
	}
	return nil
}

// queueHook adds the delivery of a job that just finished to b.
func (wh *Webhooks) queueHook(b record.Batch, j *record.Job) {
	if j.CallbackURL == "" {
		return
	}
	now := wh.now()
	b.PutHook(&record.Hook{JobID: j.ID, AccountID: j.AccountID, URL: j.CallbackURL, FirstAt: now, NextAt: now})
}

// DueHooks lists the deliveries due at now and the number pending.
func (wh *Webhooks) DueHooks(now time.Time) ([]webhook.Delivery, int, error) {
	hs, err := wh.jl.Hooks()
	if err != nil {
		return nil, 0, err
	}
	var due []webhook.Delivery
	for _, h := range hs {
		if !h.NextAt.After(now) {
			due = append(due, webhook.Delivery{JobID: h.JobID, URL: h.URL, Attempts: h.Attempts, FirstAt: h.FirstAt})
		}
	}
	return due, len(hs), nil
}

// HookJob returns the job a pending delivery is about, as GET
// /v1/jobs/{id} shows it, and its account's webhook secret (created on
// first use). webhook.ErrGone when the job or delivery no longer exists.
func (wh *Webhooks) HookJob(jobID string) (*Job, []byte, error) {
	h, err := wh.jl.Hook(jobID)
	if record.IsNotFound(err) {
		return nil, nil, webhook.ErrGone
	}
	if err != nil {
		return nil, nil, err
	}
	j, docs, err := wh.jl.JobAndDocs(jobID)
	if record.IsNotFound(err) {
		return nil, nil, webhook.ErrGone
	}
	if err != nil {
		return nil, nil, err
	}
	secret, err := wh.webhookSecret(h.AccountID, false)
	if err != nil {
		return nil, nil, err
	}
	return jobView(j, docs), []byte(secret), nil
}

// HookDone removes a job's pending delivery (delivered or given up).
func (wh *Webhooks) HookDone(jobID string) error {
	b := wh.jl.NewBatch()
	b.DeleteHook(jobID)
	return b.Commit(true)
}

// HookRetry records a failed attempt and when to try again. A delivery
// removed meanwhile (its job purged) stays removed.
func (wh *Webhooks) HookRetry(jobID string, attempts int, next time.Time) error {
	h, err := wh.jl.Hook(jobID)
	if record.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return wh.change(h.AccountID, func(t *tx) error {
		h, err := wh.jl.Hook(jobID)
		if record.IsNotFound(err) {
			return errNoChange
		} else if err != nil {
			return err
		}
		h.Attempts, h.NextAt = attempts, next
		t.b.PutHook(h)
		return nil
	})
}

// webhookSecret reads or makes an account's secret under its lock.
func (wh *Webhooks) webhookSecret(accountID string, rotate bool) (string, error) {
	var secret string
	err := wh.change(accountID, func(t *tx) error {
		a, err := t.account()
		if err != nil {
			return err
		}
		secret = a.WebhookSecret
		if secret != "" && !rotate {
			return errNoChange
		}
		buf := make([]byte, 32)
		if _, err := rand.Read(buf); err != nil {
			return err
		}
		a.WebhookSecret = "whsec_" + hex.EncodeToString(buf)
		secret = a.WebhookSecret
		t.accountChanged()
		return nil
	})
	if err != nil {
		return "", err
	}
	if rotate {
		wh.log.Info("webhook secret rotated", "account", accountID)
	}
	return secret, nil
}
