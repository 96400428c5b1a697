package client

import (
	"sort"
	"strconv"
	"strings"
)

// Samples are the values of a Prometheus text exposition, keyed by the
// series as written: name{labels}.
type Samples map[string]float64

// ParseMetrics reads the Prometheus text format (comments skipped, no
// timestamps expected, as promhttp writes it).
func ParseMetrics(text string) Samples {
	s := Samples{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		s[line[:i]] = v
	}
	return s
}

// Stage is the time spent in one pipeline stage between two scrapes.
type Stage struct {
	Name    string
	Seconds float64 // total across pages
	Count   float64 // observations (pages)
}

// stageMetric is the histogram the pipeline records stage times in (see
// engine/metrics).
const stageMetric = "redactd_stage_duration_seconds"

// Stages returns the per-stage time recorded between before and after,
// largest first, stages with no observations left out.
func Stages(before, after Samples) []Stage {
	var out []Stage
	for series, sum := range after {
		name, ok := strings.CutPrefix(series, stageMetric+"_sum{")
		if !ok {
			continue
		}
		stage := label(name, "stage")
		count := after[stageMetric+"_count{"+name] - before[stageMetric+"_count{"+name]
		if count <= 0 {
			continue
		}
		out = append(out, Stage{Name: stage, Seconds: sum - before[series], Count: count})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seconds > out[j].Seconds })
	return out
}

// Delta is after minus before for one series.
func Delta(before, after Samples, series string) float64 { return after[series] - before[series] }

// label extracts the value of key from a label list `k="v",k2="v2"}`.
func label(labels, key string) string {
	for _, kv := range strings.Split(strings.TrimSuffix(labels, "}"), ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}
