package server

import (
	"context"
	"log/slog"
	"net"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// Metrics serves GET /metrics (Prometheus text format) on a listener of
// its own (metrics-listen, loopback by default), never on the API's: a
// reverse proxy that forwards the API, however it matches paths, cannot
// expose it, and an operator opens it only to the scraper. It has no key,
// so it must not listen where others can reach it.
type Metrics struct {
	srv *fasthttp.Server
}

// NewMetrics builds the metrics server for the metrics g gathers (the
// registry every component registered on). Nothing listens until Serve.
func NewMetrics(g prometheus.Gatherer, log *slog.Logger) *Metrics {
	if log == nil {
		log = slog.Default()
	}
	prom := fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	return &Metrics{srv: &fasthttp.Server{
		Handler: func(ctx *fasthttp.RequestCtx) {
			if string(ctx.Path()) != "/metrics" || string(ctx.URI().PathOriginal()) != "/metrics" {
				ctx.Error("not found\n", fasthttp.StatusNotFound)
				return
			}
			if !ctx.IsGet() && !ctx.IsHead() {
				ctx.Response.Header.Set("Allow", "GET, HEAD")
				ctx.Error("method not allowed\n", fasthttp.StatusMethodNotAllowed)
				return
			}
			prom(ctx)
		},
		Name:                  "redactd",
		ReadTimeout:           defaultHeaderTimeout,
		WriteTimeout:          defaultHeaderTimeout,
		IdleTimeout:           idleTimeout,
		GetOnly:               true,
		SecureErrorLogMessage: true,
		CloseOnShutdown:       true,
		Logger:                fasthttpLogger{log},
	}}
}

// Serve answers on ln until Shutdown.
func (m *Metrics) Serve(ln net.Listener) error { return m.srv.Serve(ln) }

// Shutdown stops the metrics server.
func (m *Metrics) Shutdown(ctx context.Context) error { return m.srv.ShutdownWithContext(ctx) }
