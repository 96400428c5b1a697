// Package load is an HTTP load generator for redactd's API: it measures
// how fast and how evenly the server answers status polls
// (GET /v1/jobs/{id}) and job creations (POST /v1/jobs with a small PDF)
// while the pipeline is kept busy by a steady stream of documents. Each
// phase is bounded both in time and in request count, and every request's
// latency is recorded, so the report gives requests per second and
// percentiles, plus how many answers were 4xx, 5xx or transport errors.
//
// It is the API side of the benchmarks: bench/ measures documents per
// second and detection quality; this measures what callers feel while
// that work runs. cmd/loadgen runs it against an in-process server on
// loopback (or any URL) and writes RESULTS.md.
package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options tune a run.
type Options struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:8080.
	URL string
	// Keys are API keys; load clients are spread over them (one account
	// per key keeps per-account locking realistic). Background is the key
	// of the background stream (may equal one of Keys).
	Keys       []string
	Background string

	// Duration bounds each phase; MaxRequests bounds its request count
	// (MaxCreates the creation phase's).
	Duration    time.Duration
	MaxRequests int
	MaxCreates  int
	// Concurrency is the number of clients issuing requests back to back.
	Concurrency int

	// SmallPDF is the document of the creation phase; BackgroundPDF that
	// of the background stream, which keeps BackgroundJobs jobs in the
	// pipeline at all times during the busy phases.
	SmallPDF       []byte
	BackgroundPDF  []byte
	BackgroundJobs int

	// Idle adds a status-poll phase before the background stream starts,
	// for comparison with the busy one.
	Idle bool
	// DrainTimeout bounds the wait for created jobs to finish.
	DrainTimeout time.Duration
	// Cleanup deletes every job the run created.
	Cleanup bool
}

// Phase is the outcome of one measured phase.
type Phase struct {
	Name        string
	Concurrency int
	Requests    int // answered requests (any status)
	OK          int // 2xx
	Status4xx   int
	Status5xx   int
	Transport   int // no answer: connection errors, timeouts
	Elapsed     time.Duration
	// Latencies of answered requests, sorted.
	Latencies []time.Duration
	// BackgroundDone counts background documents finished during the
	// phase (how busy the pipeline was).
	BackgroundDone int
}

// RPS is answered requests per second.
func (p *Phase) RPS() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Requests) / p.Elapsed.Seconds()
}

// Percentile returns the q-th percentile latency (nearest rank).
func (p *Phase) Percentile(q float64) time.Duration {
	if len(p.Latencies) == 0 {
		return 0
	}
	i := int(q/100*float64(len(p.Latencies))+0.5) - 1
	return p.Latencies[min(max(i, 0), len(p.Latencies)-1)]
}

// Report is a whole run.
type Report struct {
	Options Options
	Phases  []*Phase
	// Created are the jobs of the creation phase; Redacted and Failed
	// count their documents' outcomes after draining, Pending those not
	// terminal when DrainTimeout ran out.
	Created                   []string
	Redacted, Failed, Pending int
	Drain                     time.Duration
	// Background totals; BackgroundJobs are its job ids (submissions
	// that failed count in BackgroundFailed).
	BackgroundSubmitted, BackgroundDone, BackgroundFailed int
	BackgroundJobs                                        []string
}

