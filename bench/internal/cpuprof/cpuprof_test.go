package cpuprof

import (
	"context"
	"net"
	"net/http"
	"net/http/pprof"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// TestSplit: a sample counts for a stage when a function of its stack
// matches the stage's focus and none its ignore, and for every stage
// it matches.
func TestSplit(t *testing.T) {
	fn := map[string]*profile.Function{}
	loc := func(names ...string) []*profile.Location {
		var out []*profile.Location
		for _, n := range names {
			f := fn[n]
			if f == nil {
				f = &profile.Function{ID: uint64(len(fn) + 1), Name: n, Filename: "x.go"}
				fn[n] = f
			}
			out = append(out, &profile.Location{ID: uint64(len(out) + 1), Line: []profile.Line{{Function: f}}})
		}
		return out
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Value: []int64{1, 10}, Location: loc("ner.(*ownModel).run", "ner.(*Detector).Detect", "detect.Run")},
			{Value: []int64{1, 20}, Location: loc("ner.(*Detector).Detect", "detect.Run")},
			{Value: []int64{1, 40}, Location: loc("rules.apply", "detect.Run")},
			{Value: []int64{1, 80}, Location: loc("main.other")},
		},
	}
	stages := []Stage{
		stage("NER model runs", `ner\.\(\*ownModel\)\.run`, ""),
		stage("NER detector, Go side", `ner\.\(\*Detector\)\.Detect`, `ownModel`),
		stage("rules", `detect\.Run`, `ner\.`),
	}
	total, shares, err := Split(p, stages)
	if err != nil {
		t.Fatal(err)
	}
	if total != 150 {
		t.Errorf("total %v, want 150ns", total)
	}
	want := []time.Duration{10, 20, 40}
	for i, s := range shares {
		if s.CPU != want[i] {
			t.Errorf("%s: %v, want %v", s.Name, s.CPU, want[i])
		}
	}
	p.SampleType = p.SampleType[:1]
	if _, _, err := Split(p, stages); err == nil {
		t.Error("a profile without CPU values split without an error")
	}
}

// TestStagesCompile: every stage's expressions name something (an empty
// focus would take every sample).
func TestStagesCompile(t *testing.T) {
	for _, s := range Stages {
		if s.Focus.String() == "" || s.Focus.MatchString("") {
			t.Errorf("stage %s: focus %q matches anything", s.Name, s.Focus)
		}
	}
}

// busyLoop burns CPU until stop is set; its name is what the recording
// must find.
//
//go:noinline
func busyLoop(stop *atomic.Bool) int {
	n := 0
	for !stop.Load() {
		for i := 0; i < 1e5; i++ {
			n += i * i
		}
	}
	return n
}

// TestRecording: a recording over a run longer than one chunk, from a
// real net/http/pprof handler on a unix socket, holds the run's samples
// from both chunks.
func TestRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles for two seconds")
	}
	sock := serveAdmin(t, pprof.Profile)

	var stop atomic.Bool
	done := make(chan int)
	go func() { done <- busyLoop(&stop) }()
	rec := Start(context.Background(), sock, time.Second)
	time.Sleep(1500 * time.Millisecond)
	stop.Store(true)
	<-done
	p, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if p.DurationNanos < int64(1900*time.Millisecond) {
		t.Errorf("merged profile covers %v, want two chunks of 1s", time.Duration(p.DurationNanos))
	}
	_, shares, err := Split(p, []Stage{{Name: "busy", Focus: regexp.MustCompile(`cpuprof\.busyLoop`)}})
	if err != nil {
		t.Fatal(err)
	}
	if shares[0].CPU < 500*time.Millisecond {
		t.Errorf("busy loop: %v of CPU in the profile, want most of 1.5s", shares[0].CPU)
	}
}

// TestRecordingWithoutPprof: a server without pprof is an error that
// says so, not an empty profile.
func TestRecordingWithoutPprof(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "admin.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.NotFoundHandler()}
	go srv.Serve(ln)
	defer srv.Close()
	_, err = Start(context.Background(), sock, time.Second).Stop()
	if err == nil || !regexp.MustCompile(`--pprof`).MatchString(err.Error()) {
		t.Errorf("err = %v, want one that names --pprof", err)
	}
}

// TestAbandon: an abandoned recording asks the socket nothing more once
// Abandon returns, and Stop and Abandon may follow each other.
func TestAbandon(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles for two seconds")
	}
	var asked atomic.Int32
	sock := serveAdmin(t, func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		pprof.Profile(w, r)
	})

	rec := Start(context.Background(), sock, time.Second)
	rec.Abandon()
	n := asked.Load()
	if n == 0 {
		t.Fatal("the recording asked for no profile before Abandon returned")
	}
	time.Sleep(1500 * time.Millisecond)
	if m := asked.Load(); m != n {
		t.Errorf("%d profiles asked for after Abandon returned", m-n)
	}
	if _, err := rec.Stop(); err != nil {
		t.Errorf("Stop after Abandon: %v", err)
	}
	rec.Abandon()
}

// serveAdmin serves profile as /debug/pprof/profile on a unix socket in
// a temporary folder, as serve --pprof does on its admin socket, until
// the test ends; it returns the socket's path.
func serveAdmin(t *testing.T, profile http.HandlerFunc) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "admin.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/profile", profile)
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return sock
}
