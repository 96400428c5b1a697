// Command bench is redactd's benchmark harness: it builds corpora with
// ground truth from the shared data folder (internal/shareddata; text PDFs laid out from labelled
// PII records, the same pages as noisy scans, photos of pages, long
// documents, real documents), times the peer tools on the same files,
// starts redactd (or targets a running one), submits every corpus through
// the HTTP API at a set concurrency, scores the outputs by rendering
// them, and writes bench/RESULTS.md with charts.
//
//	bench                      full run, writes bench/RESULTS.md
//	bench --quick              small corpora, a minute or less
//	bench --url URL --key KEY  against a running server
//	bench --only ocr           only the OCR comparison (redactd's OCR
//	                           against Tesseract), printed to stdout
//
// `make bench` installs the peers (bench/setup.sh), builds, and runs the
// default full benchmark.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redactd/redactd/bench/internal/report"

	"github.com/redactd/redactd/internal/shareddata"
)

// config is the command line.
type config struct {
	quick      bool
	url, key   string
	metricsURL string
	pid        int
	redactd    string
	serverArgs []string
	dpi        float64
	sweep      []int
	conc       int
	longConc   int
	scanLoad   int // jobs at once in the scan corpus's extra run for peak RSS (issue 45: 16), 0 for none
	upload     string
	corpora    map[string]bool
	data       string
	out        string
	work       string
	keep       bool
	peers      bool
	ocr        bool
	ocrPages   int
	ocrEval    bool
	ocrEvalN   int    // pages of the OCR comparison
	ocrInFl    int    // pages in flight in redactd's OCR during the comparison
	ocrDev     bool   // score the dev pages (those after the comparison's) instead
	recGate    bool   // run the scan and photo corpora again with PP-OCRv4 (recogniser.go)
	baseline   string // a second redactd binary whose server runs the throughput corpora too (baseline.go)
	profile    string // folder for the servers' CPU profiles over each corpus's runs (profile.go), "" for none
	adminSock  string // the --url server's admin socket, for --profile
	only       string
	seed       uint64
	timeout    time.Duration
	log        *slog.Logger
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	rep, err := run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	if err := report.Write(cfg.out, rep); err != nil {
		fmt.Fprintf(os.Stderr, "bench: writing report: %v\n", err)
		os.Exit(1)
	}
	if cfg.out != "-" {
		fmt.Fprintf(os.Stderr, "bench: wrote %s\n", cfg.out)
	}
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &config{}
	var sweep, corpora string
	var seed uint64
	fs.BoolVar(&cfg.quick, "quick", false, "small corpora (a minute or less), for tests and smoke runs")
	fs.StringVar(&cfg.url, "url", "", "base URL of a running redactd to benchmark (default: start bin/redactd on a temporary data directory)")
	fs.StringVar(&cfg.key, "key", os.Getenv("REDACTD_API_KEY"), "API key for --url (default $REDACTD_API_KEY)")
	fs.StringVar(&cfg.metricsURL, "metrics-url", "http://127.0.0.1:9464", "base URL of the --url server's metrics listener (its metrics-listen)")
	fs.IntVar(&cfg.pid, "pid", 0, "process id of the --url server, for its peak RSS (default: sampled from its /metrics)")
	fs.StringVar(&cfg.redactd, "redactd", "bin/redactd", "redactd binary to start when --url is not given")
	fs.Func("server-arg", "extra argument for `redactd serve` (repeatable), e.g. --server-arg=--workers=2", func(s string) error {
		cfg.serverArgs = append(cfg.serverArgs, s)
		return nil
	})
	fs.Float64Var(&cfg.dpi, "dpi", 150, "output resolution: passed to the server started, and used by the peers")
	fs.StringVar(&sweep, "sweep", "", "concurrency levels for the text corpus's sweep (default 1,2,4,8,16; quick 1,4)")
	fs.IntVar(&cfg.conc, "concurrency", 0, "concurrent jobs for each corpus (default 8; quick 4)")
	fs.IntVar(&cfg.longConc, "long-concurrency", 16, "concurrent jobs for the long-document corpus")
	fs.IntVar(&cfg.scanLoad, "scan-load", 16, "concurrent jobs of the scan corpus's extra run for peak RSS (its documents repeated to as many jobs); 0 skips it")
	fs.StringVar(&cfg.upload, "upload", "both", "upload path: multipart, direct, or both (alternating)")
	fs.StringVar(&corpora, "corpora", "text,scan,photo,long,real", "corpora to run")
	fs.StringVar(&cfg.data, "data", shareddata.Dir(), "shared data folder (pii/presidio_research, documents; default $"+shareddata.Env+", else ../shared/data beside the checkout)")
	fs.StringVar(&cfg.out, "out", "bench/RESULTS.md", "report file; charts are written beside it")
	fs.StringVar(&cfg.work, "work", "", "working folder for corpora, peers and the server's data (default: a temporary folder, removed afterwards)")
	fs.BoolVar(&cfg.keep, "keep", false, "keep the working folder")
	fs.BoolVar(&cfg.peers, "peers", true, "time the peer tools")
	fs.BoolVar(&cfg.ocr, "ocr", true, "look for leaks with OCR of outputs (models/ocr; needs `make setup`)")
	fs.IntVar(&cfg.ocrPages, "ocr-pages", 0, "output pages per corpus read by OCR for leaks (default 8; quick 3)")
	fs.BoolVar(&cfg.ocrEval, "ocr-eval", true, "compare redactd's OCR with Tesseract on 200-dpi renders of the shared documents (needs `make setup`)")
	fs.IntVar(&cfg.ocrEvalN, "ocr-eval-pages", 0, "pages of the OCR comparison (default 24; quick 3)")
	fs.IntVar(&cfg.ocrInFl, "ocr-eval-inflight", 0, "pages in flight in redactd's OCR during the comparison (default 2 per CPU)")
	fs.BoolVar(&cfg.ocrDev, "ocr-eval-dev", false, "score the OCR comparison's dev pages instead: the usable pages after its own, which tuning may read (the comparison's stay for the report)")
	fs.BoolVar(&cfg.recGate, "recogniser-gate", true, "run the scan and photo corpora a second time on a server with --ocr-model=ppocrv4 and compare the PII words masked per category (issue 48's gate)")
	fs.StringVar(&cfg.baseline, "baseline", "", "a second redactd binary (the code before a change: git worktree add, make build) whose server runs the text, long and scan corpora after the main run, for a before-and-after table of the same run")
	fs.StringVar(&cfg.profile, "profile", "", "take the server's CPU profile (serve --pprof) over each corpus's runs, the baseline's too, into this folder and add the CPU by stage to the report")
	fs.StringVar(&cfg.adminSock, "admin-socket", "", "the --url server's admin socket, for --profile (it serves with --pprof)")
	fs.StringVar(&cfg.only, "only", "", "run one section only: ocr (the OCR comparison, no server); the report goes to stdout unless --out is given")
	fs.Uint64Var(&seed, "seed", 1, "seed of the synthetic corpora")
	fs.DurationVar(&cfg.timeout, "timeout", 90*time.Minute, "give up after this long")
	verbose := fs.Bool("v", false, "log progress at debug level")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected argument %q\n", fs.Arg(0))
		return nil, fmt.Errorf("usage")
	}
	cfg.seed = seed
	cfg.corpora = map[string]bool{}
	for _, c := range strings.Split(corpora, ",") {
		if c = strings.TrimSpace(c); c != "" {
			cfg.corpora[c] = true
		}
	}
	if sweep == "" {
		sweep = "1,2,4,8,16"
		if cfg.quick {
			sweep = "1,4"
		}
	}
	for _, s := range strings.Split(sweep, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "bench: bad --sweep %q\n", sweep)
			return nil, fmt.Errorf("usage")
		}
		cfg.sweep = append(cfg.sweep, n)
	}
	if cfg.conc <= 0 {
		cfg.conc = 8
		if cfg.quick {
			cfg.conc = 4
		}
	}
	if cfg.ocrEvalN <= 0 {
		cfg.ocrEvalN = 24
		if cfg.quick {
			cfg.ocrEvalN = 3
		}
	}
	if cfg.ocrInFl <= 0 {
		cfg.ocrInFl = 2 * runtime.NumCPU()
	}
	switch cfg.only {
	case "":
	case "ocr":
		outSet := false
		fs.Visit(func(f *flag.Flag) { outSet = outSet || f.Name == "out" })
		if !outSet {
			cfg.out = "-"
		}
	default:
		fmt.Fprintf(stderr, "bench: --only must be ocr\n")
		return nil, fmt.Errorf("usage")
	}
	if cfg.ocrPages <= 0 {
		cfg.ocrPages = 8
		if cfg.quick {
			cfg.ocrPages = 3
		}
	}
	switch cfg.upload {
	case "multipart", "direct", "both":
	default:
		fmt.Fprintf(stderr, "bench: --upload must be multipart, direct or both\n")
		return nil, fmt.Errorf("usage")
	}
	if cfg.url != "" && cfg.key == "" {
		fmt.Fprintf(stderr, "bench: --url needs --key (or $REDACTD_API_KEY)\n")
		return nil, fmt.Errorf("usage")
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	cfg.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	gitDescribe() // the tree as it is now, before building and measuring
	return cfg, nil
}
