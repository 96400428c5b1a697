package server

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/internal/qparam"
)

// Stable machine codes of error bodies. The spec fixes invalid_request,
// unauthorized, quota_exceeded and rate_limited; the others are ours.
const (
	CodeInvalid          = "invalid_request"
	CodeUnauthorized     = "unauthorized"
	CodeQuota            = "quota_exceeded"
	CodeNotFound         = "not_found"
	CodeTooLarge         = "file_too_large"
	CodeConflict         = "conflict"
	CodeRateLimited      = "rate_limited"
	CodeMethodNotAllowed = "method_not_allowed"
	CodeUnavailable      = "unavailable"
	CodeInternal         = "internal"
	// Review extension: a PUT of a review state without If-Match (428),
	// with a stale one (412), an apply whose new output failed the gate
	// (422; the old output is kept).
	CodePreconditionRequired = "precondition_required"
	CodePreconditionFailed   = "precondition_failed"
	CodeOutputRejected       = "output_rejected"
)

// APIError is an error meant for the caller: an HTTP status, a stable code
// and a message that names the offending field (never content, keys or
// paths).
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string { return e.Message }

// invalidf builds a 400 invalid_request whose message starts with the field
// name, e.g. "pii_categories: unknown category \"Foo\"".
func invalidf(field, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Code: CodeInvalid, Message: field + ": " + fmt.Sprintf(format, args...)}
}

// paramError is the 400 of a query parameter that broke its qparam rule.
func paramError(err error) *APIError {
	var pe *qparam.Error
	if errors.As(err, &pe) {
		return invalidf(pe.Name, "%s", pe.Rule)
	}
	return &APIError{Status: http.StatusBadRequest, Code: CodeInvalid, Message: err.Error()}
}

func tooLargef(format string, args ...any) *APIError {
	return &APIError{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: fmt.Sprintf(format, args...)}
}

var (
	errUnauthorized = &APIError{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: "Unauthorized"}
	errNotFound     = &APIError{Status: http.StatusNotFound, Code: CodeNotFound, Message: "Not found"}
	errInternal     = &APIError{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "Internal error"}
)

// mapError turns any error into the APIError the caller sees. A
// *contract.FieldError (the request rules the engine shares) is a 400
// built from its Field and Msg, or a 413 when it is TooLarge. Engine errors map by kind (errors.Is on the sentinel);
// the message is the *jobs.Error's own Field and Msg (the engine
// promises they hold no PII), or the kind's default text for a bare
// sentinel. Anything unknown is a
// 500 whose details stay in the log.
func mapError(err error) *APIError {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae
	}
	var fe *contract.FieldError
	if errors.As(err, &fe) {
		if fe.TooLarge {
			return &APIError{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: fe.Error()}
		}
		return &APIError{Status: http.StatusBadRequest, Code: CodeInvalid, Message: fe.Error()}
	}
	for _, k := range engineKinds {
		if errors.Is(err, k.kind) {
			return &APIError{Status: k.status, Code: k.code, Message: callerMessage(err, k.def)}
		}
	}
	return errInternal
}

// engineKinds maps each engine sentinel to its status, code and default
// message, in the order mapError tries them.
var engineKinds = []struct {
	kind   error
	status int
	code   string
	def    string
}{
	{jobs.ErrUnauthorized, http.StatusUnauthorized, CodeUnauthorized, "Unauthorized"},
	{jobs.ErrInvalid, http.StatusBadRequest, CodeInvalid, "Invalid request"},
	{jobs.ErrQuota, http.StatusPaymentRequired, CodeQuota, "Insufficient quota"},
	{jobs.ErrNotFound, http.StatusNotFound, CodeNotFound, "Not found"},
	{jobs.ErrTooLarge, http.StatusRequestEntityTooLarge, CodeTooLarge, "File too large"},
	{jobs.ErrConflict, http.StatusConflict, CodeConflict, "Conflict"},
	{jobs.ErrUnavailable, http.StatusServiceUnavailable, CodeUnavailable, "Service unavailable"},
	{jobs.ErrStale, http.StatusPreconditionFailed, CodePreconditionFailed, "The review state changed; reload it"},
	{jobs.ErrOutputRejected, http.StatusUnprocessableEntity, CodeOutputRejected, "The new output was rejected; the previous one is kept"},
}

// callerMessage is the text of the *jobs.Error in err, or def. Some
// kinds keep their fixed text whatever the engine said: 401 says only
// "Unauthorized" and 402 only "Insufficient quota", so neither tells a
// caller why a key or a token failed.
func callerMessage(err error, def string) string {
	if errors.Is(err, jobs.ErrUnauthorized) || errors.Is(err, jobs.ErrQuota) {
		return def
	}
	var ee *jobs.Error
	if errors.As(err, &ee) {
		if m := ee.Message(); m != "" {
			return m
		}
	}
	return def
}
