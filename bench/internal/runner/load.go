// Package runner submits a corpus to redactd at a fixed concurrency, the
// way a client would: upload (multipart or direct), poll until terminal,
// download, delete. It records each job's latency from the start of the
// upload until its output is downloadable, and the wall time of the whole
// run.
package runner

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/redactd/redactd/bench/internal/client"
	"github.com/redactd/redactd/bench/internal/corpus"
)

// Upload paths.
const (
	Multipart = "multipart"
	Direct    = "direct"
	Both      = "both" // alternate, job by job; images always go multipart
)

// Options tune a run.
type Options struct {
	Concurrency int
	Upload      string
	// Poll is the first polling interval, growing by half up to MaxPoll.
	Poll, MaxPoll time.Duration
	// KeepOutput keeps downloaded outputs in Job.Output for scoring.
	KeepOutput bool
}

// Job is what happened to one document.
type Job struct {
	Doc     *corpus.Doc
	Path    string        // upload path used
	Latency time.Duration // upload start to all documents terminal
	Status  string        // redacted, error, or failed (the client's call failed)
	Err     string
	Output  []byte
	OutSize int
}

// Result is one run.
type Result struct {
	Concurrency int
	Wall        time.Duration
	Jobs        []Job
}

// Run submits docs with opts.Concurrency jobs in flight.
func Run(ctx context.Context, c *client.Client, docs []*corpus.Doc, opts Options) *Result {
	conc := max(opts.Concurrency, 1)
	res := &Result{Concurrency: conc, Jobs: make([]Job, len(docs))}
	for i, d := range docs {
		res.Jobs[i] = Job{Doc: d, Status: "failed", Err: "not submitted"}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res.Jobs[i] = one(ctx, c, docs[i], path(opts.Upload, i, docs[i]), opts)
			}
		}()
	}
	for i := range docs {
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	res.Wall = time.Since(start)
	return res
}

func path(mode string, i int, d *corpus.Doc) string {
	switch {
	case d.ContentType != "application/pdf", mode == Multipart:
		return Multipart
	case mode == Direct:
		return Direct
	case i%2 == 0:
		return Multipart
	}
	return Direct
}

func one(ctx context.Context, c *client.Client, d *corpus.Doc, path string, opts Options) Job {
	j := Job{Doc: d, Path: path, Status: "failed"}
	if ctx.Err() != nil {
		j.Err = ctx.Err().Error()
		return j
	}
	t0 := time.Now()
	submit := c.SubmitMultipart
	if path == Direct {
		submit = c.SubmitDirect
	}
	job, err := submit(ctx, d.Name, d.ContentType, d.Data)
	if err != nil {
		j.Err = fmt.Sprintf("submit: %v", err)
		return j
	}
	job, err = c.Wait(ctx, job.JobID, opts.Poll, opts.MaxPoll)
	if err != nil {
		j.Err = fmt.Sprintf("poll: %v", err)
		return j
	}
	j.Latency = time.Since(t0)
	defer c.Delete(context.WithoutCancel(ctx), job.JobID)
	doc := job.Documents[0]
	j.Status = doc.Status
	if doc.Status != "redacted" {
		if doc.ErrorMessage != nil {
			j.Err = *doc.ErrorMessage
		}
		return j
	}
	out, err := c.Output(ctx, doc.ID)
	if err != nil {
		j.Status, j.Err = "failed", fmt.Sprintf("download: %v", err)
		return j
	}
	j.OutSize = len(out)
	if opts.KeepOutput {
		j.Output = out
	}
	return j
}

// Pages counts the pages of the jobs that were redacted.
func (r *Result) Pages() int {
	n := 0
	for _, j := range r.Jobs {
		if j.Status == "redacted" {
			n += j.Doc.Pages
		}
	}
	return n
}

// PagesPerSecond is redacted pages over the run's wall time.
func (r *Result) PagesPerSecond() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return float64(r.Pages()) / r.Wall.Seconds()
}

// Failed counts jobs that did not end redacted.
func (r *Result) Failed() int {
	n := 0
	for _, j := range r.Jobs {
		if j.Status != "redacted" {
			n++
		}
	}
	return n
}

// Latencies returns the latencies of the finished jobs of the given
// upload path ("" for all), sorted.
func (r *Result) Latencies(path string) []time.Duration {
	var ds []time.Duration
	for _, j := range r.Jobs {
		if j.Latency > 0 && (path == "" || j.Path == path) {
			ds = append(ds, j.Latency)
		}
	}
	slices.Sort(ds)
	return ds
}

// Percentile is the p-th percentile (0..100, nearest rank) of sorted
// durations, or 0 for none.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
