// Package cpuprof takes a redactd server's CPU profile over a run of any
// length and splits it by the pipeline's stages (bench --profile,
// bench/PROFILE.md).
//
// net/http/pprof profiles for a fixed number of seconds, and a run's
// length is not known when it starts, so a Recording asks the server's
// admin socket for one short profile after another until it is stopped
// and merges them: the run is covered but for the few milliseconds
// between two requests, and the last profile runs on past the run's end
// by less than one chunk (the server is idle then, so that adds almost
// no samples).
package cpuprof

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/google/pprof/profile"
)

// DefaultChunk is the length of each profile a Recording asks for.
const DefaultChunk = 5 * time.Second

// Recording is a CPU profile being taken. Start one, then Stop it (or
// Abandon it, on a path that will not read it).
type Recording struct {
	stop  chan struct{}
	once  sync.Once
	done  chan struct{}
	profs []*profile.Profile
	err   error
}

// Start begins profiling the server whose admin socket is at socket
// (its serve --pprof), in profiles of chunk each (DefaultChunk if 0).
func Start(ctx context.Context, socket string, chunk time.Duration) *Recording {
	if chunk <= 0 {
		chunk = DefaultChunk
	}
	r := &Recording{stop: make(chan struct{}), done: make(chan struct{})}
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}}}
	go func() {
		defer close(r.done)
		defer c.CloseIdleConnections()
		for {
			p, err := fetch(ctx, c, chunk)
			if err != nil {
				r.err = err
				return
			}
			r.profs = append(r.profs, p)
			select {
			case <-r.stop:
				return
			case <-ctx.Done():
				r.err = ctx.Err()
				return
			default:
			}
		}
	}()
	return r
}

// Stop waits for the profile in flight to end and returns the merged
// profile of the whole recording.
func (r *Recording) Stop() (*profile.Profile, error) {
	r.halt()
	if r.err != nil {
		return nil, r.err
	}
	if len(r.profs) == 0 {
		return nil, errors.New("cpuprof: no profile taken")
	}
	return profile.Merge(r.profs)
}

// Abandon ends the recording and drops what it took: the profile being
// taken is waited for, so no request to the socket outlives the call. It
// may follow Stop, and does nothing then.
func (r *Recording) Abandon() { r.halt() }

// halt asks the recording goroutine to end after its current profile and
// waits for it; safe to call more than once.
func (r *Recording) halt() {
	r.once.Do(func() { close(r.stop) })
	<-r.done
}

// fetch takes one profile of d from the admin socket.
func fetch(ctx context.Context, c *http.Client, d time.Duration) (*profile.Profile, error) {
	url := fmt.Sprintf("http://admin/debug/pprof/profile?seconds=%d", int(d.Round(time.Second)/time.Second))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cpuprof: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("cpuprof: admin socket answered %s: %s (is the server running with --pprof?)", resp.Status, b)
	}
	p, err := profile.Parse(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("cpuprof: %w", err)
	}
	return p, nil
}

// WriteFile writes p gzipped, for go tool pprof.
func WriteFile(path string, p *profile.Profile) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// A Stage is a part of the server's work, told by the functions on a
// sample's stack as go tool pprof's -focus and -ignore tell them: a
// sample is the stage's when a function name or file name of its stack
// matches Focus and none matches Ignore.
type Stage struct {
	Name          string
	Focus, Ignore *regexp.Regexp
}

func stage(name, focus, ignore string) Stage {
	s := Stage{Name: name, Focus: regexp.MustCompile(focus)}
	if ignore != "" {
		s.Ignore = regexp.MustCompile(ignore)
	}
	return s
}

// Stages are the lines of a split, in the order of a page's path. Model
// runs are made by batchers on goroutines of their own, so they are lines
// of their own (the OCR detector, the recogniser with the cross-reading
// PP-OCRv4, the direction classifier, NER), never inside the stage that
// asked for them; "OCR, Go side" (detector input, crops, ink profiles,
// decoding) overlaps "font checks" and "release check", which read pixels
// through it. Samples on threads ONNX Runtime starts itself have no Go
// stack: pprof puts them under runtime._ExternalCode. MuPDF's own
// functions are one cgocall to pprof.
var Stages = []Stage{
	stage("parse (load, words)", `pdfSource\).(Load|Open)|mupdf\.Open`, ""),
	stage("render", `pdfPage\).Render`, ""),
	stage("font checks", `Pipeline\)\.checkFonts`, ""),
	stage("ink analysis", `pipeline\.unexplainedInk`, ""),
	stage("OCR, Go side", `models/ocr\.`, `runDet|recChunk|runCls`),
	stage("OCR detector runs", `ocr\.\(\*Engine\)\.runDet`, ""),
	stage("OCR recogniser runs", `ocr\.\(\*Engine\)\.recChunk`, ""),
	stage("OCR classifier runs", `ocr\.\(\*Engine\)\.runCls`, ""),
	stage("NER model runs", `ner\.\(\*ownModel\)\.run`, ""),
	stage("ONNX Runtime pool threads", `runtime\._ExternalCode`, ""),
	stage("NER detector, Go side", `ner\.\(\*Detector\)\.Detect`, `ownModel`),
	stage("rules, recognizers", `detect\.Run`, `ner\.`),
	stage("visual (faces, codes)", `Pipeline\)\.visualPage`, ""),
	stage("handwriting", `Pipeline\)\.handPage`, ""),
	stage("release check", `Pipeline\)\.releaseCheck`, ""),
	stage("burn", `pipeline/burn\.|Pipeline\)\.burn`, ""),
	stage("encode", `pdfout\.Encode`, ""),
	stage("job service, store", `engine/jobs|engine/store`, ""),
	stage("HTTP", `fasthttp|server\.`, ""),
	stage("GC, runtime background", `runtime\.(gcBgMarkWorker|bgsweep|bgscavenge)`, ""),
}

// Share is the CPU time of one stage in a profile.
type Share struct {
	Name string
	CPU  time.Duration
}

// Split returns the profile's CPU time in all and that of each of
// stages, in their order.
func Split(p *profile.Profile, stages []Stage) (time.Duration, []Share, error) {
	vi := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			vi = i
		}
	}
	if vi < 0 {
		return 0, nil, errors.New("cpuprof: not a CPU profile (no cpu/nanoseconds values)")
	}
	shares := make([]Share, len(stages))
	for i, s := range stages {
		shares[i].Name = s.Name
	}
	var total int64
	names := make([]string, 0, 64)
	for _, s := range p.Sample {
		v := s.Value[vi]
		total += v
		names = stackNames(s, names[:0])
		for i, st := range stages {
			if anyMatch(st.Focus, names) && (st.Ignore == nil || !anyMatch(st.Ignore, names)) {
				shares[i].CPU += time.Duration(v)
			}
		}
	}
	return time.Duration(total), shares, nil
}

// stackNames appends the function and file names of a sample's stack
// (inlined calls included) to names.
func stackNames(s *profile.Sample, names []string) []string {
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil {
				names = append(names, ln.Function.Name, ln.Function.Filename)
			}
		}
	}
	return names
}

func anyMatch(re *regexp.Regexp, names []string) bool {
	for _, n := range names {
		if re.MatchString(n) {
			return true
		}
	}
	return false
}
