package jobs

import (
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestReportCountsNationalID: the report counts NationalID masks under
// their own key, as it does every category (by_category holds
// pii_categories values; openapi.json).
func TestReportCountsNationalID(t *testing.T) {
	r := buildReport("d", &ProcessResult{PageCount: 1, Masks: []Mask{
		{Page: 0, Category: page.NationalID, Source: "text", Recognizer: "national-id/ch-ahv"},
		{Page: 0, Category: page.NationalID, Source: "ocr", Recognizer: "national-id/label"},
		{Page: 0, Category: page.PhoneNumber, Source: "text"},
	}})
	if r.Masks.ByCategory["NationalID"] != 2 || r.Masks.ByCategory["PhoneNumber"] != 1 || r.Masks.Total != 3 {
		t.Fatalf("by_category = %v, total %d", r.Masks.ByCategory, r.Masks.Total)
	}
}