// Run executes the phases: optionally status polls on an idle pipeline,
// then with the background stream running: status polls, job creations;
// then waits for the created jobs to finish.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.URL == "" || len(o.Keys) == 0 {
		return nil, errors.New("load: URL and at least one key are required")
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.Background == "" {
		o.Background = o.Keys[0]
	}
	c := newClient(o)
	defer c.hc.CloseIdleConnections()
	rep := &Report{Options: o}

	// One finished job per key: the target of the status polls.
	targets := make([]string, len(o.Keys))
	for i, k := range o.Keys {
		id, status, err := c.create(ctx, k, o.SmallPDF)
		if err != nil || status != 200 {
			return nil, fmt.Errorf("load: creating the poll target: status %d: %v", status, err)
		}
		if _, err := c.waitTerminal(ctx, k, []string{id}, time.Minute); err != nil {
			return nil, err
		}
		targets[i] = id
	}
	poll := func(ctx context.Context, w int) (int, error) {
		k := w % len(o.Keys)
		return c.get(ctx, o.Keys[k], targets[k])
	}

	if o.Idle {
		rep.Phases = append(rep.Phases, c.phase(ctx, "GET /v1/jobs/{id}, pipeline idle", o.Duration, o.MaxRequests, poll, nil))
	}

	bg := c.startBackground(ctx, o.Background, o.BackgroundPDF, o.BackgroundJobs)
	// Let the pipeline fill before measuring.
	bg.waitBusy(ctx, 10*time.Second)
	rep.Phases = append(rep.Phases, c.phase(ctx, "GET /v1/jobs/{id}, pipeline busy", o.Duration, o.MaxRequests, poll, bg))

	var mu sync.Mutex
	create := func(ctx context.Context, w int) (int, error) {
		k := o.Keys[w%len(o.Keys)]
		id, status, err := c.create(ctx, k, o.SmallPDF)
		if id != "" {
			mu.Lock()
			rep.Created = append(rep.Created, k+"\x00"+id)
			mu.Unlock()
		}
		return status, err
	}
	maxCreates := o.MaxCreates
	if maxCreates <= 0 {
		maxCreates = o.MaxRequests
	}
	rep.Phases = append(rep.Phases, c.phase(ctx, "POST /v1/jobs (1-page PDF), pipeline busy", o.Duration, maxCreates, create, bg))
	bg.stop()
	rep.BackgroundSubmitted, rep.BackgroundDone, rep.BackgroundFailed = bg.totals()
	rep.BackgroundJobs = bg.all()

	// Drain: every created job must reach a terminal state.
	start := time.Now()
	byKey := map[string][]string{}
	for _, kid := range rep.Created {
		k, id, _ := strings.Cut(kid, "\x00")
		byKey[k] = append(byKey[k], id)
	}
	for k, ids := range byKey {
		st, err := c.waitTerminal(ctx, k, ids, max(o.DrainTimeout-time.Since(start), time.Second))
		rep.Redacted += st.redacted
		rep.Failed += st.failed
		rep.Pending += st.pending
		if err != nil && !errors.Is(err, errTimeout) {
			return rep, err
		}
	}
	rep.Drain = time.Since(start)
	if o.Cleanup {
		for k, ids := range byKey {
			for _, id := range ids {
				c.del(ctx, k, id)
			}
		}
		for i, k := range o.Keys {
			c.del(ctx, k, targets[i])
		}
		for _, id := range bg.all() {
			c.del(ctx, o.Background, id)
		}
	}
	return rep, nil
}

// client issues the API requests.
type client struct {
	o  Options
	hc *http.Client
}

func newClient(o Options) *client {
	tr := &http.Transport{MaxIdleConns: 4 * o.Concurrency, MaxIdleConnsPerHost: 4 * o.Concurrency, IdleConnTimeout: time.Minute}
	return &client{o: o, hc: &http.Client{Transport: tr, Timeout: 2 * time.Minute}}
}

// do sends a request and returns the status and body; err is a
// transport error (no answer).
func (c *client) do(ctx context.Context, method, path, key, ctype string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.o.URL+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("X-API-Key", key)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, nil, err
	}
	return res.StatusCode, b, nil
}

type jobView struct {
	JobID     string `json:"job_id"`
	Documents []struct {
		Status string `json:"status"`
	} `json:"documents"`
}

func (c *client) get(ctx context.Context, key, id string) (int, error) {
	st, _, err := c.do(ctx, "GET", "/v1/jobs/"+id, key, "", nil)
	return st, err
}

func (c *client) job(ctx context.Context, key, id string) (*jobView, int, error) {
	st, b, err := c.do(ctx, "GET", "/v1/jobs/"+id, key, "", nil)
	if err != nil || st != 200 {
		return nil, st, err
	}
	var j jobView
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, st, fmt.Errorf("load: job body: %w", err)
	}
	return &j, st, nil
}

func (c *client) del(ctx context.Context, key, id string) {
	c.do(ctx, "DELETE", "/v1/jobs/"+id, key, "", nil)
}

// create posts a one-file multipart job and returns its id.
func (c *client) create(ctx context.Context, key string, pdf []byte) (string, int, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, err := w.CreateFormFile("files", "load.pdf")
	if err != nil {
		return "", 0, err
	}
	fw.Write(pdf)
	w.Close()
	st, b, err := c.do(ctx, "POST", "/v1/jobs", key, w.FormDataContentType(), buf.Bytes())
	if err != nil || st != 200 {
		return "", st, err
	}
	var j jobView
	if err := json.Unmarshal(b, &j); err != nil || j.JobID == "" {
		return "", st, fmt.Errorf("load: create answer %q: %v", b, err)
	}
	return j.JobID, st, nil
}

