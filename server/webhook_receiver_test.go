package server_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/jobs"
)

// readmeVerify is a receiver's check written from docs/behaviour.md alone, not
// with webhook.Verify:
//
//	*Signature.* `X-Redactd-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">`, keyed with the
//	account's webhook secret as the string `redactd keys webhook-secret --data DIR --email E` prints alone on its
//	last line (`whsec_` and 64 hex digits; ...). Receivers compare in constant time and reject an old `t`
//
// The header is taken to be exactly those two fields in that order.
func readmeVerify(secret, header string, body []byte, now time.Time) error {
	ts, sig, ok := strings.Cut(header, ",")
	if !ok {
		return errors.New("no comma")
	}
	ts, ok1 := strings.CutPrefix(ts, "t=")
	sig, ok2 := strings.CutPrefix(sig, "v1=")
	if !ok1 || !ok2 {
		return errors.New("not t=...,v1=...")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return err
	}
	got, err := hex.DecodeString(sig)
	if err != nil {
		return err
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "." + string(body)))
	if !hmac.Equal(got, m.Sum(nil)) {
		return errors.New("HMAC differs")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return errors.New("old t")
	}
	return nil
}

// TestE2EWebhookReadmeReceiver: a receiver that follows docs/behaviour.md's
// description of the signature, and nothing of redactd's code, accepts a
// real delivery: a job created with a callback URL, pushed by the
// dispatcher that `redactd serve` runs, signed with the account's secret.
func TestE2EWebhookReadmeReceiver(t *testing.T) {
	e := startHooks(t, hookConfig(t))
	key := e.key("readme@example.com", jobs.PlanStandard, 100)
	rc := newReceiver(t, func(int) int { return http.StatusNoContent })
	j := e.job(e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", rc.URL + "/hook"}}}, nil))
	d := rc.waitDeliveries(t, 1)[0]

	secret := string(e.webhookSecret("readme@example.com"))
	if !regexp.MustCompile(`^whsec_[0-9a-f]{64}$`).MatchString(secret) {
		t.Fatalf("secret %q is not whsec_ and 64 hex digits", secret)
	}
	header := d.header.Get("X-Redactd-Signature")
	if err := readmeVerify(secret, header, d.body, time.Now()); err != nil {
		t.Fatalf("a receiver written to docs/behaviour.md rejects the delivery: %v (header %q)", err, header)
	}
	var got struct {
		JobID string `json:"job_id"`
	}
	if err := json.Unmarshal(d.body, &got); err != nil || got.JobID != j.JobID || d.header.Get("X-Redactd-Delivery") != j.JobID {
		t.Fatalf("delivery of %s: %s (%v), X-Redactd-Delivery %q", j.JobID, d.body, err, d.header.Get("X-Redactd-Delivery"))
	}
	// The receiver is not a yes-machine: another body, secret or time fails.
	for name, err := range map[string]error{
		"changed body": readmeVerify(secret, header, append(append([]byte(nil), d.body...), ' '), time.Now()),
		"other secret": readmeVerify("whsec_"+strings.Repeat("0", 64), header, d.body, time.Now()),
		"an hour late": readmeVerify(secret, header, d.body, time.Now().Add(time.Hour)),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
