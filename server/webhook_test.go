package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/webhook"
	"github.com/redactd/redactd/internal/testkit/testlog"
)

// hookConfig allows loopback receivers and retries fast.
func hookConfig(t *testing.T) config.Config {
	cfg := testConfig(t)
	cfg.WebhookAllowHosts = "127.0.0.1"
	cfg.WebhookRetryBase = 50 * time.Millisecond
	cfg.WebhookTimeout = 5 * time.Second
	return cfg
}

// hookEnv is a running server with its webhook dispatcher, as `redactd
// serve` wires them; stop shuts both down (it may be called early, to
// restart on the same data directory).
type hookEnv struct {
	*env
	stop func()
}

func startHooks(t *testing.T, cfg config.Config) *hookEnv {
	t.Helper()
	logs := &testlog.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	e, stop := launch(t, cfg, logs, log, true)
	return &hookEnv{env: e, stop: stop}
}

// receiver is a loopback webhook receiver: answer decides the status of
// each delivery (numbered from 1); every request is recorded.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []delivery
	answer func(n int) int
}

type delivery struct {
	at     time.Time
	header http.Header
	body   []byte
	status int
}

func newReceiver(t *testing.T, answer func(n int) int) *receiver {
	rc := &receiver{answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		n := len(rc.got) + 1
		st := rc.answer(n)
		rc.got = append(rc.got, delivery{at: time.Now(), header: r.Header.Clone(), body: b, status: st})
		rc.mu.Unlock()
		w.WriteHeader(st)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

// waitDeliveries waits until the receiver has had at least n requests.
func (rc *receiver) waitDeliveries(t *testing.T, n int) []delivery {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if d := rc.deliveries(); len(d) >= n {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("receiver got %d deliveries, want %d", len(rc.deliveries()), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// metric reads one sample of /metrics, 0 when absent.
func (e *env) metric(name, labels string) float64 {
	e.t.Helper()
	sc := bufio.NewScanner(strings.NewReader(e.metrics()))
	want := name + labels + " "
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), want); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

func (e *env) webhookSecret(email string) []byte {
	e.t.Helper()
	s, err := e.eng.WebhookSecret(context.Background(), email, false)
	if err != nil {
		e.t.Fatal(err)
	}
	return []byte(s)
}

// TestE2EWebhookRetry: the receiver fails the first delivery and accepts
// the retry; the retry comes after the backoff; both carry the job as GET
// /v1/jobs/{id} returns it, signed with the account's secret; nothing is
// sent afterwards; the attempts are in the metrics.
func TestE2EWebhookRetry(t *testing.T) {
	e := startHooks(t, hookConfig(t))
	key := e.key("hook@example.com", jobs.PlanStandard, 100)
	rc := newReceiver(t, func(n int) int {
		if n == 1 {
			return http.StatusInternalServerError
		}
		return http.StatusNoContent
	})
	failed0, delivered0 := e.metric("redactd_webhook_attempts_total", `{outcome="failed"}`), e.metric("redactd_webhook_attempts_total", `{outcome="delivered"}`)

	j := e.job(e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", rc.URL + "/hooks/redactd?x=1"}}}, nil))
	ds := rc.waitDeliveries(t, 2)
	final := e.job(e.do("GET", "/v1/jobs/"+j.JobID, key, nil, nil))
	if final.Status != "redacted" {
		t.Fatalf("job %+v", final)
	}
	secret := e.webhookSecret("hook@example.com")
	for i, d := range ds {
		var got jobJSON
		if err := json.Unmarshal(d.body, &got); err != nil {
			t.Fatalf("delivery %d: %v: %s", i+1, err, d.body)
		}
		if !reflect.DeepEqual(got, final) {
			t.Fatalf("delivery %d is %+v, GET gives %+v", i+1, got, final)
		}
		if err := webhook.Verify(secret, d.header.Get("X-Redactd-Signature"), d.body, time.Now(), time.Minute); err != nil {
			t.Fatalf("delivery %d: %v (header %q)", i+1, err, d.header.Get("X-Redactd-Signature"))
		}
		if d.header.Get("Content-Type") != "application/json" || d.header.Get("X-Redactd-Delivery") != j.JobID {
			t.Fatalf("delivery %d headers %v", i+1, d.header)
		}
	}
	if gap := ds[1].at.Sub(ds[0].at); gap < 50*time.Millisecond {
		t.Fatalf("retry after %v, before the 50ms base delay", gap)
	}
	// A tampered body or another secret does not verify.
	if webhook.Verify(secret, ds[1].header.Get("X-Redactd-Signature"), append(ds[1].body, ' '), time.Now(), time.Minute) == nil ||
		webhook.Verify([]byte("whsec_other"), ds[1].header.Get("X-Redactd-Signature"), ds[1].body, time.Now(), time.Minute) == nil {
		t.Fatal("a changed body or secret verifies")
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(rc.deliveries()); n != 2 {
		t.Fatalf("%d deliveries after the accepted one, want 2 in all", n)
	}
	if _, pending, err := e.eng.Webhooks().DueHooks(time.Now().Add(48 * time.Hour)); err != nil || pending != 0 {
		t.Fatalf("pending deliveries %d (%v) after delivery", pending, err)
	}
	if strings.Contains(e.logs.String(), "/hooks/redactd") {
		t.Fatal("the callback URL is in the logs")
	}
	if !strings.Contains(e.logs.String(), "webhook attempt failed") {
		t.Fatal("the failed attempt is not logged")
	}
	if f, d := e.metric("redactd_webhook_attempts_total", `{outcome="failed"}`)-failed0, e.metric("redactd_webhook_attempts_total", `{outcome="delivered"}`)-delivered0; f != 1 || d != 1 {
		t.Fatalf("metrics: %v failed, %v delivered attempts; want 1 and 1", f, d)
	}

	// Rotating the secret signs later deliveries with the new one.
	rotated, err := e.eng.WebhookSecret(context.Background(), "hook@example.com", true)
	if err != nil || rotated == string(secret) || !strings.HasPrefix(rotated, "whsec_") {
		t.Fatalf("rotated %q (%v)", rotated, err)
	}
	e.job(e.create(key, form{files: [][2]string{{"b.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", rc.URL}}}, nil))
	ds = rc.waitDeliveries(t, 3)
	if err := webhook.Verify([]byte(rotated), ds[2].header.Get("X-Redactd-Signature"), ds[2].body, time.Now(), time.Minute); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
}

// TestE2EWebhookRefused: callback URLs outside webhook-allow-hosts, or
// with webhooks off, give 400 invalid_request on both create paths and
// create nothing; a listed name that resolves to loopback (as a rebound
// name would) is accepted at creation but never dialled.
func TestE2EWebhookRefused(t *testing.T) {
	cfg := hookConfig(t)
	cfg.WebhookAllowHosts = "192.0.2.1,localhost" // loopback addresses are not listed
	e := startHooks(t, cfg)
	key := e.key("refused@example.com", jobs.PlanStandard, 100)
	for _, u := range []string{"http://10.0.0.1/hook", "http://127.0.0.1/hook", "http://192.0.2.2/", "https://example.com/hook", "ftp://127.0.0.1/x", "http://user:pw@127.0.0.1/", "", "http://127.0.0.1/ x"} {
		m := e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", u}}}, nil).wantError(t, 400, "invalid_request")
		if msg := m["error"].(string); !strings.HasPrefix(msg, "callback_url") || (u != "" && strings.Contains(msg, u)) {
			t.Fatalf("%q: message %q", u, msg)
		}
		body, _ := json.Marshal(map[string]any{"files": []map[string]any{{"filename": "a.pdf", "content_type": "application/pdf", "size_bytes": 10}}, "callback_url": u})
		e.do("POST", "/v1/jobs/init", key, strings.NewReader(string(body)), map[string]string{"Content-Type": "application/json"}).wantError(t, 400, "invalid_request")
	}
	if got, _ := e.listAll(key, ""); len(got) != 0 {
		t.Fatalf("refused requests created jobs %v", got)
	}
	e.do("POST", "/v1/jobs/init", key, strings.NewReader(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":10}],"callback_url":5}`),
		map[string]string{"Content-Type": "application/json"}).wantError(t, 400, "invalid_request")

	// Rebinding: "localhost" is listed by name, so the URL is accepted, but
	// it resolves to loopback, which is not listed as an address (nor
	// public): refused
	// at dial time, the receiver never hears of it.
	rc := newReceiver(t, func(int) int { return 200 })
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(rc.URL, "http://"))
	refused0 := e.metric("redactd_webhook_attempts_total", `{outcome="refused"}`)
	j := e.job(e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", "http://localhost:" + port + "/"}}}, nil))
	e.wait(key, j.JobID)
	deadline := time.Now().Add(30 * time.Second)
	for e.metric("redactd_webhook_attempts_total", `{outcome="refused"}`)-refused0 < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no refused attempts recorded")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(rc.deliveries()); n != 0 {
		t.Fatalf("the receiver behind a loopback-resolving name got %d deliveries", n)
	}

	// Webhooks off: any callback_url is refused, saying so.
	off := testConfig(t)
	e2 := startHooks(t, off)
	k2 := e2.key("off@example.com", jobs.PlanStandard, 100)
	m := e2.create(k2, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", rc.URL}}}, nil).wantError(t, 400, "invalid_request")
	if !strings.Contains(m["error"].(string), "webhooks are off") {
		t.Fatalf("webhooks off: %v", m["error"])
	}
}

// TestE2EWebhookRestart: a delivery still pending when the server stops
// (the receiver was down) is sent after the restart, exactly once.
func TestE2EWebhookRestart(t *testing.T) {
	cfg := hookConfig(t)
	cfg.WebhookRetryBase = 200 * time.Millisecond
	var up atomic.Bool
	rc := newReceiver(t, func(int) int {
		if up.Load() {
			return http.StatusOK
		}
		return http.StatusServiceUnavailable
	})
	e := startHooks(t, cfg)
	key := e.key("restart@example.com", jobs.PlanStandard, 100)
	j := e.job(e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", rc.URL}}}, nil))
	rc.waitDeliveries(t, 1)
	e.stop()
	failedBefore := len(rc.deliveries())

	up.Store(true)
	e2 := startHooks(t, cfg)
	rc.waitDeliveries(t, failedBefore+1)
	time.Sleep(time.Second) // several poll and retry periods: nothing more may come
	ds := rc.deliveries()
	ok := 0
	for _, d := range ds[failedBefore:] {
		if d.status == http.StatusOK {
			ok++
		}
	}
	if ok != 1 || len(ds) != failedBefore+1 {
		t.Fatalf("after restart: %d deliveries (%d accepted), want exactly one", len(ds)-failedBefore, ok)
	}
	var got jobJSON
	json.Unmarshal(ds[len(ds)-1].body, &got)
	if got.JobID != j.JobID || got.Status != "redacted" {
		t.Fatalf("delivered %s", ds[len(ds)-1].body)
	}
	if err := webhook.Verify(e2.webhookSecret("restart@example.com"), ds[len(ds)-1].header.Get("X-Redactd-Signature"), ds[len(ds)-1].body, time.Now(), time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, pending, err := e2.eng.Webhooks().DueHooks(time.Now().Add(48 * time.Hour)); err != nil || pending != 0 {
		t.Fatalf("pending %d (%v)", pending, err)
	}
}

// TestE2EWebhookSlowReceiver: a receiver that does not answer holds the
// only webhook worker, not the pipeline: another job is processed and its
// documents finish meanwhile.
func TestE2EWebhookSlowReceiver(t *testing.T) {
	cfg := hookConfig(t)
	cfg.WebhookWorkers = 1
	cfg.WebhookTimeout = time.Minute
	release := make(chan struct{})
	var calls atomic.Int32
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	e := startHooks(t, cfg)
	key := e.key("slow@example.com", jobs.PlanStandard, 100)
	e.wait(key, e.job(e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", slow.URL}}}, nil)).JobID)
	deadline := time.Now().Add(30 * time.Second)
	for calls.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the slow receiver was never called")
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	for i := range 3 {
		j := e.wait(key, e.job(e.create(key, form{files: [][2]string{{"b.pdf", samplePDF(2)}}}, nil)).JobID)
		if j.Status != "redacted" {
			t.Fatalf("job %d while a delivery hangs: %+v", i, j)
		}
	}
	t.Logf("3 jobs redacted in %v while a webhook delivery hung", time.Since(start))
}
