// Package contract is what the job service (engine) and a document
// processor (engine/pipeline) agree on: the document states, the redaction
// options, the Processor interface with its input, progress and result,
// and the caller-facing document error. It is a leaf: it imports only the
// page model, so the pipeline depends on it and never on the job service,
// its job log or its store, and a second job service (a cluster engine)
// can drive the same processor.
package contract

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/redactd/redactd/engine/page"
)

// Status is the state of a document or job.
type Status string

const (
	StatusUploaded  Status = "uploaded"
	StatusAnalyzing Status = "analyzing"
	StatusRedacting Status = "redacting"
	StatusRedacted  Status = "redacted"
	StatusError     Status = "error"
)

// Terminal reports whether no further transition can happen.
func (s Status) Terminal() bool { return s == StatusRedacted || s == StatusError }

// Options are the redaction settings of a job. A nil slice means "not
// given": the account's saved default applies.
type Options struct {
	Categories []page.Category
	Included   []string
	Excluded   []string
	// Language is the request's language hint (FieldLanguage, issue 46):
	// an ISO 639-1 code of Languages, or "" for `auto` (Validate turns
	// "auto" into ""). Each page block's language is told from its text;
	// the hint is taken only where the text cannot tell (a heading, a
	// short line): see engine/detect/lang Hint.
	Language string
}

// Processor turns one original document into a flattened, redacted PDF.
// The job service owns files and states; the processor only reads the
// input, writes the output and reports progress. Processing the same input
// twice yields the same output, so recovery can simply start over.
type Processor interface {
	// Process reads the original at in.Path and writes the redacted PDF to
	// out. It calls progress when the document enters a new state and once
	// the page count is known; a non-nil error from progress (quota exceeded,
	// job deleted) aborts processing and is returned as is.
	Process(ctx context.Context, in ProcessInput, out io.Writer, progress func(Progress) error) (*ProcessResult, error)
}

// ProcessInput names a document to redact, with its resolved options
// (account defaults already applied).
type ProcessInput struct {
	DocID string
	Path  string
	// Kind is the file type the job service sniffed when it took the file
	// (imagein's names: pdf, png, jpeg, tiff, bmp, gif, webp), so the
	// processor opens it without sniffing again. Empty only for documents
	// recorded before kinds were stored; the processor sniffs those.
	Kind    string
	Options Options
	// Fixed, when set, replaces detection: the processor burns exactly
	// Masks (their boxes as given, no detection, no OCR, no growth) and
	// reports them back. The review editor's apply re-burns an original
	// this way through the same render, encode and write path.
	Fixed bool
	Masks []Mask
	// KeepWords asks for the words of every page (text layer, form
	// fields, annotations and OCR, with their boxes) in the result, for
	// the review editor's search of studio documents.
	KeepWords bool
}

// Progress is reported while a document moves through the pipeline.
type Progress struct {
	Status    Status // analyzing once opened, redacting once detection is done
	PageCount int    // known after opening; 0 before
	// PagesDone counts the pages written to the output so far. The
	// processor may report it after every page: the job service stores it
	// at most about once a second per document.
	PagesDone int
}

// ProcessResult is what a finished document leaves behind.
type ProcessResult struct {
	PageCount   int
	OutputBytes int64
	Masks       []Mask
	// Words are the pages' words when ProcessInput.KeepWords was set.
	Words []Word
	// Pages describes each page, in order (for the document's report);
	// a processor may leave it empty.
	Pages []PageInfo
	// Timings is where the time went, by stage (for the report): "open"
	// and "total" are wall-clock time of the document; the per-page stages
	// are summed over its pages, which run in parallel, so they can add
	// up to more than "total".
	Timings map[string]time.Duration
}

// PageInfo is what the report says about one page besides its masks.
type PageInfo struct {
	OCR bool // OCR read (part of) the page
	// Width and Height are the page's size in points as the output shows
	// it (rotation and crop applied).
	Width, Height float64
}

// Word is one word a reader sees on a page, with its box in page points
// (the masks' space), kept for studio documents so the review editor can
// search them.
type Word struct {
	Page int       `json:"page"` // 0-based
	Text string    `json:"text"`
	Box  page.Rect `json:"box"`
}

// Mask is one masked box, kept for studio jobs so a review editor can
// reopen the detections.
type Mask struct {
	Page       int           `json:"page"`
	Box        page.Rect     `json:"box"` // in page points
	Category   page.Category `json:"category"`
	Source     string        `json:"source"`
	Recognizer string        `json:"recognizer"`
	Score      float32       `json:"score"`
}

// DocError is a failure of one document that the caller should see as the
// document's error_message. Its message never contains document content.
type DocError struct{ Msg string }

func (e *DocError) Error() string { return e.Msg }

// DocErrorf wraps a caller-facing failure message.
func DocErrorf(msg string) error { return &DocError{Msg: msg} }

// UserMessage returns the error_message for err: the DocError's message
// when there is one, else a generic message (internal details stay in logs).
func UserMessage(err error) string {
	var de *DocError
	if errors.As(err, &de) {
		return de.Msg
	}
	return "internal error while processing the document"
}
