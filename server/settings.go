package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/engine/contract"
)

// Settings configure the HTTP layer. The fields carry the names of the
// one Config's settings, from which cmd/redactd/wire fills them
// (config.Select); engine/config documents each.
type Settings struct {
	Listen    string
	PublicURL string

	// Framing and connections.
	HeaderReadTimeout  time.Duration
	MaxConnsPerAddress int
	TrustedProxies     string

	// Request limits.
	MaxRequestBytes int64
	MaxUploadBytes  int64
	MaxFilesPerJob  int
	MaxTermCount    int

	// Rate limits: per key, and failed authentications per address.
	RateLimit     float64
	RateBurst     int
	AuthFailRate  float64
	AuthFailBurst int

	// Review editor links and sessions.
	ReviewLinkTTL time.Duration
	ReviewIdle    time.Duration
	ReviewMaxAge  time.Duration
	ReviewReasons string

	// Registerer takes the HTTP metrics; nil keeps them unregistered.
	Registerer prometheus.Registerer `config:"-"`
	// Previewer renders the review editor's page previews: the
	// pipeline's (pipeline.Previews), so the HTTP layer needs no MuPDF of
	// its own. Without one previews answer 500.
	Previewer contract.Previewer `config:"-"`
}

// WebhookSettings configure the webhook dispatcher StartWebhooks runs.
type WebhookSettings struct {
	WebhookAllowHosts string
	WebhookWorkers    int
	WebhookTimeout    time.Duration
	WebhookRetryBase  time.Duration
	WebhookRetryFor   time.Duration

	// Registerer takes the dispatcher's metrics; nil keeps them
	// unregistered.
	Registerer prometheus.Registerer `config:"-"`
}
