// Package view is the text of a page as detectors read it: View joins a
// run of a page's lines into one text (words by spaces, lines by
// newlines) whose byte offsets map back to words and rune offsets, so a
// match inside "Email:jo@x.org" becomes a partial-word span. It also holds
// what every recognizer and rule shares: word cores without punctuation,
// line context, the one sentence-end predicate (EndsSentence), the
// paragraph test (View.FlowsOn) and span algebra (Merge, SortSpans,
// Overlap).
//
// It is a leaf of engine/detect: the framework (engine/detect), the
// pattern recognizers (engine/detect/pattern) and the context rules
// (engine/detect/rules) all build on it, and it imports none of them.
package view
