package client

import "testing"

func TestStagesBetweenScrapes(t *testing.T) {
	before := ParseMetrics(`# HELP redactd_stage_duration_seconds Time per page.
# TYPE redactd_stage_duration_seconds histogram
redactd_stage_duration_seconds_bucket{stage="render",le="0.001"} 1
redactd_stage_duration_seconds_sum{stage="render"} 0.5
redactd_stage_duration_seconds_count{stage="render"} 10
redactd_stage_duration_seconds_sum{stage="ocr"} 2
redactd_stage_duration_seconds_count{stage="ocr"} 1
process_resident_memory_bytes 1.2e+08
`)
	after := ParseMetrics(`redactd_stage_duration_seconds_sum{stage="render"} 1.5
redactd_stage_duration_seconds_count{stage="render"} 30
redactd_stage_duration_seconds_sum{stage="ocr"} 2
redactd_stage_duration_seconds_count{stage="ocr"} 1
redactd_stage_duration_seconds_sum{stage="detect"} 3
redactd_stage_duration_seconds_count{stage="detect"} 20
garbage line
`)
	if got := before["process_resident_memory_bytes"]; got != 1.2e8 {
		t.Errorf("rss %v", got)
	}
	got := Stages(before, after)
	want := []Stage{{"detect", 3, 20}, {"render", 1, 20}} // ocr saw nothing new
	if len(got) != len(want) {
		t.Fatalf("stages %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stage %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
