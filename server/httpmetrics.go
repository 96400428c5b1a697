package server

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// httpMetrics are the HTTP layer's metrics, created on the registerer the
// daemon injects (New). Every answer, parsed or not, is counted by
// answered; every 429 by limited.
type httpMetrics struct {
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	errors      *prometheus.CounterVec
	rateLimited *prometheus.CounterVec
}

func newHTTPMetrics(reg prometheus.Registerer) (*httpMetrics, error) {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "redactd_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"route"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_errors_total", Help: "Error responses by error code.",
		}, []string{"code"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_rate_limited_total", Help: "Requests and connections answered 429, by limit: key, auth_failures, connections.",
		}, []string{"limit"}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.requests, m.duration, m.errors, m.rateLimited} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// answered counts one answer: its route ("unparsed" for requests refused
// before routing), status, error code ("" for none) and, for routed
// requests, its latency (took < 0: not measured).
func (m *httpMetrics) answered(route string, status int, code string, took time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	if took >= 0 {
		m.duration.WithLabelValues(route).Observe(took.Seconds())
	}
	if code != "" {
		m.errors.WithLabelValues(code).Inc()
	}
}

// limited counts a 429 by the limit that gave it.
func (m *httpMetrics) limited(limit string) { m.rateLimited.WithLabelValues(limit).Inc() }
