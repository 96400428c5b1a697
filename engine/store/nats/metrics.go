package natsstore

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are one node's view of the cluster store, for Prometheus. They
// say whether the cluster is healthy from where the node stands: how long
// each step of a document takes (replication and fsync included), how
// often nodes race for a record, how often work is delivered again and
// why.
type Metrics struct {
	// OpDuration is the latency of each store operation, by op
	// (docs_get, docs_update, queue_lease, ledger_charge, blobs_put...).
	OpDuration *prometheus.HistogramVec
	// Conflicts counts lost compare-and-sets, by bucket: a few are normal
	// (two nodes touching one account), many mean contention.
	Conflicts *prometheus.CounterVec
	// Redeliveries counts deliveries after the first: dead or slow
	// workers, Nacks.
	Redeliveries prometheus.Counter
	// Exhausted counts deliveries past MaxAttempts, handed out flagged.
	Exhausted prometheus.Counter
	// StaleLeases counts settlements refused because the lease had
	// passed to another delivery: workers that outlived their lease.
	StaleLeases prometheus.Counter
	// ConsumerRecreations counts pull consumers re-created by the
	// watchdog.
	ConsumerRecreations prometheus.Counter
	// Retries counts calls tried again after a transient error (a
	// leader election, a reconnect), by op (docs_create, blobs_put...):
	// bursts when a server is lost, none in a healthy cluster.
	Retries *prometheus.CounterVec
}

// NewMetrics creates the metrics and registers them on reg (nil: not
// registered, for tests and tools).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		OpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "redactd_store_op_duration_seconds", Help: "Cluster store operation latency, by operation.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18),
		}, []string{"op"}),
		Conflicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_store_conflicts_total", Help: "Compare-and-set writes that lost to another writer, by bucket.",
		}, []string{"bucket"}),
		Redeliveries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_store_redeliveries_total", Help: "Work items delivered again after their first delivery.",
		}),
		Exhausted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_store_exhausted_total", Help: "Work items delivered past the maximum number of attempts.",
		}),
		StaleLeases: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_store_stale_leases_total", Help: "Ack, Nack or Extend refused because the lease had passed on.",
		}),
		ConsumerRecreations: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_store_consumer_recreations_total", Help: "Pull consumers re-created by the queue's watchdog.",
		}),
		Retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_store_retries_total", Help: "Store calls tried again after a transient error (leader election, reconnect), by operation.",
		}, []string{"op"}),
	}
	if reg != nil {
		reg.MustRegister(m.OpDuration, m.Conflicts, m.Redeliveries, m.Exhausted, m.StaleLeases, m.ConsumerRecreations, m.Retries)
	}
	return m
}

// since records an operation's duration: defer m.since("op", time.Now()).
func (m *Metrics) since(op string, start time.Time) {
	m.OpDuration.WithLabelValues(op).Observe(time.Since(start).Seconds())
}
