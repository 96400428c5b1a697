package webhook

import "github.com/prometheus/client_golang/prometheus"

// dispatchMetrics are the dispatcher's metrics, on Options.Registerer.
type dispatchMetrics struct {
	attempts *prometheus.CounterVec // attempt: by outcome
	dropped  prometheus.Counter     // attempt: given up
	pending  prometheus.Gauge       // poll
	duration prometheus.Histogram   // attempt
}

func newDispatchMetrics(reg prometheus.Registerer) (*dispatchMetrics, error) {
	m := &dispatchMetrics{
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_webhook_attempts_total",
			Help: "Webhook delivery attempts by outcome: delivered (2xx), failed (other status, network error, timeout), refused (no address allowed by webhook-allow-hosts).",
		}, []string{"outcome"}),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_webhook_dropped_total", Help: "Webhook deliveries given up after webhook-retry-for.",
		}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "redactd_webhook_pending", Help: "Webhook deliveries waiting in the job log (due or retrying).",
		}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "redactd_webhook_attempt_duration_seconds", Help: "Time per webhook delivery attempt.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.attempts, m.dropped, m.pending, m.duration} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}
