package review

import (
	"os"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestEditorStyles: every category the editor lists (page.Categories and
// IncludedTerm) has its colour and dash pattern in editor.js, so that a
// new category (NationalID) is not drawn in the fallback black.
func TestEditorStyles(t *testing.T) {
	js, err := os.ReadFile("assets/editor.js")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(js), "const STYLE = {")
	end := strings.Index(string(js)[start:], "};")
	if start < 0 || end < 0 {
		t.Fatal("editor.js: no STYLE table")
	}
	style := string(js)[start : start+end]
	for _, c := range append(page.Categories, page.IncludedTerm) {
		if !strings.Contains(style, " "+string(c)+": [") {
			t.Errorf("editor.js STYLE has no entry for %s", c)
		}
	}
}
