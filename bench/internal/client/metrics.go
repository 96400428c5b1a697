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

// OCRWork is what the server's OCR did between two scrapes beyond the
// pages it read whole: the cost of reading what the text layer does not
// explain (engine/pipeline's ocr and font-check metrics).
type OCRWork struct {
	// Areas read, by reason: page (a scan), font (a font failed its
	// check), ink (a region of unexplained ink, or a page read whole for
	// having many), ink_reused (a region's reading taken from an
	// identical one on an earlier page).
	Areas map[string]float64
	// FontChecks by result (trusted, untrusted) and the recogniser
	// columns they cost.
	FontChecks  map[string]float64
	FontColumns float64
	// KnownLines are lines found in ink regions that trusted words
	// explain, not read.
	KnownLines float64
	// Columns and Crops are the recogniser's input columns (height 48,
	// padding included) and line crops, font checks included.
	Columns, Crops float64
}

// OCRWorkBetween returns the OCR work recorded between before and after.
func OCRWorkBetween(before, after Samples) OCRWork {
	w := OCRWork{Areas: map[string]float64{}, FontChecks: map[string]float64{}}
	byLabel := func(metric, key string, into map[string]float64) {
		for series := range after {
			if labels, ok := strings.CutPrefix(series, metric+"{"); ok {
				if d := Delta(before, after, series); d > 0 {
					into[label(labels, key)] += d
				}
			}
		}
	}
	byLabel("redactd_ocr_regions_total", "reason", w.Areas)
	byLabel("redactd_font_checks_total", "result", w.FontChecks)
	w.FontColumns = Delta(before, after, "redactd_font_check_columns_total")
	w.KnownLines = Delta(before, after, "redactd_ocr_known_lines_total")
	w.Columns = Delta(before, after, "redactd_ocr_recognizer_columns_total")
	w.Crops = Delta(before, after, `redactd_model_batch_size_sum{model="ocr_rec"}`)
	return w
}
