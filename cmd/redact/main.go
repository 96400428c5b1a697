// Command redact is the command-line client of a redactd server: it
// uploads files, waits for their redaction and downloads the flattened
// PDFs.
//
//	redact FILE... [-o DIR] [--categories Person,Email] [--include a,b]
//	       [--exclude c] [--retention ephemeral|studio] [--url URL]
//	       [--direct-over SIZE] [--timeout D] [--retries N] [--report]
//
// The server is --url, else $REDACT_URL, else http://127.0.0.1:8080; the
// API key is $REDACT_API_KEY (never a flag, so it stays out of shell
// history and process listings).
//
// Images and PDFs up to --direct-over (default 8MB) go in one multipart
// job; larger PDFs go through the direct-upload flow (init, PUT, commit)
// in a second job. The client polls each job with exponential backoff
// (250 ms doubling to 2 s) and writes DIR/NAME-redacted.pdf for each
// redacted document. Output paths are printed on stdout; progress goes to
// stderr: a bar per file with pages/s and ETA when stdout and stderr are
// terminals, plain lines (one per change) otherwise.
//
// Exit codes:
//
//	0  every document was redacted and downloaded
//	1  at least one document ended in error (the others were downloaded)
//	2  usage error: bad flags, no files, unreadable file, missing key
//	3  the server refused the request (4xx: invalid, unauthorized, quota,
//	   too large, rate limited after retries)
//	4  the server failed or could not be reached (5xx, network, timeout)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	exitOK       = 0
	exitDocError = 1
	exitUsage    = 2
	exitRejected = 3
	exitServer   = 4
)

const (
	defaultURL   = "http://127.0.0.1:8080"
	pollStart    = 250 * time.Millisecond
	pollCap      = 2 * time.Second
	defaultSplit = 8 << 20
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	// Bars need a terminal to redraw on (stderr) and a user watching it:
	// with stdout piped or redirected, the run is scripted and gets plain
	// lines.
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr) && isTerminal(os.Stdout))
	stop()
	os.Exit(code)
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

type cliConfig struct {
	files      []string
	outDir     string
	opts       options
	url        string
	key        string
	directOver int64
	report     bool
	timeout    time.Duration
	retries    int
}

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// parseArgs parses flags placed anywhere among the file names; "--" ends
// flags.
func parseArgs(args []string, getenv func(string) string, stderr io.Writer) (*cliConfig, error) {
	c := &cliConfig{}
	fs := flag.NewFlagSet("redact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: redact FILE... [-o DIR] [--categories Person,Email] [--include a,b] [--exclude c] [--retention ephemeral|studio] [--url URL] [--direct-over SIZE] [--timeout D] [--report]")
		fs.PrintDefaults()
	}
	var cats, incl, excl listFlag
	fs.StringVar(&c.outDir, "o", ".", "directory for the redacted PDFs")
	fs.Var(&cats, "categories", "comma-separated PII categories, or a JSON array (default: the account's defaults)")
	fs.Var(&incl, "include", "comma-separated terms always redacted, or a JSON array")
	fs.Var(&excl, "exclude", "comma-separated terms never redacted, or a JSON array")
	fs.StringVar(&c.opts.Retention, "retention", "", "ephemeral or studio (default: the server's, ephemeral)")
	fs.StringVar(&c.url, "url", "", "server base URL (default $REDACT_URL or "+defaultURL+")")
	direct := sizeFlag(defaultSplit)
	fs.Var(&direct, "direct-over", "PDFs larger than this use direct upload (e.g. 8MB, 500KiB, bytes)")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Minute, "give up waiting after this long")
	fs.IntVar(&c.retries, "retries", 5, "retries of one request on 429, 502-504 and network errors")
	fs.BoolVar(&c.report, "report", false, "after each download, print the document's report (JSON, one line) on stdout below its path")
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		// flag.Parse stops at the first non-flag, and after "--".
		if consumedDashDash(args, rest) {
			c.files = append(c.files, rest...)
			break
		}
		c.files = append(c.files, rest[0])
		rest = rest[1:]
	}
	c.opts.Categories, c.opts.Included, c.opts.Excluded = cats.val, incl.val, excl.val
	c.directOver = int64(direct)
	if c.url == "" {
		c.url = getenv("REDACT_URL")
	}
	if c.url == "" {
		c.url = defaultURL
	}
	c.key = getenv("REDACT_API_KEY")
	switch {
	case len(c.files) == 0:
		return nil, &usageError{"no files given"}
	case c.key == "":
		return nil, &usageError{"REDACT_API_KEY is not set"}
	case c.opts.Retention != "" && c.opts.Retention != "ephemeral" && c.opts.Retention != "studio":
		return nil, &usageError{"--retention must be ephemeral or studio"}
	case c.retries < 0:
		return nil, &usageError{"--retries must not be negative"}
	case !strings.HasPrefix(c.url, "http://") && !strings.HasPrefix(c.url, "https://"):
		return nil, &usageError{"--url must start with http:// or https://"}
	}
	return c, nil
}

