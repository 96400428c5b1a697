// Package wire builds each component's settings from the one Config, so
// no component sees settings that are not its own, and gives every
// component the same metrics registry. cmd/redactd uses it to assemble
// the daemon; tests, the bench's load harness and the admin commands use
// it to assemble the same thing.
package wire

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/redactd/redactd/engine"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/server"
)

// NewRegistry is the registry /metrics serves: every component's
// metrics, plus the Go runtime and process collectors.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Engine is the job service's part of cfg.
func Engine(cfg config.Config, reg prometheus.Registerer) engine.Settings {
	var s engine.Settings
	mustSelect(cfg, &s)
	s.Registerer = reg
	return s
}

// Pipeline is the pipeline's and its models' part of cfg.
func Pipeline(cfg config.Config) pipeline.Settings {
	var s pipeline.Settings
	mustSelect(cfg, &s)
	return s
}

// Server is the HTTP layer's part of cfg.
func Server(cfg config.Config, reg prometheus.Registerer) server.Settings {
	var s server.Settings
	mustSelect(cfg, &s)
	s.Registerer = reg
	return s
}

// Webhooks is the webhook dispatcher's part of cfg.
func Webhooks(cfg config.Config, reg prometheus.Registerer) server.WebhookSettings {
	var s server.WebhookSettings
	mustSelect(cfg, &s)
	s.Registerer = reg
	return s
}

// mustSelect fills a component's settings from cfg. It fails only when a
// component declares a setting that does not exist, a programming error
// that TestSettingsSelect catches before any release.
func mustSelect(cfg config.Config, dst any) {
	if err := config.Select(cfg, dst); err != nil {
		panic(err)
	}
}
