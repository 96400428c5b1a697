// Package metrics defines every Prometheus metric redactd exports, in one
// place, so names stay stable and the documented list cannot drift.
// Packages record into these variables; the server exposes Registry at
// /metrics.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Registry holds redactd's metrics plus the Go and process collectors.
var Registry = prometheus.NewRegistry()

var (
	// HTTP layer.
	HTTPRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_http_requests_total", Help: "HTTP requests by route and status code.",
	}, []string{"route", "code"})
	HTTPDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "redactd_http_request_duration_seconds", Help: "HTTP request latency by route.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
	}, []string{"route"})
	Errors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_errors_total", Help: "Error responses and document failures by code.",
	}, []string{"code"})
	// RateLimited counts every 429, whose log lines are sampled.
	RateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_rate_limited_total", Help: "Requests and connections answered 429, by limit: key, auth_failures, connections.",
	}, []string{"limit"})

	// Job service.
	QueueDepth = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "redactd_queue_depth", Help: "Documents waiting to be processed.",
	})
	DocumentsInFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "redactd_documents_in_flight", Help: "Documents being processed now.",
	})
	Documents = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_documents_total", Help: "Documents that reached a terminal state, by status.",
	}, []string{"status"})
	JobsCreated = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "redactd_jobs_created_total", Help: "Jobs created.",
	})
	QuotaPages = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "redactd_quota_pages_charged_total", Help: "Pages charged against account quotas.",
	})
	DocumentDuration = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "redactd_document_duration_seconds", Help: "Time from dequeue to terminal state per document.",
		Buckets: prometheus.ExponentialBuckets(0.01, 2, 16),
	})

	// Pipeline.
	Pages = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "redactd_pages_total", Help: "Pages redacted.",
	})
	StageDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "redactd_stage_duration_seconds", Help: "Time per page in each pipeline stage (open, render, words, ocr, detect, burn, encode).",
		Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18),
	}, []string{"stage"})
	OutputBytesPerPage = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "redactd_output_bytes_per_page", Help: "Encoded size of each output page.",
		Buckets: prometheus.ExponentialBuckets(1024, 2, 14),
	})
	PixelsInFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "redactd_pixels_in_flight", Help: "Raster pixels held by pages in flight (bounded by max-pixels-in-flight).",
	})
	Detections = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_detections_total", Help: "Masked spans by category and recognizer.",
	}, []string{"category", "recognizer"})

	// Webhooks.
	WebhookAttempts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_webhook_attempts_total",
		Help: "Webhook delivery attempts by outcome: delivered (2xx), failed (other status, network error, timeout), refused (no address allowed by webhook-allow-hosts).",
	}, []string{"outcome"})
	WebhookDropped = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "redactd_webhook_dropped_total", Help: "Webhook deliveries given up after webhook-retry-for.",
	})
	WebhookPending = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "redactd_webhook_pending", Help: "Webhook deliveries waiting in the job log (due or retrying).",
	})
	WebhookDuration = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "redactd_webhook_attempt_duration_seconds", Help: "Time per webhook delivery attempt.",
		Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
	})

	// What a reader sees (engine/pipeline: analyse.go, fonts.go, ink.go).
	OCRRegions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_ocr_regions_total", Help: "Areas read by OCR, by reason: page (no usable text layer, mostly picture, or ocr=always), font (a font failed its check), ink (ink no text-layer word explains).",
	}, []string{"reason"})
	FontChecks = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "redactd_font_checks_total", Help: "Text-layer fonts checked against their pixels, by result (trusted, untrusted).",
	}, []string{"result"})
	FontCheckColumns = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "redactd_font_check_columns_total", Help: "Recogniser input columns (at height 48) spent checking fonts.",
	})

	// Models.
	BatchSize = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "redactd_model_batch_size", Help: "Requests per model batch.",
		Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256},
	}, []string{"model"})
	BatchDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "redactd_model_batch_duration_seconds", Help: "Model run time per batch.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
	}, []string{"model"})
)

func init() {
	Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		HTTPRequests, HTTPDuration, Errors, RateLimited,
		QueueDepth, DocumentsInFlight, Documents, JobsCreated, QuotaPages, DocumentDuration,
		Pages, StageDuration, OutputBytesPerPage, PixelsInFlight, Detections,
		OCRRegions, FontChecks, FontCheckColumns,
		BatchSize, BatchDuration,
		WebhookAttempts, WebhookDropped, WebhookPending, WebhookDuration,
	)
}