// consumedDashDash reports whether the parser stopped at a "--" that
// precedes rest in args.
func consumedDashDash(args, rest []string) bool {
	i := len(args) - len(rest)
	return i > 0 && args[i-1] == "--"
}

// listFlag is a comma-separated list or a JSON array; given at all, it is
// non-nil (so an empty --exclude value sends an explicit empty list).
type listFlag struct{ val []string }

func (f *listFlag) String() string { return strings.Join(f.val, ",") }

func (f *listFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		var v []string
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return fmt.Errorf("not a JSON array of strings: %v", err)
		}
		f.val = append([]string{}, v...)
		return nil
	}
	f.val = []string{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			f.val = append(f.val, p)
		}
	}
	return nil
}

// sizeFlag is a byte count with an optional unit (k, KB, KiB, M, MB, MiB,
// G, GB, GiB; decimal and binary units both mean powers of 1024 here,
// as in "8 MB" on most desktops).
type sizeFlag int64

func (f *sizeFlag) String() string { return strconv.FormatInt(int64(*f), 10) }

func (f *sizeFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("bad size %q", s)
	}
	mult := map[string]float64{"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30}[unit]
	if mult == 0 {
		return fmt.Errorf("bad size unit %q", unit)
	}
	*f = sizeFlag(n * mult)
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, progress bool) int {
	cfg, err := parseArgs(args, os.Getenv, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "redact: %v\n", err)
		return exitUsage
	}
	files, err := inspect(cfg.files)
	if err != nil {
		fmt.Fprintf(stderr, "redact: %v\n", err)
		return exitUsage
	}
	if err := os.MkdirAll(cfg.outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "redact: output directory: %v\n", err)
		return exitUsage
	}
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	cl := newClient(cfg.url, cfg.key)
	cl.maxRetries = cfg.retries
	r := &runner{c: cl, cfg: cfg, stdout: stdout, stderr: stderr, progress: progress, used: map[string]bool{}}
	return r.run(ctx, files)
}

// inspect stats the inputs and tells PDFs from images by their first
// bytes (falling back to the extension for unreadable prefixes).
func inspect(paths []string) ([]localFile, error) {
	out := make([]localFile, 0, len(paths))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			return nil, fmt.Errorf("%s: not a regular file", p)
		}
		head := make([]byte, 1024)
		n, _ := io.ReadFull(f, head)
		f.Close()
		pdf := strings.Contains(string(head[:n]), "%PDF-") || strings.EqualFold(filepath.Ext(p), ".pdf")
		out = append(out, localFile{Path: p, Size: fi.Size(), PDF: pdf})
	}
	return out, nil
}

// runner carries one invocation.
type runner struct {
	c        *client
	cfg      *cliConfig
	stdout   io.Writer
	stderr   io.Writer
	progress bool            // stderr is a terminal: draw progress bars
	used     map[string]bool // output names taken
}

