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
	return engine.Settings{
		Data:              cfg.Data,
		MaxConcurrentJobs: cfg.MaxConcurrentJobs,
		JanitorInterval:   cfg.JanitorInterval,
		MaxFilesPerJob:    cfg.MaxFilesPerJob,
		MaxUploadBytes:    cfg.MaxUploadBytes,
		MaxTermCount:      cfg.MaxTermCount,
		MaxPagesPerDoc:    cfg.MaxPagesPerDoc,
		FreePages:         cfg.FreePages,
		StandardPages:     cfg.StandardPages,
		UploadURLTTL:      cfg.UploadURLTTL,
		OutputTTL:         cfg.OutputTTL,
		StudioTTL:         cfg.StudioTTL,
		WebhookAllowHosts: cfg.WebhookAllowHosts,
		Registerer:        reg,
	}
}
