package detect

import (
	"github.com/redactd/redactd/engine/detect/rules"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// View is the text of a run of a page's lines, with byte offsets that map
// back to words and runes (engine/detect/view).
type View = view.View

// PageView returns the View of all of p's words.
func PageView(p *page.Page) *View { return view.PageView(p) }

// PageFromText builds a page of the words of text, one line per line, and
// returns with it each word's byte offset in text (view.PageFromText).
func PageFromText(text string) (*page.Page, []int) { return view.PageFromText(text) }

// Rule is one named step Run takes after the detectors (rules.Rule).
type Rule = rules.Rule

// Rules are the registry's rules, in the order Run applies them
// (rules.Rules).
var Rules = rules.Rules
