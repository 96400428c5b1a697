package jobs

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHookQueue: a job with a callback URL gets one pending delivery, in
// the batch that finishes its last document, never before; retries move
// it; deleting the job removes it; a refused URL creates nothing; the
// same idempotency key with another callback URL is a different request.
func TestHookQueue(t *testing.T) {
	v := newEnv(t, func(c *Settings) { c.WebhookAllowHosts = "127.0.0.1" })
	a, _ := v.account("h@example.com", PlanStandard, 100)
	ctx := context.Background()

	if _, err := v.e.CreateJob(ctx, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 1)}, CallbackURL: "http://10.0.0.1/x"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("refused host: %v", err)
	}
	j, err := v.e.CreateJob(ctx, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 1, "block"), pdfFile("b.pdf", 1)}, CallbackURL: "http://127.0.0.1:9/hook", IdempotencyKey: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.CreateJob(ctx, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 1, "block"), pdfFile("b.pdf", 1)}, CallbackURL: "http://127.0.0.1:9/other", IdempotencyKey: "k1"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("same key, other callback: %v", err)
	}
	// One document finished, the other blocked: nothing is due yet.
	waitFor(t, "b.pdf redacted", func() bool {
		jv, _ := v.e.GetJob(ctx, a, j.ID)
		return jv.Documents[1].Status == StatusRedacted
	})
	if due, pending, err := v.e.wh.DueHooks(v.clock.Now().Add(time.Hour)); err != nil || pending != 0 || len(due) != 0 {
		t.Fatalf("before the job ends: %v pending %d (%v)", due, pending, err)
	}
	close(v.proc.release)
	v.waitDone(a, j.ID)
	due, pending, err := v.e.wh.DueHooks(v.clock.Now())
	if err != nil || pending != 1 || len(due) != 1 || due[0].JobID != j.ID || due[0].URL != "http://127.0.0.1:9/hook" || due[0].Attempts != 0 {
		t.Fatalf("after the job ends: %+v pending %d (%v)", due, pending, err)
	}
	view, secret, err := v.e.wh.HookJob(j.ID)
	if err != nil || view.ID != j.ID || view.Status != StatusRedacted || len(secret) == 0 {
		t.Fatalf("HookJob: %+v %q %v", view, secret, err)
	}
	if s, _ := v.e.WebhookSecret(ctx, "h@example.com", false); s != string(secret) {
		t.Fatalf("signing key %q is not the account's secret %q", secret, s)
	}
	if err := v.e.wh.HookRetry(j.ID, 1, v.clock.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if due, pending, _ := v.e.wh.DueHooks(v.clock.Now()); len(due) != 0 || pending != 1 {
		t.Fatalf("retrying: due %v pending %d", due, pending)
	}
	if due, _, _ := v.e.wh.DueHooks(v.clock.Now().Add(time.Minute)); len(due) != 1 || due[0].Attempts != 1 {
		t.Fatalf("retry due: %+v", due)
	}
	if err := v.e.DeleteJob(ctx, a, j.ID); err != nil {
		t.Fatal(err)
	}
	if _, pending, _ := v.e.wh.DueHooks(v.clock.Now().Add(time.Hour)); pending != 0 {
		t.Fatalf("deleted job left %d pending deliveries", pending)
	}
	if _, _, err := v.e.wh.HookJob(j.ID); err == nil {
		t.Fatal("HookJob of a deleted job")
	}
}
