// Package report holds what a benchmark run measured and writes it as
// Markdown (bench/RESULTS.md) with two PNG charts beside it.
package report

import (
	"time"

	"github.com/redactd/redactd/bench/internal/client"
	"github.com/redactd/redactd/bench/internal/cpuprof"
	"github.com/redactd/redactd/bench/internal/peers"
	"github.com/redactd/redactd/bench/internal/score"
)

// Report is one run of the benchmark.
type Report struct {
	Started  time.Time
	Took     time.Duration
	Command  string
	Quick    bool
	Machine  Machine
	Versions [][2]string // component, version
	Server   string      // how the server was run
	DPI      float64

	// Only names the one section run (bench --only), "" for all.
	Only string

	Idle    *Idle
	Uploads *Uploads
	OCR     *OCR
	Corpora []*Corpus
	// Recogniser holds the scan and photo corpora's scores with the
	// reference recogniser (bench --recogniser-gate), nil when not run.
	Recogniser *Recogniser
	// Baseline holds the text, long and scan corpora run on a server of
	// another binary (bench --baseline), nil when not run.
	Baseline *Baseline
	Sweep    []Point
	Peers    []Peer
	Targets  []Target
	Notes    []string
}

// Machine describes where the run happened.
type Machine struct {
	CPUs     int
	CPUModel string
	MemBytes int64
	Kernel   string
	// LoadStart and LoadEnd are /proc/loadavg's 1-minute figure at the
	// start and end of the run: other work on the machine shows there.
	LoadStart, LoadEnd string
}

// Uploads is the server's memory while Jobs clients each sent a PDF of
// Bytes through multipart POST /v1/jobs at once, until all were redacted.
type Uploads struct {
	Jobs    int
	Bytes   int64
	Took    time.Duration
	BaseRSS int64 // before the uploads
	PeakRSS int64
	RSSHow  string
}

// Idle is the latency of one-page jobs sent one at a time to an idle
// server, by upload path.
type Idle struct {
	Pages     int
	Multipart []time.Duration // sorted
	Direct    []time.Duration // sorted
}

// Corpus is the measured run of one corpus and the score of its outputs.
type Corpus struct {
	Name, Desc    string
	Docs, Pages   int
	Concurrency   int
	Upload        string
	Wall          time.Duration
	PagesPerSec   float64
	Latencies     []time.Duration // sorted, all paths
	Failed        int
	FailSamples   []string
	InBytes       int64 // of all documents submitted
	OutBytes      int64 // of all outputs downloaded
	OutPages      int   // pages of those outputs
	InBytesDone   int64 // input bytes of the documents redacted
	PeakRSS       int64
	RSSHow        string
	Stages        []client.Stage
	OCRWork       client.OCRWork
	Score         *score.Result
	OCRRanOnPages bool // the server's ocr stage saw pages during the run
	// CPU is the server process's user and system CPU time during the
	// timed run; 0 where the bench does not know the process.
	CPU time.Duration
	// Profile is the server's CPU profile over the corpus's runs, split
	// by stage (bench --profile); nil when none was taken.
	Profile *Profile
	// Load is the corpus's extra run at a heavier load (the scan corpus's
	// documents submitted LoadCopies times over, LoadConcurrency at once),
	// for the memory target of many concurrent scan jobs; nil when not run.
	Load *Load
}

// Load is a run of a corpus's documents, copies times over, at
// concurrency jobs at once.
type Load struct {
	Jobs, Concurrency int
	PagesPerSec       float64
	Failed            int
	PeakRSS           int64
	RSSHow            string
}

// Profile is a server's CPU profile over a corpus's runs (every run of
// it: the text corpus's sweep, the scan corpus's run under load), split
// by the pipeline's stages (cpuprof.Stages).
type Profile struct {
	File   string        // the merged profile, for go tool pprof
	Pages  int           // pages redacted by the runs it covers
	Total  time.Duration // CPU time of all its samples
	Stages []cpuprof.Share
}

// PerPage is d per page of the profile's runs.
func (p *Profile) PerPage(d time.Duration) time.Duration {
	if p == nil || p.Pages == 0 {
		return 0
	}
	return d / time.Duration(p.Pages)
}

// Baseline is the run of the throughput corpora on a server started
// from another redactd binary (the code before a change), in the same
// bench run as the main one: the before of a before and after.
type Baseline struct {
	Binary  string // as given to --baseline
	Version string // its build information (Go version, VCS revision)
	Corpora []*Corpus
}

// CPUPerPage is the server's CPU time per page of the corpus's timed
// run, 0 when unknown.
func (c *Corpus) CPUPerPage() time.Duration {
	if c.CPU <= 0 || c.Pages == 0 {
		return 0
	}
	return c.CPU / time.Duration(c.Pages)
}

// Recogniser is the run of the OCR'd corpora on a server using another
// recogniser, Model, scored as the main run's (Corpus.Score only).
type Recogniser struct {
	Model   string
	Corpora []*Corpus
}

// Point is one run of the concurrency sweep.
type Point struct {
	Corpus      string
	Concurrency int
	PagesPerSec float64
	P50         time.Duration
}

// Peer is a peer's run on a corpus and redactd's speed on the same one.
type Peer struct {
	Corpus  string
	Result  peers.Result
	Redactd float64 // redactd pages/s on the corpus
}

// Ratio is redactd's throughput over the peer's, 0 when unknown.
func (p Peer) Ratio() float64 {
	if pps := p.Result.PagesPerSecond(); pps > 0 {
		return p.Redactd / pps
	}
	return 0
}

// Target is one goal from the issue, what was measured and whether it
// was met.
type Target struct {
	Name     string
	Goal     string
	Measured string
	Status   string // pass, FAIL, n/a
	Note     string
}

// OCR is the OCR comparison: redactd's OCR and Tesseract reading the
// same clean renders of real PDF pages, scored against their text layer.
type OCR struct {
	DPI     float64
	Pages   []OCRPage
	Dropped int // text-layer lines left out of the truth
	Systems []OCRSystem
	Err     string // why the comparison did not run
	// LoadStart and LoadEnd are the 1-minute load average around the
	// timed runs.
	LoadStart, LoadEnd string
}

// OCRPage is one page of the comparison and each system's score on it
// (in the order of OCR.Systems; NaN where a system did not run).
type OCRPage struct {
	Name         string
	Lines, Chars int
	CER          []float64
}

// OCRSystem is one system's run over the pages.
type OCRSystem struct {
	Name, Version, How string
	Missing, Err       string
	Pages              int
	Wall               time.Duration
	CPU                time.Duration // processor time, user and system
	Chars, Edits       int
	TruthWords, Found  int
	Extra              int // words read outside every truth line
	CER, WordRecall    float64
}

// PagesPerSec is pages over wall time (0 when it did not run).
func (s OCRSystem) PagesPerSec() float64 {
	if s.Missing != "" || s.Err != "" || s.Wall <= 0 {
		return 0
	}
	return float64(s.Pages) / s.Wall.Seconds()
}
