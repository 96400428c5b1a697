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

func TestOCRWorkBetween(t *testing.T) {
	before := ParseMetrics(`redactd_ocr_regions_total{reason="ink"} 4
redactd_font_checks_total{result="trusted"} 2
redactd_font_check_columns_total 640
redactd_ocr_recognizer_columns_total 10000
redactd_model_batch_size_sum{model="ocr_rec"} 50
redactd_model_batch_size_sum{model="ner"} 7
`)
	after := ParseMetrics(`redactd_ocr_regions_total{reason="ink"} 10
redactd_ocr_regions_total{reason="page"} 1
redactd_font_checks_total{result="trusted"} 5
redactd_font_checks_total{result="untrusted"} 1
redactd_font_check_columns_total 1600
redactd_ocr_known_lines_total 3
redactd_ocr_recognizer_columns_total 25000
redactd_model_batch_size_sum{model="ocr_rec"} 80
redactd_model_batch_size_sum{model="ner"} 99
`)
	w := OCRWorkBetween(before, after)
	if w.Areas["ink"] != 6 || w.Areas["page"] != 1 || len(w.Areas) != 2 {
		t.Errorf("areas %v", w.Areas)
	}
	if w.FontChecks["trusted"] != 3 || w.FontChecks["untrusted"] != 1 {
		t.Errorf("font checks %v", w.FontChecks)
	}
	if w.FontColumns != 960 || w.KnownLines != 3 || w.Columns != 15000 || w.Crops != 30 {
		t.Errorf("columns %v, known %v, recogniser %v columns %v crops", w.FontColumns, w.KnownLines, w.Columns, w.Crops)
	}
}