// phase runs fn from o.Concurrency clients until d has passed or n
// requests were started, and records every answer.
func (c *client) phase(ctx context.Context, name string, d time.Duration, n int, fn func(context.Context, int) (int, error), bg *background) *Phase {
	p := &Phase{Name: name, Concurrency: c.o.Concurrency}
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var started atomic.Int64
	var mu sync.Mutex
	bgBefore := 0
	if bg != nil {
		_, bgBefore, _ = bg.totals()
	}
	t0 := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < c.o.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			var ok, s4, s5, tr int
			for pctx.Err() == nil && (n <= 0 || started.Add(1) <= int64(n)) {
				r0 := time.Now()
				// Requests run to completion on ctx (not pctx), so the
				// deadline never cuts one off and counts it as an error.
				st, err := fn(ctx, w)
				el := time.Since(r0)
				switch {
				case err != nil && st == 0:
					tr++
					continue
				case st >= 500:
					s5++
				case st >= 400:
					s4++
				default:
					ok++
				}
				lat = append(lat, el)
			}
			mu.Lock()
			p.Latencies = append(p.Latencies, lat...)
			p.OK += ok
			p.Status4xx += s4
			p.Status5xx += s5
			p.Transport += tr
			mu.Unlock()
		}()
	}
	wg.Wait()
	p.Elapsed = time.Since(t0)
	p.Requests = len(p.Latencies)
	slices.Sort(p.Latencies)
	if bg != nil {
		_, after, _ := bg.totals()
		p.BackgroundDone = after - bgBefore
	}
	return p
}

type drainStats struct{ redacted, failed, pending int }

var errTimeout = errors.New("load: jobs not terminal in time")

// waitTerminal polls jobs until every document is terminal or timeout.
func (c *client) waitTerminal(ctx context.Context, key string, ids []string, timeout time.Duration) (drainStats, error) {
	deadline := time.Now().Add(timeout)
	left := slices.Clone(ids)
	var st drainStats
	for len(left) > 0 {
		var next []string
		for _, id := range left {
			j, status, err := c.job(ctx, key, id)
			if err != nil || status != 200 {
				return st, fmt.Errorf("load: polling job %s: status %d: %v", id, status, err)
			}
			done := true
			for _, d := range j.Documents {
				done = done && (d.Status == "redacted" || d.Status == "error")
			}
			if !done {
				next = append(next, id)
				continue
			}
			for _, d := range j.Documents {
				if d.Status == "redacted" {
					st.redacted++
				} else {
					st.failed++
				}
			}
		}
		left = next
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			st.pending = len(left)
			return st, errTimeout
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return st, nil
}

// background keeps a number of jobs in the pipeline: it submits a new
// one whenever one finishes.
type background struct {
	c                      *client
	key                    string
	mu                     sync.Mutex
	ids                    []string
	inflight               map[string]bool
	submitted, done, fails int
	cancel                 context.CancelFunc
	wg                     sync.WaitGroup
}

func (c *client) startBackground(ctx context.Context, key string, pdf []byte, n int) *background {
	bctx, cancel := context.WithCancel(ctx)
	b := &background{c: c, key: key, inflight: map[string]bool{}, cancel: cancel}
	if n <= 0 || pdf == nil {
		return b
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for bctx.Err() == nil {
			b.mu.Lock()
			need := n - len(b.inflight)
			var check []string
			for id := range b.inflight {
				check = append(check, id)
			}
			b.mu.Unlock()
			for i := 0; i < need && bctx.Err() == nil; i++ {
				id, st, err := c.create(bctx, key, pdf)
				if bctx.Err() != nil {
					break // stopping: the request was cut off, not refused
				}
				if err != nil || st != 200 {
					b.mu.Lock()
					b.fails++
					b.mu.Unlock()
					continue
				}
				b.mu.Lock()
				b.ids = append(b.ids, id)
				b.inflight[id] = true
				b.submitted++
				b.mu.Unlock()
			}
			for _, id := range check {
				j, st, err := c.job(bctx, key, id)
				if err != nil || st != 200 {
					continue
				}
				done := true
				for _, d := range j.Documents {
					done = done && (d.Status == "redacted" || d.Status == "error")
				}
				if done {
					b.mu.Lock()
					delete(b.inflight, id)
					b.done++
					b.mu.Unlock()
				}
			}
			select {
			case <-bctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return b
}

// waitBusy waits until the stream has its jobs submitted.
func (b *background) waitBusy(ctx context.Context, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		b.mu.Lock()
		n := len(b.inflight)
		b.mu.Unlock()
		if n > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (b *background) stop() {
	b.cancel()
	b.wg.Wait()
}

func (b *background) totals() (submitted, done, failed int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.submitted, b.done, b.fails
}

func (b *background) all() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.ids)
}
