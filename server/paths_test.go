package server_test

import (
	"context"
	"github.com/prometheus/client_golang/prometheus"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/server"
)

// escapingPaths are request targets that, decoded and normalised, name
// another route than the one they appear to be under.
var escapingPaths = []string{
	"/v1/..%2Fmetrics",
	"/v1/..%2fmetrics",
	"/uploads/..%2Fmetrics",
	"/v1/%2e%2e/metrics",
	"/v1/%2E%2E/metrics",
	"/v1/../metrics",
	"/v1/./me",
	"/v1/%2e/me",
	"/v1/jobs/..%2F..%2Fmetrics",
	"/uploads/%2e%2e%2fmetrics",
	"/v1//me",
	"/v1/me%2F",
	"/v1/jobs%5C..%5Cmetrics",
	"/v1/me%00",
	"/v1/%zz",
}

// TestPathEscapes: a request target with an encoded slash or backslash, a
// dot segment (plain or encoded), an empty segment or a bad escape is
// refused with 400 before routing, whatever route it would reach, and
// with a valid key too. /metrics is not served on the API listener at all,
// only on its own (metrics-listen), so a proxy that forwards the API
// cannot expose it.
func TestPathEscapes(t *testing.T) {
	e := start(t, testConfig(t))
	key := e.key("paths@example.com", jobs.PlanStandard, 10)
	for _, p := range escapingPaths {
		for _, k := range []string{"", key} {
			hdr := ""
			if k != "" {
				hdr = "X-API-Key: " + k + "\r\n"
			}
			out := e.raw("GET " + p + " HTTP/1.1\r\nHost: x\r\n" + hdr + "Connection: close\r\n\r\n")
			if strings.Contains(out, "redactd_") || strings.Contains(out, "go_goroutines") {
				t.Errorf("GET %s (key %t) served metrics", p, k != "")
			}
			if !strings.HasPrefix(out, "HTTP/1.1 400 ") || !strings.Contains(out, `"code":"invalid_request"`) {
				t.Errorf("GET %s (key %t): want 400 invalid_request, got %q", p, k != "", firstLine(out))
			}
		}
	}
	// Plain routes still work, with a query string and escaped ordinary
	// characters.
	if r := e.do("GET", "/v1/me?x=%2F..", key, nil, nil); r.status != 200 {
		t.Fatalf("/v1/me with a query: %d", r.status)
	}
	if out := e.raw("GET /v1/%6De HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\nConnection: close\r\n\r\n"); !strings.HasPrefix(out, "HTTP/1.1 200 ") {
		t.Fatalf("/v1/%%6De: %q", firstLine(out))
	}
	// /metrics is not on the API listener.
	if r := e.do("GET", "/metrics", "", nil, nil); r.status != 404 {
		t.Fatalf("GET /metrics on the API listener: %d, want 404", r.status)
	}
	// It is on the metrics listener, and only /metrics is.
	m := e.metrics()
	if !strings.Contains(m, "redactd_http_requests_total") {
		t.Fatalf("metrics listener: %.200s", m)
	}
	resp, err := http.Get(e.metricsURL + "/v1/me")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("metrics listener serves /v1/me: %d", resp.StatusCode)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\r\n")
	return l
}

// metrics reads the metrics listener's /metrics.
func (e *env) metrics() string {
	e.t.Helper()
	resp, err := http.Get(e.metricsURL + "/metrics")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		e.t.Fatalf("GET /metrics: %d %v", resp.StatusCode, err)
	}
	return string(b)
}

// startMetrics serves the metrics endpoint on its own loopback listener
// for the life of the test, as redactd serve does on metrics-listen.
func startMetrics(t *testing.T, g prometheus.Gatherer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms := server.NewMetrics(g, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ms.Serve(ln)
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ms.Shutdown(ctx)
		<-done
	})
	return "http://" + ln.Addr().String()
}
