package load

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/internal/testkit/testpdf"
	"github.com/redactd/redactd/server"
)

// Local is redactd served in this process on a loopback port: the real
// pipeline, engine and HTTP server, as `redactd serve` wires them.
type Local struct {
	URL  string
	Keys []string
	Cfg  config.Config

	srv  *server.Server
	eng  *jobs.Engine
	proc *pipeline.Pipeline
	done chan error
}

// StartLocal serves cfg (its Data directory must exist or be creatable)
// on 127.0.0.1 and creates accounts API keys with a large page quota.
// Rate limiting is switched off: the load is the point.
func StartLocal(cfg config.Config, accounts int, log *slog.Logger) (*Local, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg.RateLimit = 0
	reg := wire.NewRegistry()
	proc, err := pipeline.Open(wire.Pipeline(cfg), log, reg)
	if err != nil {
		return nil, fmt.Errorf("load: pipeline: %w", err)
	}
	eng, err := jobs.Open(wire.Engine(cfg, reg), proc, log)
	if err != nil {
		proc.Close()
		return nil, fmt.Errorf("load: engine: %w", err)
	}
	l := &Local{Cfg: cfg, eng: eng, proc: proc, done: make(chan error, 1)}
	for i := 0; i < max(accounts, 1); i++ {
		k, _, err := eng.CreateKey(context.Background(), fmt.Sprintf("load-%d@example.com", i), jobs.PlanStandard, 1<<40)
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("load: key: %w", err)
		}
		l.Keys = append(l.Keys, k)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		l.Close()
		return nil, err
	}
	if l.srv, err = server.New(wire.Server(cfg, reg), eng, eng.Reviewer(), log); err != nil {
		ln.Close()
		l.Close()
		return nil, err
	}
	go func() { l.done <- l.srv.Serve(ln) }()
	l.URL = "http://" + ln.Addr().String()
	return l, nil
}

// Close shuts the server down and closes the engine and the pipeline.
func (l *Local) Close() error {
	var errs []error
	if l.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		errs = append(errs, l.srv.Shutdown(ctx))
		cancel()
		errs = append(errs, <-l.done)
	}
	errs = append(errs, l.eng.Close(), l.proc.Close())
	return errors.Join(errs...)
}

// PDF is a synthetic document of pages pages with a few PII values on
// each (a name, an e-mail address, a phone number, an IBAN).
func PDF(pages int) []byte {
	d := testpdf.New()
	for i := 0; i < pages; i++ {
		p := d.AddPage(595, 842, 0)
		p.Text(72, 760, 12, "Invoice for Jane Doe, Example Street 12, Springfield")
		p.Text(72, 740, 12, "Contact: jane.doe@example.com, +44 20 7946 0958")
		p.Text(72, 720, 12, "IBAN DE89 3704 0044 0532 0130 00")
		p.Text(72, 700, 12, fmt.Sprintf("Page %d of %d. Thank you for your business.", i+1, pages))
	}
	return d.Bytes()
}
