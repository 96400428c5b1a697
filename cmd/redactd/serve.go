package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/prometheus/client_golang/prometheus"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/server"
)

// httpGrace is how long requests in flight get once the documents in
// flight have finished or shutdown-grace is over.
const httpGrace = 10 * time.Second

// loadConfig parses settings for a subcommand; extra registers the
// subcommand's own flags on the same flag set first.
func loadConfig(name string, args []string, stderr io.Writer, extra func(fs *flag.FlagSet)) (config.Config, *flag.FlagSet, error) {
	fs := flag.NewFlagSet("redactd "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if extra != nil {
		extra(fs)
	}
	cfg, err := config.Load(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, fs, err
		}
		if strings.HasPrefix(err.Error(), "config:") {
			return cfg, fs, err
		}
		return cfg, fs, usagef("%v", err)
	}
	return cfg, fs, nil
}

// newLogger builds the process logger from log-level and log-format.
func newLogger(cfg config.Config, w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		return nil, fmt.Errorf("config: log-level %q: want debug, info, warn or error", cfg.LogLevel)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch cfg.LogFormat {
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("config: log-format %q: want json or text", cfg.LogFormat)
}

// adminSocket is the admin socket path: admin-socket, or DATA/admin.sock.
func adminSocket(cfg config.Config) string {
	if cfg.AdminSock != "" {
		return cfg.AdminSock
	}
	return cfg.Data + string(os.PathSeparator) + "admin.sock"
}

// serve runs the API server until SIGINT or SIGTERM.
func serve(args []string, stderr io.Writer) error {
	cfg, fs, err := loadConfig("serve", args, stderr, nil)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve: unexpected argument %q", fs.Arg(0))
	}
	log, err := newLogger(cfg, stderr)
	if err != nil {
		return err
	}
	if err := jobs.CheckDataDir(cfg.Data); err != nil {
		if !cfg.AllowOpenDataDir {
			return err
		}
		log.Warn("data directory open to other users (allow-open-data-dir is set)", "err", err)
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	// Refuse to start beside a running server before touching the store.
	if adminAnswers(adminSocket(cfg)) {
		return fmt.Errorf("another redactd is serving %s (its admin socket answers)", cfg.Data)
	}

	reg := wire.NewRegistry() // every component's metrics, served on metrics-listen
	proc, err := newProcessor(cfg, log, reg)
	if err != nil {
		return err
	}
	defer proc.Close()
	eng, err := jobs.Open(wire.Engine(cfg, reg), proc.Processor, log)
	if err != nil {
		return fmt.Errorf("open engine: %w", err)
	}
	defer eng.Close()
	hooks, err := server.StartWebhooks(wire.Webhooks(cfg, reg), eng.Webhooks(), log)
	if err != nil {
		return err
	}
	defer hooks.Close() // before the engine closes (defers run in reverse)

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv, err := server.New(wire.Server(cfg, reg), eng, eng.Reviewer(), log)
	if err != nil {
		ln.Close()
		return err
	}
	admin, err := startAdmin(adminSocket(cfg), cfg.Pprof, eng, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer admin.Close()

	ms, err := startMetrics(cfg, reg, log)
	if err != nil {
		ln.Close()
		return err
	}
	if ms != nil {
		defer ms.Shutdown(context.Background())
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String(), "public_url", srv.PublicURL(), "admin_socket", adminSocket(cfg))

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	stop() // a second signal now ends the process at once, like a crash
	drain(eng, cfg.ShutdownGrace, log)
	sctx, cancel := context.WithTimeout(context.Background(), httpGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	return nil
}

// drain stops the engine taking work and lets the documents in flight
// finish for up to grace, while the API keeps answering (reads work, new
// jobs get 503, /readyz 503); what is still running then is canceled by
// the engine's Close and stays queued for the next start.
func drain(eng *jobs.Engine, grace time.Duration, log *slog.Logger) {
	log.Info("shutting down: no new work; documents in flight may finish", "grace", grace.String())
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	t0 := time.Now()
	running, left := eng.Drain(ctx)
	if left > 0 {
		log.Warn("shutdown grace over: documents requeued, processed again after the next start", "finished", running-left, "requeued", left)
		return
	}
	log.Info("shutting down: documents in flight finished", "finished", running, "took", time.Since(t0).Round(time.Millisecond).String())
}

// startMetrics serves /metrics on metrics-listen, apart from the API;
// nil when the setting is empty.
func startMetrics(cfg config.Config, g prometheus.Gatherer, log *slog.Logger) (*server.Metrics, error) {
	if cfg.MetricsListen == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", cfg.MetricsListen)
	if err != nil {
		return nil, fmt.Errorf("metrics-listen: %w", err)
	}
	ms := server.NewMetrics(g, log)
	go func() {
		if err := ms.Serve(ln); err != nil {
			log.Error("metrics listener", "err", err)
		}
	}()
	log.Info("metrics listening", "addr", ln.Addr().String())
	return ms, nil
}
