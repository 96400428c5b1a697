package jobs

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the job service's metrics. Each is observed in one place:
// the comment says where.
type Metrics struct {
	queueDepth  prometheus.Gauge       // updateQueueGauge
	inFlight    prometheus.Gauge       // process
	documents   *prometheus.CounterVec // lifecycle.terminal
	jobsCreated prometheus.Counter     // newJob
	quotaPages  prometheus.Counter     // tx.charge
	docDuration prometheus.Histogram   // lifecycle.terminal
	conflicts   prometheus.Counter     // change
}

// NewMetrics creates the job service's metrics on reg (nil: unregistered).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		queueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "redactd_queue_depth", Help: "Documents waiting to be processed.",
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "redactd_documents_in_flight", Help: "Documents being processed now.",
		}),
		documents: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_documents_total", Help: "Documents that reached a terminal state, by status.",
		}, []string{"status"}),
		jobsCreated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_jobs_created_total", Help: "Jobs created.",
		}),
		quotaPages: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_quota_pages_charged_total", Help: "Pages charged against account quotas.",
		}),
		docDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "redactd_document_duration_seconds", Help: "Time from dequeue to terminal state per document.",
			Buckets: prometheus.ExponentialBuckets(0.01, 2, 16),
		}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_state_conflicts_total", Help: "State changes retried because another node changed the same job first (cluster engine).",
		}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.queueDepth, m.inFlight, m.documents, m.jobsCreated, m.quotaPages, m.docDuration, m.conflicts} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// terminal counts a document that became terminal and, when it was
// processed (since is when its attempt started), its duration.
func (m *Metrics) terminal(st Status, since time.Time) {
	m.documents.WithLabelValues(string(st)).Inc()
	if !since.IsZero() {
		m.docDuration.Observe(time.Since(since).Seconds())
	}
}