// batch is one job and the local files of its documents, in order.
type batch struct {
	files []localFile
	job   *job
}

func (r *runner) run(ctx context.Context, files []localFile) int {
	var small, large []localFile
	for _, f := range files {
		if f.PDF && f.Size > r.cfg.directOver {
			large = append(large, f)
		} else {
			small = append(small, f)
		}
	}
	var batches []*batch
	for _, group := range []struct {
		files  []localFile
		direct bool
	}{{small, false}, {large, true}} {
		if len(group.files) == 0 {
			continue
		}
		var j *job
		var err error
		if group.direct {
			r.logf("uploading %d large PDF(s) directly", len(group.files))
			j, err = r.c.createDirect(ctx, group.files, r.cfg.opts)
		} else {
			r.logf("uploading %d file(s)", len(group.files))
			j, err = r.c.createMultipart(ctx, group.files, r.cfg.opts)
		}
		if err != nil {
			return r.fail(err)
		}
		if len(j.Documents) != len(group.files) {
			return r.fail(fmt.Errorf("server created %d documents for %d files", len(j.Documents), len(group.files)))
		}
		batches = append(batches, &batch{files: group.files, job: j})
	}
	failed := false
	for _, b := range batches {
		j, err := r.wait(ctx, b)
		if err != nil {
			return r.fail(err)
		}
		for i, d := range j.Documents {
			f := b.files[i]
			if d.Status != "redacted" {
				failed = true
				msg := "failed"
				if d.ErrorMessage != nil {
					msg = *d.ErrorMessage
				}
				fmt.Fprintf(r.stderr, "redact: %s: %s\n", f.Path, msg)
				continue
			}
			out := r.outputPath(f.Path)
			if err := r.c.download(ctx, d.ID, out); err != nil {
				return r.fail(fmt.Errorf("%s: download: %w", f.Path, err))
			}
			fmt.Fprintln(r.stdout, out)
			if r.cfg.report {
				rep, err := r.c.getReport(ctx, d.ID)
				if err != nil {
					return r.fail(fmt.Errorf("%s: report: %w", f.Path, err))
				}
				fmt.Fprintf(r.stdout, "%s\n", rep)
			}
		}
	}
	if failed {
		return exitDocError
	}
	return exitOK
}

// wait polls a job until every document is terminal, with exponential
// backoff from 250 ms to 2 s, showing each document's progress: bars on
// a terminal, plain lines elsewhere.
func (r *runner) wait(ctx context.Context, b *batch) (*job, error) {
	j := b.job
	delay := pollStart
	view := newProgressView(r.stderr, r.progress, b.files)
	for {
		view.update(j, time.Now())
		done := len(j.Documents) > 0
		for _, d := range j.Documents {
			done = done && terminal(d.Status)
		}
		if done {
			return j, nil
		}
		if err := sleep(ctx, delay); err != nil {
			return nil, err
		}
		delay = min(delay*2, pollCap)
		var err error
		if j, err = r.c.getJob(ctx, b.job.JobID); err != nil {
			return nil, err
		}
	}
}

// outputPath is DIR/NAME-redacted.pdf, with -2, -3... when two inputs
// share a base name.
func (r *runner) outputPath(in string) string {
	base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
	name := base + "-redacted.pdf"
	for n := 2; r.used[name]; n++ {
		name = fmt.Sprintf("%s-%d-redacted.pdf", base, n)
	}
	r.used[name] = true
	return filepath.Join(r.cfg.outDir, name)
}

// logf prints a progress message on stderr (a terminal or not: stdout
// holds only the output paths).
func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.stderr, "redact: "+format+"\n", args...)
}

// fail prints err and picks the exit code.
func (r *runner) fail(err error) int {
	fmt.Fprintf(r.stderr, "redact: %v\n", err)
	var ae *apiError
	if errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500 {
		return exitRejected
	}
	return exitServer
}
