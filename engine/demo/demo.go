// Package demo holds the fixed synthetic sample that GET /v1/demo redacts:
// a one-page PDF made of invented personal data (no real person), and the
// positions of the example values in it, so the demo can report whether
// each was really masked in the run.
//
// Regenerate with `go generate ./engine/demo` after changing gen/main.go.
package demo

//go:generate go run ./gen -o .

import (
	_ "embed"
	"encoding/json"

	"github.com/redactd/redactd/engine/page"
)

//go:embed sample.pdf
var SamplePDF []byte

//go:embed sample.json
var sampleJSON []byte

// Example is one value of the sample with its word boxes in display points.
type Example struct {
	Category page.Category `json:"category"`
	Text     string        `json:"text"`
	Boxes    []page.Rect   `json:"boxes"`
}

// Sample describes SamplePDF.
type Sample struct {
	Text     string    `json:"text"` // the sample's text, line by line
	Examples []Example `json:"examples"`
}

// Load returns the description of SamplePDF.
func Load() (Sample, error) {
	var s Sample
	err := json.Unmarshal(sampleJSON, &s)
	return s, err
}
