package server

import (
	"encoding/json"
	"log/slog"
	"time"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/webhook"
)

// WebhookSource is what the webhook store needs from the engine
// (*jobs.Webhooks, Engine.Webhooks, implements it).
type WebhookSource interface {
	DueHooks(now time.Time) ([]webhook.Delivery, int, error)
	HookJob(jobID string) (*jobs.Job, []byte, error)
	HookDone(jobID string) error
	HookRetry(jobID string, attempts int, next time.Time) error
}

// webhookStore adapts the engine to webhook.Store. The payload is the job
// exactly as GET /v1/jobs/{job_id} returns it, so receivers parse one
// shape.
type webhookStore struct{ src WebhookSource }

func (s webhookStore) Due(now time.Time) ([]webhook.Delivery, int, error) { return s.src.DueHooks(now) }

func (s webhookStore) Payload(jobID string) ([]byte, []byte, error) {
	j, secret, err := s.src.HookJob(jobID)
	if err != nil {
		return nil, nil, err
	}
	body, err := json.Marshal(toJobBody(j))
	return body, secret, err
}

func (s webhookStore) Delivered(jobID string) error { return s.src.HookDone(jobID) }
func (s webhookStore) Dropped(jobID string) error   { return s.src.HookDone(jobID) }
func (s webhookStore) Retry(jobID string, attempts int, next time.Time) error {
	return s.src.HookRetry(jobID, attempts, next)
}

// StartWebhooks starts the dispatcher of webhook deliveries for src with
// the webhook settings of cfg; the caller closes it before the engine.
// With webhook-allow-hosts empty no job can carry a callback URL, but the
// dispatcher still runs, so deliveries queued before the setting was
// emptied are tried (and refused at dial time) until given up.
func StartWebhooks(cfg WebhookSettings, src WebhookSource, log *slog.Logger) (*webhook.Dispatcher, error) {
	allow, err := webhook.ParseAllowList(cfg.WebhookAllowHosts)
	if err != nil {
		return nil, err
	}
	d, err := webhook.New(webhookStore{src}, allow, webhook.Options{
		Workers: cfg.WebhookWorkers, Timeout: cfg.WebhookTimeout,
		RetryBase: cfg.WebhookRetryBase, RetryFor: cfg.WebhookRetryFor,
		Registerer: cfg.Registerer,
	}, log)
	if err != nil {
		return nil, err
	}
	d.Start()
	return d, nil
}
