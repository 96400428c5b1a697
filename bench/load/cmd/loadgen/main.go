// Command loadgen measures redactd's API under load: status polls and job
// creations while the pipeline is kept busy (see package load), and writes
// the numbers as Markdown.
//
//	go run ./bench/load/cmd/loadgen                      in-process server on loopback, writes bench/load/RESULTS.md
//	go run ./bench/load/cmd/loadgen -url URL -key KEY    against a running server (its rate limit should be off)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/redactd/redactd/bench/load"
	"github.com/redactd/redactd/engine/config"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		url        = flag.String("url", "", "server base URL; empty starts one in this process on loopback")
		keys       = flag.String("key", "", "API key(s), comma-separated (with -url)")
		duration   = flag.Duration("duration", 10*time.Second, "length of each phase")
		maxReq     = flag.Int("max", 200000, "most requests per phase")
		maxCreates = flag.Int("max-creates", 400, "most job creations (each is a document the pipeline must then process)")
		conc       = flag.Int("concurrency", 16, "clients sending requests back to back")
		bgJobs     = flag.Int("background", 4, "jobs the background stream keeps in the pipeline")
		bgPages    = flag.Int("background-pages", 5, "pages per background document")
		accounts   = flag.Int("accounts", 4, "accounts the clients are spread over (in-process server)")
		drain      = flag.Duration("drain", 5*time.Minute, "longest wait for created jobs to finish")
		out        = flag.String("o", "bench/load/RESULTS.md", "Markdown report; - for stdout")
		dpi        = flag.Float64("dpi", 0, "output dpi of the in-process server (0: default)")
	)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	o := load.Options{
		URL: *url, Duration: *duration, MaxRequests: *maxReq, MaxCreates: *maxCreates, Concurrency: *conc,
		SmallPDF: load.PDF(1), BackgroundPDF: load.PDF(*bgPages), BackgroundJobs: *bgJobs,
		Idle: true, DrainTimeout: *drain, Cleanup: true,
	}
	setup := "Target: " + *url + "."
	if *url == "" {
		data, err := os.MkdirTemp("", "redactd-load")
		if err != nil {
			return err
		}
		defer os.RemoveAll(data)
		cfg := config.Default()
		cfg.Data = data
		cfg.OCR = "off"
		if *dpi > 0 {
			cfg.DPI = *dpi
		}
		l, err := load.StartLocal(cfg, *accounts, nil)
		if err != nil {
			return err
		}
		defer l.Close()
		o.URL, o.Keys = l.URL, l.Keys
		setup = fmt.Sprintf("Server: redactd in the same process (real pipeline with the NER model, engine on pebble in a temporary directory, fasthttp on 127.0.0.1), "+
			"default configuration except OCR off and rate limit off: %g dpi, %d workers (0 = one per CPU), max-concurrent-jobs %d; %d accounts.",
			cfg.DPI, cfg.Workers, cfg.MaxConcurrentJobs, len(l.Keys))
	} else {
		o.Keys = strings.Split(*keys, ",")
	}
	rep, err := load.Run(ctx, o)
	if err != nil {
		return err
	}
	md := rep.Markdown(setup)
	if *out == "-" {
		fmt.Print(md)
	} else if err := os.WriteFile(*out, []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprint(os.Stderr, md)
	for _, p := range rep.Phases {
		if p.Status5xx > 0 || p.Transport > 0 {
			return fmt.Errorf("%s: %d 5xx answers, %d transport errors", p.Name, p.Status5xx, p.Transport)
		}
	}
	return nil
}
