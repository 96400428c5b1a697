package server

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestOpenAPICategories keeps the documented Category enum and the
// categories the service accepts (page.Categories) the same, so that an
// added category (NationalID) cannot be accepted and undocumented.
func TestOpenAPICategories(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas struct {
				Category struct {
					Enum []string `json:"enum"`
				} `json:"Category"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	var want []string
	for _, c := range page.Categories {
		want = append(want, string(c))
	}
	if got := doc.Components.Schemas.Category.Enum; !slices.Equal(got, want) {
		t.Fatalf("openapi Category enum = %v, want page.Categories %v", got, want)
	}
}
