// Package wire builds each component's settings from the one Config, so
// no component sees settings that are not its own, and gives every
// component the same metrics registry. cmd/redactd uses it to assemble
// the daemon; tests, the bench's load harness and the admin commands use
// it to assemble the same thing.
package wire

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/engine/store"
	"github.com/redactd/redactd/engine/store/dirblob"
	natsstore "github.com/redactd/redactd/engine/store/nats"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
	"github.com/redactd/redactd/server"
)

// NewRegistry is the registry /metrics serves: every component's
// metrics, plus the Go runtime and process collectors.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Engine is the job service's part of cfg. With engine nats its records
// live on the NATS JetStream cluster the settings name (Records).
func Engine(cfg config.Config, reg prometheus.Registerer) jobs.Settings {
	var s jobs.Settings
	mustSelect(cfg, &s)
	s.Registerer = reg
	s.Previewer = pipeline.Previews{}
	if cfg.Engine == "nats" {
		c := &natsCluster{cfg: cfg, reg: reg}
		s.Records, s.Blobs = c.records, c.blobs
	}
	return s
}

// natsCluster opens one node's view of the cluster: the records on the
// NATS connection records opens, and the blobs in the same connection's
// Object Store (blob-store nats) or in the shared directory (dir). The
// engine calls records before blobs (jobs.Settings).
type natsCluster struct {
	cfg config.Config
	reg prometheus.Registerer
	st  store.Store // set by records: the cluster store, retried (natsstore.Store.Contract)
}

func (c *natsCluster) blobs() (store.Blobs, error) {
	if c.cfg.BlobStore == "dir" {
		return dirblob.Open(c.cfg.BlobDir)
	}
	if c.st.Blobs == nil {
		return nil, fmt.Errorf("nats: blobs opened before records")
	}
	return c.st.Blobs, nil
}

// natsConnectWait bounds the first connection to the cluster at start.
const natsConnectWait = time.Minute

// records opens the job service's records on the NATS cluster: one
// connection that reconnects for ever (a node outlives a server's
// restart), the buckets and stream of engine/store/nats, and
// engine/store/storelog on them.
func (c *natsCluster) records() (record.Store, error) {
	cfg, reg := c.cfg, c.reg
	nc, err := nats.Connect(cfg.NATSURL,
		nats.Name("redactd"),
		nats.MaxReconnects(-1),
		nats.RetryOnFailedConnect(false),
		nats.Timeout(10*time.Second))
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", cfg.NATSURL, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), natsConnectWait)
	defer cancel()
	st, err := natsstore.Open(ctx, nc, natsstore.Options{
		Prefix:    cfg.NATSPrefix,
		Replicas:  cfg.NATSReplicas,
		LeaseTime: cfg.NATSLease,
		Metrics:   natsstore.NewMetrics(reg),
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	contract := st.Contract()
	l, err := storelog.Open(ctx, contract, storelog.Options{
		LeaseTime: cfg.NATSLease,
		Close:     func() error { st.Close(); nc.Close(); return nil },
	})
	if err != nil {
		st.Close()
		nc.Close()
		return nil, err
	}
	c.st = contract
	return l, nil
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
	s.Previewer = pipeline.Previews{}
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
