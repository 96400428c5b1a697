package jobs

import "github.com/redactd/redactd/engine/contract"

// The processor contract lives in the leaf package engine/contract, so the
// pipeline never imports the job service; these names keep the engine's
// API as it was.
type (
	Processor     = contract.Processor
	ProcessInput  = contract.ProcessInput
	Progress      = contract.Progress
	ProcessResult = contract.ProcessResult
	PageInfo      = contract.PageInfo
	Mask          = contract.Mask
	DocError      = contract.DocError
	Status        = contract.Status
	Options       = contract.Options
)

const (
	StatusUploaded  = contract.StatusUploaded
	StatusAnalyzing = contract.StatusAnalyzing
	StatusRedacting = contract.StatusRedacting
	StatusRedacted  = contract.StatusRedacted
	StatusError     = contract.StatusError
)

// DocErrorf wraps a caller-facing failure message (contract.DocErrorf).
func DocErrorf(msg string) error { return contract.DocErrorf(msg) }

// UserMessage returns the error_message for err (contract.UserMessage).
func UserMessage(err error) string { return contract.UserMessage(err) }
