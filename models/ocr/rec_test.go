package ocr

import (
	"context"
	"reflect"
	"testing"

	"github.com/redactd/redactd/models/ort"
)

func TestRecParallelism(t *testing.T) {
	for _, c := range []struct {
		device         string
		threads, procs int
		want           int
	}{
		{"cpu", 2, 2, 2},
		{"cpu", 8, 2, 2},  // GOMAXPROCS caps it
		{"cpu", 1, 16, 1}, // --ort-threads 1: one run at a time
		{"cpu", 4, 16, 4},
		{"cpu", 0, 4, 1},
		{"cuda", 4, 16, 1}, // the GPU takes one run at a time
	} {
		if got := recParallelism(ort.Options{Device: c.device, Threads: c.threads}, c.procs); got != c.want {
			t.Errorf("%s, %d threads, GOMAXPROCS %d: %d runs, want %d", c.device, c.threads, c.procs, got, c.want)
		}
	}
}

// TestRecConcurrentRunsReadTheSame runs one page's lines through runRec
// with its chunks one at a time and three at a time on the same session:
// the same symbols at the same time steps.
func TestRecConcurrentRunsReadTheSame(t *testing.T) {
	e := testEngine(t)
	img, _ := renderPage(t, pageSpec{lines: testLines, dpi: 200, pt: 11, noise: 8, margin: 0.7, seed: 40})
	boxes, err := e.detect(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []recReq
	for _, box := range boxes {
		c, ok := cropQuad(img, box.r.quad())
		if !ok {
			continue
		}
		cuts := c.splitPoints(e.opts.MaxLineWidth)
		for i := 1; i < len(cuts); i++ {
			reqs = append(reqs, recReq{c: c.sub(cuts[i-1], cuts[i])})
		}
	}
	if len(reqs) < 8 {
		t.Fatalf("only %d lines on the test page", len(reqs))
	}
	read := func(par int) []recResp {
		u := &Engine{dict: e.dict, recLUT: e.recLUT, rec: e.rec, recPar: par}
		out, err := u.runRec(context.Background(), reqs)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	serial, parallel := read(1), read(3)
	for i := range serial {
		if !reflect.DeepEqual(serial[i], parallel[i]) {
			t.Fatalf("line %d: %+v one run at a time, %+v three", i, serial[i], parallel[i])
		}
	}
	if len(serial[0].syms) == 0 {
		t.Error("nothing read on the first line")
	}
}
